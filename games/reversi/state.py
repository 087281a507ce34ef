"""The Reversi state (immutable), its events and its lossless JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import Result
from games.kit.codec import Hook, Joint, StateCodec, coded, each
from games.reversi.board import SQUARE_INDEX, SQUARE_NAMES, board_string, parse_board, squares

BLACK, WHITE = 0, 1
COLOURS = ("B", "W")
# REV-2: white d4 and e5, black e4 and d5.
START_BLACK = (1 << SQUARE_INDEX["e4"]) | (1 << SQUARE_INDEX["d5"])
START_WHITE = (1 << SQUARE_INDEX["d4"]) | (1 << SQUARE_INDEX["e5"])
VIEW_EVENTS = 30
DUMP_FORMAT = 2


@dataclass(frozen=True, slots=True)
class Placed:
    seat: int
    square: int
    flipped: int  # bitboard


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class Ended:
    black: int
    white: int


Event = Placed | Passed | Ended


@dataclass(frozen=True, slots=True)
class State:
    """A position and what the view shows of its past. ``to_move`` is a seat, or None once over.

    The size does not grow with the game: the full record is the match's action log (replaying it
    from the start gives this state back); the state keeps only the latest events the view shows and
    the number of placements so far.
    """

    black: int
    white: int
    to_move: int | None
    seed: int
    # The latest events, oldest first: at most VIEW_EVENTS (see _recent).
    events: tuple[Event, ...] = ()
    placements: int = 0

    @property
    def over(self) -> bool:
        return self.to_move is None

    def discs(self, seat: int) -> tuple[int, int]:
        """(own, opponent) bitboards from ``seat``'s side."""
        return (self.black, self.white) if seat == BLACK else (self.white, self.black)


def recent(events: tuple[Event, ...]) -> tuple[Event, ...]:
    return events[-VIEW_EVENTS:]


def event_json(event: Event) -> dict[str, Any]:
    if isinstance(event, Placed):
        return {
            "type": "place",
            "seat": event.seat,
            "square": SQUARE_NAMES[event.square],
            "flipped": squares(event.flipped),
        }
    if isinstance(event, Passed):
        return {"type": "pass", "seat": event.seat}
    return {"type": "end", "counts": {"B": event.black, "W": event.white}}


def event_from_json(data: dict[str, Any]) -> Event:
    kind = data["type"]
    if kind == "place":
        flipped = 0
        for name in data["flipped"]:
            flipped |= 1 << SQUARE_INDEX[name]
        return Placed(int(data["seat"]), SQUARE_INDEX[data["square"]], flipped)
    if kind == "pass":
        return Passed(int(data["seat"]))
    if kind == "end":
        return Ended(int(data["counts"]["B"]), int(data["counts"]["W"]))
    raise ValueError(f"Unknown event type {kind!r}.")


def _from_format_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 kept every event since the start and no placement count."""
    events = data["events"]
    placements = sum(1 for e in events if e["type"] == "place")
    return {**data, "placements": placements, "events": events[-VIEW_EVENTS:]}


CODEC = StateCodec(
    State,
    name="Reversi",
    format=DUMP_FORMAT,
    older={1: _from_format_1},
    # The two bitboards as one board string, the seat to move as its colour; events as the view shows them.
    joint={"board": Joint(("black", "white"), board_string, parse_board)},
    fields={"to_move": coded(COLOURS), "events": each(Hook(event_json, event_from_json))},
    order=("board", "to_move", "seed", "placements", "events"),
)
dump_state, load_state = CODEC.dump, CODEC.load


def tournament_score(black: int, white: int) -> tuple[int, int]:
    """REV-11: the winner also gets the empty squares; a draw is 32-32 whatever the empties."""
    if black > white:
        return 64 - white, white
    if white > black:
        return black, 64 - black
    return 32, 32


def result_of(black: int, white: int) -> Result:
    """REV-10: raw disc counts decide; REV-11's tournament score rides along in ``detail``."""
    if black > white:
        ranks = [1, 2]
    elif white > black:
        ranks = [2, 1]
    else:
        ranks = [1, 1]
    return {
        "scores": [black, white],
        "ranks": ranks,
        "detail": {"tournament_score": list(tournament_score(black, white))},
    }


def compute_result(state: State) -> Result | None:
    if state.to_move is None:
        return result_of(state.black.bit_count(), state.white.bit_count())
    return None
