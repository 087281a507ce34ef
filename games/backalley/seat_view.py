"""What one seat (or a spectator) may see of a Back Alley match (section 3.7).

Everything here is public except the viewer's own hand, the reasons its unplayable cards are refused,
and the card its own joker swap took. Partners see only each other's card counts. The keys are
documented in docs/games/backalley.md.
"""

from __future__ import annotations

from typing import Any

from games.backalley.cards import SUITS, code, hand_size, sort_for_display
from games.backalley.moves import current, next_board_level, rule_for
from games.backalley.scoring import TEAMS, contract, match_result, totals, tricks_by_seat
from games.backalley.state import BID, DEALS, OVER, PLAY, PLAYERS, State
from games.kit.seats import check_viewer, round_robin


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    check_viewer(seat, PLAYERS)
    size = hand_size(state.deal_number)
    to_move = current(state)
    over = state.phase == OVER
    own = state.hands[seat] if seat is not None else None
    won = tricks_by_seat(state)
    bids_done = all(b is not None for b in state.bids)
    complete = [b for b in state.bids if b is not None]
    running = totals(state)

    unplayable: dict[str, str] = {}
    if seat is not None and state.phase == PLAY and to_move == seat:
        rule = rule_for(state, seat)
        unplayable = {code(c): str(rule.reason) for c in state.hands[seat] if c not in rule.legal}

    swap: dict[str, Any] | None = None
    if state.swap is not None:
        swap = {"seat": state.swap.seat, "card": code(state.swap.joker)}
        if seat == state.swap.seat:
            swap["took"] = code(state.swap.took)

    trick_seats = [] if state.leader is None else round_robin(state.leader, PLAYERS, len(state.trick))
    return {
        "seat": seat,
        "players": 4,
        "teams": [list(t) for t in TEAMS],
        "to_act": [] if to_move is None else [to_move],
        "current": to_move,
        "over": over,
        "result": match_result(running) if over else None,
        "phase": state.phase,
        "deal_number": state.deal_number,
        "deals": DEALS,
        "cards_per_hand": size,
        "redeals": state.redeals,
        "dealer": state.dealer,
        "hand": None if own is None else [code(c) for c in sort_for_display(own, state.trump)],
        "hand_counts": [len(h) for h in state.hands],
        "stock_count": len(state.stock),
        "upcard": code(state.upcard),
        "trump": None if state.trump is None else SUITS[state.trump],
        "swap": swap,
        "bids": [None if b is None else b.label() for b in state.bids],
        "next_board_level": next_board_level(state) if state.phase == BID else None,
        "contracts": [contract(complete, t, size).json() for t in (0, 1)] if bids_done else [None, None],
        "tricks": {"teams": [won[0] + won[2], won[1] + won[3]], "seats": won},
        "leader": state.leader,
        "trick": [{"seat": s, "card": code(c)} for s, c in zip(trick_seats, state.trick, strict=True)],
        "tricks_played": [t.json() for t in state.tricks_played],
        "last_trick": None if state.last_trick is None else state.last_trick.json(),
        "trump_broken": state.trump_broken,
        "unplayable": unplayable,
        "score_sheet": [row.json() for row in state.score_sheet],
        "totals": list(running),
        "events": [e.for_viewer(seat) for e in state.events],
    }
