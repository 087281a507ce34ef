"""What one seat (or a spectator) may see of a DOS game. Keys are documented in docs/games/dos.md."""

from __future__ import annotations

from typing import Any

from games.dos.cards import hand_points
from games.dos.state import OVER, State, compute_result, dump_checkpoint


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    over = state.phase == OVER
    own_turn = seat is not None and seat == state.current and not over
    last = state.history[-1] if state.history else None
    return {
        "seat": seat,
        "players": state.players,
        "to_act": [] if over else [state.current],
        "over": over,
        "result": compute_result(state),
        "events": [event.for_viewer(seat) for event in state.events],
        "hand": list(state.hands[seat]) if seat is not None else None,
        "hand_counts": [len(hand) for hand in state.hands],
        "scores": list(state.scores),
        "target": state.target,
        "center_row": [
            {
                "card": cr.card,
                "declared": cr.declared,
                "played": [{"card": p.card, "declared": p.declared} for p in cr.played],
                "matched": bool(cr.played),
                "kind": cr.kind,
                "new": cr.new,
            }
            for cr in state.center
        ],
        "draw_count": len(state.draw_pile),
        "discard_count": len(state.discard),
        "discard_top": state.discard[-1] if state.discard else None,
        "dealer": state.dealer,
        "round": state.round,
        "current": None if over else state.current,
        "phase": state.phase,
        "drawn_this_turn": state.drawn and not over,
        "drawn_card": state.drawn_card if own_turn and state.drawn else None,
        "matches_this_turn": 0 if over else state.matches,
        "bonus_left": state.bonus,
        # Public: every step on it was played face up in front of the table.
        "undo_steps": 0 if over else len(state.undo),
        # What each of those steps would restore: the acting seat's own earlier hands, so for it alone.
        "undo": [dump_checkpoint(c) for c in state.undo] if own_turn else [],
        "penalties": state.penalties,
        "round_scores": [
            {
                "round": record.round,
                "winner": record.winner,
                "points": record.points,
                "hand_values": [hand_points(hand) for hand in record.hands],
            }
            for record in state.history
        ],
        "last_round": None
        if last is None
        else {
            "round": last.round,
            "winner": last.winner,
            "points": last.points,
            "hands": [{"cards": list(hand), "value": hand_points(hand)} for hand in last.hands],
        },
    }
