"""Each game is one definition (its app's ``game.py``), checked at start-up: a mistake stops the site with
a message that names the app and every part that is missing or wrong."""

from __future__ import annotations

import dataclasses
import sys
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from games import registry
from games.definition import GameDefinition, definition_problems
from tests.nim import rules
from tests.nim.game import GAME as NIM


def load(monkeypatch: pytest.MonkeyPatch, game: Any, label: str = "nim") -> GameDefinition:
    """``registry.load_definition`` on an app ``fake.<label>`` whose game.py holds ``game``."""
    module = ModuleType(f"fake.{label}.game")
    module.GAME = game  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return registry.load_definition(SimpleNamespace(label=label, name=f"fake.{label}"))  # type: ignore[arg-type]


class Engine(type(rules.engine)):  # type: ignore[misc]
    """Nim's engine under another name."""

    slug = "nom"
    name = "Nom"


def make_move(view: dict[str, Any], legal: list[Any], **_: Any) -> Any:
    return legal[0]


def test_every_registered_game_is_defined_without_a_problem() -> None:
    for game in registry.all_games():
        definition = GameDefinition(**{f.name: getattr(game, f.name) for f in dataclasses.fields(GameDefinition)})
        assert definition_problems(definition, game.slug) == [], game.slug


def test_an_engine_that_names_its_game_names_the_apps() -> None:
    """The slug is the app's label: an engine's own ``slug`` and ``name``, where it keeps them, must agree."""
    for game in registry.all_games():
        assert getattr(game.engine, "slug", game.slug) == game.slug
    assert definition_problems(dataclasses.replace(NIM, engine=Engine()), "nim") == [
        "the engine's slug 'nom' is not the app's label 'nim'",
        "the engine's name 'Nom' is not the game's name 'Nim'",
    ]


def test_a_good_definition_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load(monkeypatch, NIM) is NIM


def test_an_app_without_game_py_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured) as error:
        registry.load_definition(SimpleNamespace(label="support", name="tests.support"))  # type: ignore[arg-type]
    assert str(error.value) == (
        "The game app 'support' (tests.support) has no game.py: define GAME = GameDefinition(...) there."
    )
    module = ModuleType("fake.empty.game")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    with pytest.raises(ImproperlyConfigured, match=r"The game app 'empty' \(fake.empty\): its game.py defines no GAME"):
        registry.load_definition(SimpleNamespace(label="empty", name="fake.empty"))  # type: ignore[arg-type]


def test_every_problem_is_named_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    class Half:
        min_players = 2
        max_players = 1

        def new_game(self, players: int, seed: int, options: Any = None) -> None: ...

    wrong = dataclasses.replace(
        NIM,
        engine=Half(),
        bot=lambda view, legal, **kw: legal[0],
        present=lambda view: {},
        timeout_policy="forfeit",
        teams=((0, 1), (1,)),
    )
    with pytest.raises(ImproperlyConfigured) as error:
        load(monkeypatch, wrong)
    assert str(error.value) == (
        "The game app 'nim' (fake.nim): the engine Half has no to_act(), legal_actions(), apply(), view(), "
        "result(), dump(), load(); the engine's min_players and max_players (2, 1) are not 1 <= min <= max; "
        "bot must be a module-level function (the bot worker imports it by name); "
        "present must take (view, seat); "
        "timeout_policy 'forfeit' is not one of ('claim', 'substitute'); "
        "teams ((0, 1), (1,)) must hold each seat of a full table (1 seats) once."
    )


def test_a_module_level_bot_and_a_missing_template_are_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load(monkeypatch, dataclasses.replace(NIM, bot=make_move)).bot is make_move
    with pytest.raises(ImproperlyConfigured) as error:
        load(monkeypatch, dataclasses.replace(NIM, board_template="nim/nowhere.html"))
    assert str(error.value) == "The game app 'nim' (fake.nim): no template nim/nowhere.html."


def test_not_a_definition_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match=r"GAME is a dict, not a games.definition.GameDefinition"):
        load(monkeypatch, {"name": "Nim"})


def test_a_game_app_without_its_match_model_is_named() -> None:
    """The app's one proxy of games.models.Match is how its matches are kept apart: none is an error."""
    from django.apps import apps

    config = registry.GameAppConfig.create("tests.nim")
    config.apps = apps
    config.models = {}  # as if models.py held no proxy of Match
    with pytest.raises(ImproperlyConfigured) as error:
        config.ready()
    assert str(error.value) == (
        "The game app 'nim' (tests.nim) needs one match model: a proxy of games.models.Match in its models.py "
        "(it has 0)."
    )
