"""The immutable game state of Tacocat Spelled Backwards and its lossless JSON form.

Cards are plain ints (their value 1..12): copies of a value are interchangeable (TAC-1), so a hand is
a sorted tuple of values and the wire codes "1".."12" are just ``str(value)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.kit.events import Event
from games.tacocat.actions import parse_options
from games.tacocat.cards import Config

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

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round_no,
            "cards": [str(c) for c in self.cards],
            "winner": self.winner,
            "tie": self.tie,
            "from": self.moved_from,
            "to": self.moved_to,
            "skipped": list(self.skipped),
            "tile": self.tile,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoundOutcome:
        return cls(
            data["round"],
            (int(data["cards"][0]), int(data["cards"][1])),
            data["winner"],
            data["tie"],
            data["from"],
            data["to"],
            tuple(data["skipped"]),
            data["tile"],
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


def dump_state(state: State) -> dict[str, Any]:
    return {
        "format": DUMP_FORMAT,
        "config": state.config.to_json(),
        "seed": state.seed,
        "round": state.round_no,
        "cat": state.cat,
        "covered": list(state.covered),
        "hands": [list(h) for h in state.hands],
        "draw": list(state.draw),
        "discard": list(state.discard),
        "phase": state.phase,
        "replaced": list(state.replaced),
        "cap": state.cap,
        "commits": [None if c is None else list(c) for c in state.commits],
        "attacker": state.attacker,
        "attack": list(state.attack),
        "revealed": None if state.revealed is None else list(state.revealed),
        "last_round": None if state.last_round is None else state.last_round.to_json(),
        "winner": state.winner,
        "events": [e.dump() for e in state.events],
    }


def load_state(data: dict[str, Any]) -> State:
    if data.get("format") not in (1, DUMP_FORMAT):
        raise ValueError(f"Unknown Tacocat dump format {data.get('format')!r}.")
    if data["format"] == 1:  # format 1 named an event's public fields "data"
        data = {**data, "events": [{**e, "public": e["data"]} for e in data["events"]]}
    config, _ = parse_options(data["config"])
    hands = data["hands"]
    commits = data["commits"]
    revealed = data["revealed"]
    return State(
        config=config,
        seed=data["seed"],
        round_no=data["round"],
        cat=data["cat"],
        covered=tuple(data["covered"]),
        hands=(tuple(hands[0]), tuple(hands[1])),
        draw=tuple(data["draw"]),
        discard=tuple(data["discard"]),
        phase=data["phase"],
        replaced=(data["replaced"][0], data["replaced"][1]),
        cap=data["cap"],
        commits=(
            None if commits[0] is None else tuple(commits[0]),
            None if commits[1] is None else tuple(commits[1]),
        ),
        attacker=data["attacker"],
        attack=tuple(data["attack"]),
        revealed=None if revealed is None else (revealed[0], revealed[1]),
        last_round=None if data["last_round"] is None else RoundOutcome.from_json(data["last_round"]),
        winner=data["winner"],
        events=tuple(Event.load(e) for e in data["events"]),
    )
