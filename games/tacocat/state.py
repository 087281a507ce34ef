"""The immutable game state of Tacocat Spelled Backwards and its lossless JSON form.

Cards are plain ints (their value 1..12): copies of a value are interchangeable (TAC-1), so a hand is
a sorted tuple of values and the wire codes "1".."12" are just ``str(value)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.kit.codec import Hook, StateCodec, each
from games.kit.events import Event
from games.tacocat.actions import parse_options
from games.tacocat.cards import Config, code

REPLACE, DUEL, ATTACK, DEFEND, OVER = "replace", "duel", "attack", "defend", "over"
PHASES = (REPLACE, DUEL, ATTACK, DEFEND, OVER)
MAX_EVENTS = 30
DUMP_FORMAT = 2


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """How the last finished round ended (TAC-11..TAC-13)."""

    round_no: int
    cards: tuple[int, int]  # the showdown cards of seat 0 and seat 1
    winner: int | None  # the seat that moved the cat; None when the cat stayed
    tie: bool
    moved_from: int
    moved_to: int  # == moved_from when the cat stayed
    skipped: tuple[int, ...]  # covered positions jumped over (TAC-E10)
    tile: int | None  # the position covered, None when the cat stayed


# The view shows a round's outcome in this form too: cards by their codes, the cat's move as from/to.
OUTCOME = StateCodec(
    RoundOutcome,
    names={"round_no": "round", "moved_from": "from", "moved_to": "to"},
    fields={"cards": each(Hook(code, int))},
)


Hand = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    """A whole match at one moment (section 1.3 of the rules file).

    Committed simultaneous choices stay in the hand until both are revealed, so hand sizes never give a
    commit away and TAC-INV1 holds outside an exchange. During DEFEND the attack cards are in
    ``attack``, out of the attacker's hand.
    """

    config: Config
    seed: int
    round_no: int
    cat: int  # -4 / +4 once in a goal
    covered: tuple[int, ...]  # sorted positions with a tile
    hands: tuple[Hand, Hand]  # sorted values
    draw: tuple[int, ...]  # top first
    discard: tuple[int, ...]  # oldest first
    phase: str
    replaced: tuple[int | None, int | None] = (None, None)  # cards replaced this round, once done
    cap: int | None = None  # TAC-6: set by the first replacer
    commits: tuple[Hand | None, Hand | None] = (None, None)  # secret until both are in
    attacker: int | None = None
    attack: Hand = ()  # the attack waiting for an answer, sorted
    revealed: tuple[int, int] | None = None  # the latest duel of this round, seat 0's card first
    last_round: RoundOutcome | None = None
    winner: int | None = None
    events: tuple[Event, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def hand_size(self) -> int:
        """The hand size of the round being played (from the cat's space)."""
        return self.config.hand_size(self.cat) if -3 <= self.cat <= 3 else 0

    def simultaneous(self) -> bool:
        return self.phase == DUEL or (self.phase == REPLACE and self.config.first_replacer(self.cat) is None)

    def with_events(self, *new: Event) -> tuple[Event, ...]:
        return (*self.events, *new)[-MAX_EVENTS:]


def _from_format_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 named an event's public fields "data"."""
    return {**data, "events": [{**e, "public": e["data"]} for e in data["events"]]}


CODEC = StateCodec(
    State,
    name="Tacocat",
    format=DUMP_FORMAT,
    older={1: _from_format_1},
    names={"round_no": "round"},
    # The match's setup as its options (checked again on load).
    types={Config: Hook(Config.to_json, lambda data: parse_options(data)[0]), RoundOutcome: OUTCOME},
)
dump_state, load_state = CODEC.dump, CODEC.load
