"""slug -> game: what the match core knows of each game, declared by the game's app (see GameAppConfig)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from django.apps import AppConfig
from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.http import QueryDict
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from games import parsing
from games.engine import Action, Bot, Engine, InvalidAction
from games.kit.analysis import Analyser

if TYPE_CHECKING:
    from games.models import Match

# Form fields that carry request plumbing, not parts of the action.
_PLUMBING = {"csrfmiddlewaretoken", "version"}


def parse_form(data: QueryDict) -> Action:
    """Build an action from a submitted form (or a JSON ``action`` field from the API or a script).

    Fields named ``x[]`` become lists; everything else a single string. The engine validates types.
    """
    if "action" in data:
        try:
            action = parsing.loads(data["action"])
        except parsing.BadInput as exc:
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


@dataclass(frozen=True, kw_only=True)
class Declaration:
    """What a game says of itself: its match model's ``declaration`` (``games/<slug>/models.py``).

    The code every game has comes from its modules by the one layout (see ``conventional_parts``);
    a declaration names only what the layout cannot tell.
    """

    name: Promise | str
    blurb: Promise | str = ""
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


@dataclass(frozen=True, kw_only=True)
class Game(Declaration):
    """A registered game: its declaration, its app's label (the slug) and match model, and its parts."""

    slug: str
    model: type[Match]
    engine: Engine
    bot: Bot
    describe_event: Callable[[dict[str, Any], list[str]], str]
    parse_form: Callable[[QueryDict], Action] = parse_form
    # Optional label for a seat, e.g. Reversi's "Black"/"White".
    seat_label: Callable[[int], str] | None = None
    # Template-ready shapes computed from a seat's view (e.g. board rows); pure function of the view.
    present: Callable[[dict[str, Any], int | None], dict[str, Any]] | None = None
    # How a card code reads on the page (e.g. Back Alley's "QH" as "Q♥"), for face-up replays.
    card_label: Callable[[str], str] = str
    # Options the new-match form offers.
    options: tuple[GameOption, ...] = ()
    timeout_policy: str = "claim"
    # The game's own stylesheet and script, linked in the <head> of its pages: its app's
    # ``static/<slug>/style.css`` and ``static/<slug>/board.js`` if it has them.
    stylesheet: str | None = None
    script: str | None = None
    # Prepares the bot in a fresh worker process (e.g. compiles a search) so its first move is not
    # the slow one; a module-level function, sent to the worker by reference like ``bot``.
    warm_up: Callable[[], None] | None = None
    # Post-game analysis of a finished match (``games.kit.analysis``), if the game has one.
    analyser: Analyser | None = None

    @property
    def min_players(self) -> int:
        return self.engine.min_players

    @property
    def max_players(self) -> int:
        return self.engine.max_players

    @property
    def template(self) -> str:
        """The board, in the game app's templates."""
        return f"{self.slug}/board.html"

    @property
    def rules_template(self) -> str:
        """The rules page, in the game app's templates (``rules.<language>.html`` beside it when written
        in that language)."""
        return f"{self.slug}/rules.html"


# The parts every game's package provides, by module and name: (module, name, Game field, required).
LAYOUT = [
    ("rules", "engine", "engine", True),
    ("bot", "choose", "bot", True),
    ("bot", "warm_up", "warm_up", False),
    ("text", "describe_event", "describe_event", True),
    ("text", "card_label", "card_label", False),
    ("present", "present", "present", False),
    ("present", "seat_label", "seat_label", False),
    ("forms", "parse_form", "parse_form", False),
    ("forms", "OPTIONS", "options", False),
    ("analysis", "analyser", "analyser", False),
]


def conventional_parts(package: str) -> dict[str, Any]:
    """The parts a game's package provides by the layout, e.g. ``games.dos.rules.engine``."""
    parts: dict[str, Any] = {}
    for module_name, name, field_name, required in LAYOUT:
        try:
            module = import_module(f"{package}.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.{module_name}":
                raise  # the module exists and failed to import something else
            module = None
        if hasattr(module, name):
            parts[field_name] = getattr(module, name)
        elif required:
            raise ImproperlyConfigured(f"The game {package!r} has no {module_name}.{name}.")
    return parts


_games: dict[str, Game] = {}


def register(slug: str, model: type[Match], declaration: Declaration, parts: dict[str, Any]) -> Game:
    """Add a game under its app's label (done by ``GameAppConfig.ready``)."""
    declared = vars(declaration) | {
        "timeout_policy": declaration.timeout_policy or ("claim" if parts["engine"].max_players == 2 else "substitute")
    }
    stylesheet, script = f"{slug}/style.css", f"{slug}/board.js"
    game = Game(
        slug=slug,
        model=model,
        stylesheet=stylesheet if finders.find(stylesheet) else None,
        script=script if finders.find(script) else None,
        **declared,
        **parts,
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


class GameAppConfig(AppConfig):
    """The base of every game's app: it registers the declaration of the app's match model.

    A game's ``apps.py`` names only its package and its verbose name; the app label (the package's
    last name) is the game's slug, the one place it is spelled.
    """

    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        models = [m for m in self.get_models() if isinstance(getattr(m, "declaration", None), Declaration)]
        if len(models) != 1:
            raise ImproperlyConfigured(f"The game app {self.label!r} needs one match model with a declaration.")
        game = register(self.label, models[0], models[0].declaration, conventional_parts(self.name))
        self.verbose_name = game.name
