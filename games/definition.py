"""A game, as one object: what a game's app declares of itself in its ``game.py`` (``GAME = GameDefinition(...)``).

The registry (``games.registry``) is built from these definitions, one per game app, and checks each at
start-up (``check_definition``): a mistake stops the site with a message naming the app and the part.
The slug is the app's label; it is spelled nowhere else.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.http import QueryDict
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from games.engine import Action, Bot, Engine, InvalidAction
from games.kit.analysis import Analyser
from games.support import untrusted

# Form fields that carry request plumbing, not parts of the action.
_PLUMBING = {"csrfmiddlewaretoken", "version"}


def parse_form(data: QueryDict) -> Action:
    """Build an action from a submitted form (or a JSON ``action`` field from the API or a script).

    Fields named ``x[]`` become lists; everything else a single string. The engine validates types.
    """
    if "action" in data:
        try:
            action = untrusted.loads(data["action"])
        except untrusted.BadInput as exc:
            raise InvalidAction(exc.message) from exc
        if not isinstance(action, dict):
            raise InvalidAction(_("The action must be a JSON object."))
        return action
    action: Action = {}
    for key in data:
        if key in _PLUMBING:
            continue
        if key.endswith("[]"):
            action[key[:-2]] = data.getlist(key)
        else:
            action[key] = data[key]
    if "type" not in action:
        raise InvalidAction(_("The action has no type."))
    return action


@dataclass(frozen=True)
class GameOption:
    """A match option a player may choose on the new-match form (stacked decks and start positions
    stay for tests and tutorials)."""

    key: str
    label: Promise
    choices: list[tuple[str, Promise]]
    initial: str
    coerce: Callable[[str], Any] = str
    help_text: Promise | str = ""


TIMEOUT_POLICIES = ("claim", "substitute")


@dataclass(frozen=True, kw_only=True)
class GameDefinition:
    """Everything the site knows of one game, named in one place (its app's ``game.py``).

    Texts are lazy (``gettext_lazy``): the definition is read before translations are active.
    """

    # The game's name and one-line description, as the new-match form and the rules page show them.
    name: Promise | str
    blurb: Promise | str = ""
    # The pure rules engine (``games.engine.Engine``): new_game, to_act, legal_actions, apply, view,
    # result, dump, load, min_players, max_players.
    engine: Engine
    # The computer player: ``choose(view, legal, *, rng, budget_s, level)`` returns one of ``legal``. It is
    # sent to the bot worker process by reference, so it must be a module-level function.
    bot: Bot
    # An event of a view as a translated sentence: ``describe_event(event, names) -> str``.
    describe_event: Callable[[dict[str, Any], list[str]], str]
    # Template-ready shapes from a seat's view: ``present(view, seat) -> dict`` (``board`` in the template).
    present: Callable[[dict[str, Any], int | None], dict[str, Any]] | None = None
    # The score the board stands at, per seat, from a spectator's view: ``standing(view) -> list[int] | None``.
    # What a match that ended early (a resignation, a timeout) ended at; None: the game keeps no running score.
    standing: Callable[[dict[str, Any]], list[int] | None] | None = None
    # A seat's name in this game (Reversi's "Black"): ``seat_label(seat) -> str``.
    seat_label: Callable[[int], str] | None = None
    # How a card code reads on the page (e.g. Back Alley's "QH" as "Q♥"), for face-up replays.
    card_label: Callable[[str], str] = str
    # The submitted board form as an action; by default every field but the plumbing, ``x[]`` as lists.
    parse_form: Callable[[QueryDict], Action] = parse_form
    # Options the new-match form offers.
    options: tuple[GameOption, ...] = ()
    # Prepares the bot in a fresh worker process (e.g. compiles a search) so its first move is not
    # the slow one; a module-level function, sent to the worker by reference like ``bot``.
    warm_up: Callable[[], None] | None = None
    # Post-game analysis of a finished match (``games.kit.analysis``), if the game has one.
    analyser: Analyser | None = None
    # When a player's time runs out: "claim" lets the opponent claim the win; "substitute" seats a
    # computer player so the others can go on. By default: claim in a game for two, else substitute.
    timeout_policy: str | None = None
    # The worked examples its rules page draws, built by the game's own engine and presenter.
    rules_examples: Callable[[], dict[str, Any]] | None = None
    # The game's standard move-list notation of an action log (e.g. Reversi's "f5d6c3"), if it has one.
    transcript: Callable[[list[Action]], str] | None = None
    # The game the new-match form opens with.
    offered_first: bool = False
    # Said under the seats of the new-match form (who plays with whom), if the game needs it.
    seating_note: Promise | str = ""
    # Partnerships, as the seats of each team (Back Alley: 0 and 2 against 1 and 3); () when each plays
    # alone. Play now seats strangers so that the teams are even.
    teams: tuple[tuple[int, ...], ...] = ()
    # Whether anything in the game comes from the seed (a shuffle, a deal). A game with no chance has
    # nothing for its players to check, so its page shows no fair-play panel.
    shuffles: bool = True
    # Each seat is dealt cards the others cannot see, at the start. Once dealt, a rated match can no
    # longer be called off: a player who saw a bad hand could otherwise walk away at no cost.
    hidden_hands: bool = False
    # The board and the rules page, in the app's templates; by default ``<slug>/board.html`` and
    # ``<slug>/rules.html`` (``rules.<language>.html`` beside it when written in that language).
    board_template: str | None = None
    rules_template: str | None = None


ENGINE_METHODS = ("new_game", "to_act", "legal_actions", "apply", "view", "result", "dump", "load")


def _english(text: Promise | str) -> str:
    """The text as written in the source (no language active: the message id)."""
    with translation.override(None):
        return str(text)


def _module_level(function: Any) -> bool:
    """Whether ``function`` can be found again by its module and name (how the bot worker gets it)."""
    module = getattr(function, "__module__", None)
    qualname = getattr(function, "__qualname__", "")
    if not module or "<" in qualname:
        return False
    target: Any = import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part, None)
    return target is function


def definition_problems(definition: Any, slug: str) -> list[str]:
    """What is missing or wrong in a game's definition, each as a sentence (none: it is fine)."""
    if not isinstance(definition, GameDefinition):
        return [f"GAME is a {type(definition).__name__}, not a games.definition.GameDefinition"]
    problems = []
    engine = definition.engine
    missing = [m for m in ENGINE_METHODS if not callable(getattr(engine, m, None))]
    if missing:
        problems.append(f"the engine {type(engine).__name__} has no {', '.join(f'{m}()' for m in missing)}")
    low, high = getattr(engine, "min_players", None), getattr(engine, "max_players", None)
    if not (type(low) is int and type(high) is int and 1 <= low <= high):
        problems.append(f"the engine's min_players and max_players ({low!r}, {high!r}) are not 1 <= min <= max")
    # The engine need not name its game; if it does, the name must be the app's (the slug is the label).
    if getattr(engine, "slug", slug) != slug:
        problems.append(f"the engine's slug {engine.slug!r} is not the app's label {slug!r}")
    if hasattr(engine, "name") and engine.name != _english(definition.name):
        problems.append(f"the engine's name {engine.name!r} is not the game's name {_english(definition.name)!r}")
    for field in ("bot", "warm_up"):
        function = getattr(definition, field)
        if function is not None and not (callable(function) and _module_level(function)):
            problems.append(f"{field} must be a module-level function (the bot worker imports it by name)")
    for field in ("describe_event", "present", "standing", "seat_label", "card_label", "parse_form", "rules_examples"):
        function = getattr(definition, field)
        if function is not None and not callable(function):
            problems.append(f"{field} is not callable")
    if definition.present is not None and callable(definition.present):
        try:
            inspect.signature(definition.present).bind({}, None)
        except TypeError:
            problems.append("present must take (view, seat)")
    if definition.timeout_policy not in (None, *TIMEOUT_POLICIES):
        problems.append(f"timeout_policy {definition.timeout_policy!r} is not one of {TIMEOUT_POLICIES}")
    if not all(isinstance(option, GameOption) for option in definition.options):
        problems.append("options must be games.definition.GameOption objects")
    seats = [seat for team in definition.teams for seat in team]
    if seats and (sorted(seats) != list(range(len(seats))) or not isinstance(high, int) or len(seats) != high):
        problems.append(f"teams {definition.teams!r} must hold each seat of a full table ({high!r} seats) once")
    return problems
