"""slug -> game: what the match core knows of each game, built from each game app's definition
(``games.definition.GameDefinition`` in the app's ``game.py``; see GameAppConfig)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING

from django.apps import AppConfig
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.template import engines

from games.definition import GameDefinition, GameOption, definition_problems, parse_form

if TYPE_CHECKING:
    from games.models import Match

__all__ = ["Game", "GameAppConfig", "GameDefinition", "GameOption", "all_games", "default_game", "get", "parse_form"]


@dataclass(frozen=True, kw_only=True)
class Game(GameDefinition):
    """A registered game: its definition, its app's label (the slug) and match model, and what the app holds."""

    slug: str
    model: type[Match]
    timeout_policy: str = "claim"
    # The game's own stylesheet and script, linked in the <head> of its pages: its app's
    # ``static/<slug>/style.css`` and ``static/<slug>/board.js`` if it has them.
    stylesheet: str | None = None
    script: str | None = None
    # The app's folder (its templates, static files and translations live there).
    path: Path | None = None

    @property
    def min_players(self) -> int:
        return self.engine.min_players

    @property
    def max_players(self) -> int:
        return self.engine.max_players

    @property
    def template(self) -> str:
        """The board, in the game app's templates (``board_template``: filled in by ``register``)."""
        return self.board_template or f"{self.slug}/board.html"


_games: dict[str, Game] = {}


def _template_exists(name: str) -> bool:
    """Whether a template file of that name is on the template loaders' paths (without compiling it)."""
    engine = engines["django"].engine
    for loader in engine.template_loaders:
        for origin in loader.get_template_sources(name):
            if Path(origin.name).is_file():
                return True
    return False


def register(slug: str, model: type[Match], definition: GameDefinition, path: Path | None = None) -> Game:
    """Add a game under its app's label (done by ``GameAppConfig.ready``)."""
    declared = {f.name: getattr(definition, f.name) for f in fields(GameDefinition)}
    declared["timeout_policy"] = definition.timeout_policy or (
        "claim" if definition.engine.max_players == 2 else "substitute"
    )
    # The templates by the one layout unless the definition names others.
    declared["board_template"] = definition.board_template or f"{slug}/board.html"
    declared["rules_template"] = definition.rules_template or f"{slug}/rules.html"
    stylesheet, script = f"{slug}/style.css", f"{slug}/board.js"
    game = Game(
        slug=slug,
        model=model,
        stylesheet=stylesheet if finders.find(stylesheet) else None,
        script=script if finders.find(script) else None,
        path=path,
        **declared,
    )
    if slug in _games and _games[slug] != game:
        raise ValueError(f"Game {slug!r} is already registered.")
    _games[slug] = game
    return game


def get(slug: str) -> Game:
    try:
        return _games[slug]
    except KeyError:
        raise LookupError(f"Unknown game {slug!r}.") from None


def all_games() -> list[Game]:
    return sorted(_games.values(), key=lambda g: g.slug)


def default_game() -> Game:
    """The game the new-match form opens with: the one declared ``offered_first``, else the first."""
    games = all_games()
    return next((g for g in games if g.offered_first), games[0])


def load_definition(app: AppConfig) -> GameDefinition:
    """The app's ``game.GAME``, checked: ImproperlyConfigured names the app and every problem found."""
    where = f"The game app {app.label!r} ({app.name})"
    try:
        module = import_module(f"{app.name}.game")
    except ModuleNotFoundError as exc:
        if exc.name != f"{app.name}.game":
            raise  # game.py exists and failed to import something else
        raise ImproperlyConfigured(f"{where} has no game.py: define GAME = GameDefinition(...) there.") from None
    if not hasattr(module, "GAME"):
        raise ImproperlyConfigured(f"{where}: its game.py defines no GAME = GameDefinition(...).")
    problems = definition_problems(module.GAME, app.label)
    if not problems:
        board = module.GAME.board_template or f"{app.label}/board.html"
        rules = module.GAME.rules_template or f"{app.label}/rules.html"
        problems = [f"no template {name}" for name in (board, rules) if not _template_exists(name)]
    if problems:
        raise ImproperlyConfigured(f"{where}: " + "; ".join(problems) + ".")
    return module.GAME


class GameAppConfig(AppConfig):
    """The base of every game's app: it registers the app's definition (``game.py``'s ``GAME``).

    A game's ``apps.py`` names only its package; the app label (the package's last name) is the
    game's slug, the one place it is spelled.
    """

    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        definition = load_definition(self)
        # Found by the app registry, not imported: games.models imports this module.
        match = self.apps.get_model("games", "Match")
        models = [m for m in self.get_models() if m._meta.proxy and issubclass(m, match)]
        if len(models) != 1:
            raise ImproperlyConfigured(
                f"The game app {self.label!r} ({self.name}) needs one match model: a proxy of games.models.Match "
                f"in its models.py (it has {len(models)})."
            )
        game = register(self.label, models[0], definition, Path(self.path))
        self.verbose_name = game.name
