"""The Reversi rules engine (rule ids REV-n refer to shared/rules/reversi.md).

Seat 0 plays Black and moves first (REV-3); seat 1 plays White. The only action is
``{"type": "place", "square": "d3"}``; passes and the end of the game are forced steps resolved
inside :meth:`ReversiEngine.apply` (REV-7, REV-9) and recorded as events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import Action, IllegalAction, InvalidAction, Result, View
from games.reversi.bitboard import flips, moves
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


def tournament_score(black: int, white: int) -> tuple[int, int]:
    """REV-11: the winner also gets the empty squares; a draw is 32-32 whatever the empties."""
    if black > white:
        return 64 - white, white
    if white > black:
        return black, 64 - black
    return 32, 32


def _recent(events: tuple[Event, ...]) -> tuple[Event, ...]:
    return events[-VIEW_EVENTS:]


def _settle(black: int, white: int, seat: int, seed: int, events: tuple[Event, ...], placements: int) -> State:
    """The state where ``seat`` is due to move, after forced passes / the end (REV-7, REV-9)."""
    boards = (black, white)
    if moves(boards[seat], boards[1 - seat]):
        return State(black, white, seat, seed, _recent(events), placements)
    if moves(boards[1 - seat], boards[seat]):
        return State(black, white, 1 - seat, seed, _recent((*events, Passed(seat))), placements)
    ended = Ended(black.bit_count(), white.bit_count())
    return State(black, white, None, seed, _recent((*events, ended)), placements)


def parse_action(action: Any) -> int:
    """The square index of a well-formed place action; InvalidAction otherwise."""
    if not isinstance(action, dict):
        raise InvalidAction("An action must be an object like {'type': 'place', 'square': 'd3'}.")
    kind = action.get("type")
    if kind == "pass":
        # REV-E1 / REV-S7: passing is never a player's choice.
        raise InvalidAction("There is no pass action: you pass automatically when you have no move.")
    if kind != "place":
        raise InvalidAction(f"Unknown action type {kind!r}; the only action is 'place'.")
    extra = sorted(set(action) - {"type", "square"})
    if extra:
        raise InvalidAction(f"Unexpected field(s) in a place action: {', '.join(extra)}.")
    if "square" not in action:
        raise InvalidAction("A place action needs a 'square', e.g. 'd3'.")
    square = action["square"]
    # Strict on purpose: one spelling per square keeps actions comparable with legal_actions().
    if not isinstance(square, str) or square not in SQUARE_INDEX:
        raise InvalidAction(f"{square!r} is not a square: write a lower-case column a-h and a row 1-8, e.g. d3.")
    return SQUARE_INDEX[square]


def _parse_options(options: dict[str, Any] | None) -> tuple[int, int, int]:
    if options is None:
        return START_BLACK, START_WHITE, BLACK
    if not isinstance(options, dict):
        raise InvalidAction("Options must be an object.")
    unknown = sorted(set(options) - {"board", "to_move"})
    if unknown:
        raise InvalidAction(f"Unknown option(s): {', '.join(unknown)}.")
    black, white = START_BLACK, START_WHITE
    if "board" in options:
        board = options["board"]
        if not isinstance(board, str):
            raise InvalidAction("The board option must be a 64-character string of B, W and '.'.")
        try:
            black, white = parse_board(board)
        except ValueError as exc:
            raise InvalidAction(str(exc)) from None
    to_move = options.get("to_move", "B")
    if to_move not in COLOURS:
        raise InvalidAction(f"to_move must be 'B' or 'W', not {to_move!r}.")
    return black, white, COLOURS.index(to_move)


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


def _event_from_json(data: dict[str, Any]) -> Event:
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


class ReversiEngine:
    slug = "reversi"
    name = "Reversi"
    min_players = 2
    max_players = 2

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """The start position (REV-2, REV-3), or ``options["board"]`` with ``options["to_move"]``."""
        if players != 2:
            raise InvalidAction("Reversi is played by exactly 2 players.")
        black, white, seat = _parse_options(options)
        if black & white:
            raise InvalidAction("A square cannot hold two discs.")  # unreachable via parse_board
        # A custom position may start with a forced pass or even be over already.
        return _settle(black, white, seat, seed, (), 0)

    def to_act(self, state: State) -> list[int]:
        return [] if state.to_move is None else [state.to_move]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.to_move is None or seat != state.to_move:
            return []
        p, o = state.discs(seat)
        return [{"type": "place", "square": name} for name in squares(moves(p, o))]

    def apply(self, state: State, seat: int, action: Action) -> State:
        """Place a disc (REV-5), flip every bracketed run (REV-6), then pass / end as forced."""
        sq = parse_action(action)
        name = SQUARE_NAMES[sq]
        if state.to_move is None:
            raise IllegalAction("The game is over.")
        if seat != state.to_move:
            raise IllegalAction("It is not your turn.")
        bit = 1 << sq
        if (state.black | state.white) & bit:
            raise IllegalAction(f"{name} is occupied.")
        p, o = state.discs(seat)
        flipped = flips(sq, p, o)
        if not flipped:
            raise IllegalAction(f"{name} flips nothing.")
        p |= bit | flipped
        o ^= flipped
        black, white = (p, o) if seat == BLACK else (o, p)
        placed = Placed(seat, sq, flipped)
        return _settle(black, white, 1 - seat, state.seed, (*state.events, placed), state.placements + 1)

    def result(self, state: State) -> Result | None:
        if state.to_move is None:
            return _result(state.black.bit_count(), state.white.bit_count())
        return None

    def view(self, state: State, seat: int | None) -> View:
        """Everything is public (section 4.4), so only ``"seat"`` depends on the viewer."""
        to_move = state.to_move
        over = to_move is None
        b, w = state.black.bit_count(), state.white.bit_count()
        last = next((e for e in reversed(state.events) if isinstance(e, Placed)), None)
        legal: list[str] = []
        if to_move is not None:
            p, o = state.discs(to_move)
            legal = squares(moves(p, o))
        result = self.result(state)
        tb, tw = tournament_score(b, w)
        return {
            "seat": seat,
            "players": 2,
            "to_act": self.to_act(state),
            "over": over,
            "result": result,
            "board": board_string(state.black, state.white),
            "to_move": None if to_move is None else COLOURS[to_move],
            "counts": {"B": b, "W": w},
            "legal": legal,
            "last_move": None if last is None else SQUARE_NAMES[last.square],
            "flipped": [] if last is None else squares(last.flipped),
            "move_number": state.placements,
            "events": [event_json(e) for e in state.events],
            "tournament_score": {"B": tb, "W": tw} if over else None,
        }

    def dump(self, state: State) -> dict[str, Any]:
        return {
            "format": DUMP_FORMAT,
            "board": board_string(state.black, state.white),
            "to_move": None if state.to_move is None else COLOURS[state.to_move],
            "seed": state.seed,
            "placements": state.placements,
            "events": [event_json(e) for e in state.events],
        }

    def load(self, data: dict[str, Any]) -> State:
        if data.get("format") not in (1, DUMP_FORMAT):
            raise ValueError(f"Unknown Reversi dump format {data.get('format')!r}.")
        black, white = parse_board(data["board"])
        to_move = None if data["to_move"] is None else COLOURS.index(data["to_move"])
        events = tuple(_event_from_json(e) for e in data["events"])
        if data["format"] == 1:  # format 1 kept every event since the start
            placements = sum(1 for e in events if isinstance(e, Placed))
            return State(black, white, to_move, data["seed"], _recent(events), placements)
        return State(black, white, to_move, data["seed"], events, int(data["placements"]))


def _result(black: int, white: int) -> Result:
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


engine = ReversiEngine()
