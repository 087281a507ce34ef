"""slug -> game: what the match core needs to know of each game. Filled by each game app's ready()."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict

from games import parsing
from games.engine import Action, Bot, Engine, InvalidAction

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
            raise InvalidAction("The action must be a JSON object.")
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
        raise InvalidAction("The action has no type.")
    return action


@dataclass(frozen=True)
class Game:
    slug: str
    name: str
    engine: Engine
    bot: Bot
    template: str
    describe_event: Callable[[dict[str, Any], list[str]], str]
    parse_form: Callable[[QueryDict], Action] = parse_form
    # Optional label for a seat, e.g. Reversi's "Black"/"White".
    seat_label: Callable[[int], str] | None = None
    # Template-ready shapes computed from a seat's view (e.g. board rows); pure function of the view.
    present: Callable[[dict[str, Any], int | None], dict[str, Any]] | None = None
    blurb: str = ""
    # When a player's time runs out: "claim" lets the opponent claim the win (two-player games);
    # "substitute" seats a computer player so the others can go on.
    timeout_policy: str = "claim"
    # The game's standard move-list notation of an action log (e.g. Reversi's "f5d6c3"), if it has one.
    transcript: Callable[[list[Action]], str] | None = None
    # How a card code reads on the page (e.g. Back Alley's "QH" as "Q♥"), for face-up replays.
    card_label: Callable[[str], str] = str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def min_players(self) -> int:
        return self.engine.min_players

    @property
    def max_players(self) -> int:
        return self.engine.max_players


_games: dict[str, Game] = {}


def register(game: Game) -> None:
    if game.slug in _games and _games[game.slug] is not game:
        raise ValueError(f"Game {game.slug!r} is already registered.")
    _games[game.slug] = game


def get(slug: str) -> Game:
    try:
        return _games[slug]
    except KeyError:
        raise LookupError(f"Unknown game {slug!r}.") from None


def all_games() -> list[Game]:
    return sorted(_games.values(), key=lambda g: g.slug)


def choices() -> list[tuple[str, str]]:
    return [(g.slug, g.name) for g in all_games()]
