"""The Reversi rules engine (rule ids REV-n refer to shared/rules/reversi.md).

Seat 0 plays Black and moves first (REV-3); seat 1 plays White. The only action is
``{"type": "place", "square": "d3"}``; passes and the end of the game are forced steps resolved
inside :meth:`ReversiEngine.apply` (REV-7, REV-9) and recorded as events.
"""

from __future__ import annotations

from typing import Any

from games.engine import Action, IllegalAction, InvalidAction, Result, View
from games.engine import gettext_noop as _
from games.kit.seats import check_seat, check_viewer, next_seat
from games.reversi.actions import parse_action, parse_options
from games.reversi.bitboard import flips, moves
from games.reversi.board import SQUARE_NAMES, squares
from games.reversi.seat_view import build_view
from games.reversi.state import (
    BLACK,
    Ended,
    Event,
    Passed,
    Placed,
    State,
    compute_result,
    dump_state,
    load_state,
    recent,
)

PLAYERS = 2


def _settle(black: int, white: int, seat: int, seed: int, events: tuple[Event, ...], placements: int) -> State:
    """The state where ``seat`` is due to move, after forced passes / the end (REV-7, REV-9)."""
    boards = (black, white)
    other = next_seat(seat, PLAYERS)
    if moves(boards[seat], boards[other]):
        return State(black, white, seat, seed, recent(events), placements)
    if moves(boards[other], boards[seat]):
        return State(black, white, other, seed, recent((*events, Passed(seat))), placements)
    ended = Ended(black.bit_count(), white.bit_count())
    return State(black, white, None, seed, recent((*events, ended)), placements)


class ReversiEngine:
    slug = "reversi"
    name = "Reversi"
    min_players = PLAYERS
    max_players = PLAYERS
    # Open information and no chance: returning to an earlier position reveals and redraws nothing, so
    # players may agree to take a move back (games.record.takeback, docs/games/reversi.md).
    takebacks = True

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """The start position (REV-2, REV-3), or ``options["board"]`` with ``options["to_move"]``."""
        if players != 2:
            raise InvalidAction(_("Reversi is played by exactly 2 players."))
        black, white, seat = parse_options(options)
        if black & white:
            raise InvalidAction(_("A square cannot hold two discs."))  # unreachable via parse_board
        # A custom position may start with a forced pass or even be over already.
        return _settle(black, white, seat, seed, (), 0)

    def to_act(self, state: State) -> list[int]:
        return [] if state.to_move is None else [state.to_move]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        check_seat(seat, PLAYERS)
        if state.to_move is None or seat != state.to_move:
            return []
        p, o = state.discs(seat)
        return [{"type": "place", "square": name} for name in squares(moves(p, o))]

    def apply(self, state: State, seat: int, action: Action) -> State:
        """Place a disc (REV-5), flip every bracketed run (REV-6), then pass / end as forced."""
        check_seat(seat, PLAYERS)
        sq = parse_action(action)
        name = SQUARE_NAMES[sq]
        if state.to_move is None:
            raise IllegalAction(_("The game is over."))
        if seat != state.to_move:
            raise IllegalAction(_("It is not your turn."))
        bit = 1 << sq
        if (state.black | state.white) & bit:
            raise IllegalAction(_("%(name)s is occupied."), {"name": name})
        p, o = state.discs(seat)
        flipped = flips(sq, p, o)
        if not flipped:
            raise IllegalAction(_("%(name)s flips nothing."), {"name": name})
        p |= bit | flipped
        o ^= flipped
        black, white = (p, o) if seat == BLACK else (o, p)
        placed = Placed(seat, sq, flipped)
        return _settle(
            black, white, next_seat(seat, PLAYERS), state.seed, (*state.events, placed), state.placements + 1
        )

    def result(self, state: State) -> Result | None:
        if state.to_move is None:
            return compute_result(state)
        return None

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, check_viewer(seat, PLAYERS))

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def load(self, data: dict[str, Any]) -> State:
        return load_state(data)


engine = ReversiEngine()
