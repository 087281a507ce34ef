"""The Reversi state (immutable), its events and its lossless JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import Result
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


def dump_state(state: State) -> dict[str, Any]:
    return {
        "format": DUMP_FORMAT,
        "board": board_string(state.black, state.white),
        "to_move": None if state.to_move is None else COLOURS[state.to_move],
        "seed": state.seed,
        "placements": state.placements,
        "events": [event_json(e) for e in state.events],
    }


def load_state(data: dict[str, Any]) -> State:
    if data.get("format") not in (1, DUMP_FORMAT):
        raise ValueError(f"Unknown Reversi dump format {data.get('format')!r}.")
    black, white = parse_board(data["board"])
    to_move = None if data["to_move"] is None else COLOURS.index(data["to_move"])
    events = tuple(event_from_json(e) for e in data["events"])
    if data["format"] == 1:  # format 1 kept every event since the start
        placements = sum(1 for e in events if isinstance(e, Placed))
        return State(black, white, to_move, data["seed"], recent(events), placements)
    return State(black, white, to_move, data["seed"], events, int(data["placements"]))


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
