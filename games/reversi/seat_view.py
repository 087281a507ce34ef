"""What a seat (or a spectator) sees of a Reversi game: everything, as the whole board is public."""

from __future__ import annotations

from games.engine import View
from games.reversi.bitboard import moves
from games.reversi.board import SQUARE_NAMES, board_string, squares
from games.reversi.state import COLOURS, Placed, State, compute_result, event_json, tournament_score


def build_view(state: State, seat: int | None) -> View:
    """Everything is public (section 4.4), so only ``"seat"`` depends on the viewer."""
    to_move = state.to_move
    over = to_move is None
    b, w = state.black.bit_count(), state.white.bit_count()
    last = next((e for e in reversed(state.events) if isinstance(e, Placed)), None)
    legal: list[str] = []
    if to_move is not None:
        p, o = state.discs(to_move)
        legal = squares(moves(p, o))
    result = compute_result(state)
    tb, tw = tournament_score(b, w)
    return {
        "seat": seat,
        "players": 2,
        "to_act": [] if to_move is None else [to_move],
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
