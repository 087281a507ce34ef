"""The seam between the match core and each game's pure rules engine.

Every ``games/<game>/rules.py`` exposes ``engine``, an object satisfying :class:`Engine`.
This module must stay free of Django and I/O: engines are plain, deterministic Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, runtime_checkable

Action = dict[str, Any]
View = dict[str, Any]


def gettext_noop(message: str) -> str:
    """Marks ``message`` for extraction into the translation catalogues without importing Django.

    Engines write ``from games.engine import gettext_noop as _`` and ``_("You do not hold %(card)s.")``:
    ``makemessages`` finds every ``_(...)``; the page translates the message where it is rendered.
    """
    return message


@dataclass(frozen=True)
class Text:
    """A player-facing sentence from an engine: an English message id with named ``%(...)s``
    placeholders, and their values (nested ``Text`` values are translated too). ``str()`` is the English
    sentence; ``games.support.i18n.localize`` gives it in the viewer's language."""

    message: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.params:
            return self.message
        return self.message % {key: str(value) for key, value in self.params.items()}


class IllegalAction(Exception):
    """The action is not allowed now. ``text`` is for the player (translated where it is shown);
    ``message`` is the same sentence in English, for logs and tests."""

    def __init__(self, message: str | Text, params: Mapping[str, Any] | None = None) -> None:
        text = message if isinstance(message, Text) else Text(message, dict(params or {}))
        super().__init__(str(text))
        self.text = text
        self.message = str(text)


class InvalidAction(IllegalAction):
    """The action is malformed: unknown type, missing or mistyped fields."""


class Result(TypedDict, total=False):
    """Final outcome, returned by ``Engine.result`` once the game is over.

    ``scores`` and ``ranks`` have one entry per seat. A rank of 1 is a win; seats that tie share a
    rank; when every seat has rank 1 the game is a draw. ``detail`` holds game-specific extras
    (e.g. Reversi's tournament score), JSON-ready.
    """

    scores: list[int]
    ranks: list[int]
    detail: dict[str, Any]


@runtime_checkable
class Engine(Protocol):
    """What every game's rules engine provides. ``State`` is the engine's own (immutable) type."""

    slug: str
    name: str
    min_players: int
    max_players: int

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        """A fresh game; all randomness comes from ``seed``. Raises ``InvalidAction`` on bad options."""

    def to_act(self, state: Any) -> list[int]:
        """Seats that may act now (several during a simultaneous step); ``[]`` once over."""

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """JSON-ready actions ``seat`` may take now; ``apply`` accepts exactly these."""

    def apply(self, state: Any, seat: int, action: Action) -> Any:
        """A NEW state after ``seat`` takes ``action``, forced steps resolved; raises IllegalAction."""

    def view(self, state: Any, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator). JSON-ready, never another seat's secrets."""

    def result(self, state: Any) -> Result | None:
        """The final outcome once the game is over, else ``None``."""

    def dump(self, state: Any) -> dict[str, Any]:
        """Lossless JSON-ready form of ``state``."""

    def load(self, data: dict[str, Any]) -> Any:
        """The state ``dump`` produced."""


@runtime_checkable
class Revealing(Protocol):
    """Optional, for games with hidden cards: every card where it lies, for the face-up replay of a
    finished match (``{"hands": [[code, ...] per seat], "piles": [{"pile": name, "cards": [...]}]}``,
    piles top first). Never used while a match is in play."""

    def reveal(self, state: Any) -> dict[str, Any]: ...


def winners(result: Result) -> list[int]:
    """Seats ranked first."""
    return [seat for seat, rank in enumerate(result["ranks"]) if rank == 1]


def is_draw(result: Result) -> bool:
    return all(rank == 1 for rank in result["ranks"])


class Bot(Protocol):
    """A computer player's policy. It sees exactly what a human in that seat would see."""

    def __call__(self, view: View, legal: list[Action], *, rng: Any, budget_s: float, level: str = "medium") -> Action:
        """One of ``legal``, chosen from ``view`` alone, within about ``budget_s`` seconds of work, at
        ``level`` ("easy", "medium" or "hard"; see docs/bots.md)."""
