"""What one seat (or a spectator) may see of a Tacocat state: section 1.6 of the rules file.

Secret: the other hand (only its size is shown), the draw pile's order (only its size), the seed, and
a committed choice until both seats have committed. Everything else is public.
"""

from __future__ import annotations

from typing import Any

from games.engine import Result
from games.tacocat.cards import GOAL_LABELS, GOALS, LETTERS, POSITIONS, codes
from games.tacocat.moves import attack_kind
from games.tacocat.state import DEFEND, OUTCOME, OVER, State


def _track(state: State) -> list[dict[str, Any]]:
    config = state.config
    return [
        {
            "position": p,
            "letter": LETTERS[p + 3],
            "hand_size": config.hand_size(p),
            "arrow": config.arrow(p),
            "favours": config.first_replacer(p),
            "covered": p in state.covered,
            "cat": p == state.cat,
        }
        for p in POSITIONS
    ]


def build_view(state: State, seat: int | None, to_act: list[int], result: Result | None) -> dict[str, Any]:
    over = state.phase == OVER
    attack = None
    if state.phase == DEFEND:
        assert state.attacker is not None
        attack = {
            "attacker": state.attacker,
            "defender": 1 - state.attacker,
            "cards": codes(state.attack),
            "kind": attack_kind(state.attack),
            "answers_needed": len(state.attack),
        }
    revealed = None
    if state.revealed is not None:
        a, b = state.revealed
        revealed = {"cards": codes((a, b)), "winner": 0 if a > b else 1 if b > a else None}
    own_commit = None if seat is None else state.commits[seat]
    return {
        "seat": seat,
        "players": 2,
        "to_act": to_act,
        "over": over,
        "result": result,
        "events": [e.for_viewer(seat) for e in state.events],
        "phase": state.phase,
        "round": state.round_no,
        "hand": None if seat is None else codes(state.hands[seat]),
        "hand_counts": [len(h) for h in state.hands],
        "hand_size": None if over else state.hand_size,
        "track": _track(state),
        "cat": state.cat,
        "covered": list(state.covered),
        "goals": [{"seat": s, "position": GOALS[s], "label": GOAL_LABELS[s]} for s in (0, 1)],
        "your_goal": None if seat is None else GOALS[seat],
        "first_replacer": None if over else state.config.first_replacer(state.cat),
        "replacement_cap": state.cap,
        "replaced": list(state.replaced),
        "committed": [c is not None for c in state.commits],
        "your_commit": None if own_commit is None else codes(own_commit),
        "revealed": revealed,
        "attacker": state.attacker,
        "attack": attack,
        "discard": codes(state.discard),
        "draw_count": len(state.draw),
        "last_round": None if state.last_round is None else OUTCOME.dump(state.last_round),
        "winner": state.winner,
        "tie_rule": state.config.tie_rule,
        "distribution": state.config.to_json()["distribution"],
        "deck_size": len(state.config.deck()),
    }
