"""Random playouts (hypothesis): invariants of the engine over thousands of games.

Every game is driven only through the public API (legal_actions / apply / view / dump / load).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, InvalidAction
from games.reversi.board import SQUARE_INDEX, SQUARE_NAMES
from games.reversi.rules import State, engine

# No example database: the suite must not write files into the work tree.
SETTINGS = {"deadline": None, "database": None, "suppress_health_check": [HealthCheck.too_slow]}
DIRECTIONS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def naive_flips(board: str, square: str, colour: str) -> set[str]:
    """Independent oracle: walk the 8 lines on a grid, as a person would (REV-5, REV-6)."""
    other = "W" if colour == "B" else "B"
    col, row = SQUARE_INDEX[square] % 8, SQUARE_INDEX[square] // 8
    if board[SQUARE_INDEX[square]] != ".":
        return set()
    flipped: set[str] = set()
    for dc, dr in DIRECTIONS:
        run: list[str] = []
        c, r = col + dc, row + dr
        while 0 <= c < 8 and 0 <= r < 8 and board[r * 8 + c] == other:
            run.append(SQUARE_NAMES[r * 8 + c])
            c, r = c + dc, r + dr
        if run and 0 <= c < 8 and 0 <= r < 8 and board[r * 8 + c] == colour:
            flipped.update(run)
    return flipped


def random_game(rng: random.Random, state: State | None = None) -> tuple[list[State], list[dict[str, Any]]]:
    state = state if state is not None else engine.new_game(2, rng.randrange(1 << 30))
    states, actions = [state], []
    while state.to_move is not None:
        action = rng.choice(engine.legal_actions(state, state.to_move))
        state = engine.apply(state, state.to_move, action)
        states.append(state)
        actions.append(action)
        assert len(actions) <= 60
    return states, actions


def check_counts(state: State) -> None:
    v = engine.view(state, None)
    b, w = v["counts"]["B"], v["counts"]["W"]
    assert b == v["board"].count("B") and w == v["board"].count("W")
    assert b + w + v["board"].count(".") == 64
    assert not state.black & state.white


@pytest.mark.slow
@settings(max_examples=3000, **SETTINGS)
@given(st.integers(0, 2**32))
def test_random_games_end_within_60_placements_with_consistent_counts(seed: int) -> None:
    states, actions = random_game(random.Random(seed))
    assert len(actions) <= 60
    final = states[-1]
    assert final.over and engine.to_act(final) == []
    check_counts(final)
    result = engine.result(final)
    assert result is not None
    b, w = result["scores"]
    assert (
        (b > w and result["ranks"] == [1, 2])
        or (w > b and result["ranks"] == [2, 1])
        or (b == w and result["ranks"] == [1, 1])
    )
    tb, tw = result["detail"]["tournament_score"]
    assert tb + tw == 64 and (tb > tw) == (b > w) and (tb == tw) == (b == w)
    # The game ends exactly when neither side has a legal move (REV-9).
    for seat in (0, 1):
        other = engine.new_game(2, 0, {"board": engine.view(final, None)["board"], "to_move": "BW"[seat]})
        assert other.over


@settings(max_examples=100, **SETTINGS)
@given(st.integers(0, 2**32))
def test_every_step_agrees_with_a_naive_oracle_and_keeps_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new_game(2, seed)
    placements = 0
    while state.to_move is not None:
        seat = state.to_move
        v = engine.view(state, seat)
        colour = "BW"[seat]
        # Forced steps are resolved: the seat to act always has a real choice (REV-7).
        assert v["legal"]
        oracle = {sq for sq in SQUARE_NAMES if naive_flips(v["board"], sq, colour)}
        assert set(v["legal"]) == oracle
        legal = engine.legal_actions(state, seat)
        assert [a["square"] for a in legal] == v["legal"]
        assert engine.legal_actions(state, 1 - seat) == []

        before = engine.dump(state)
        # Every legal action is accepted and flips exactly what the oracle says.
        for action in legal:
            child = engine.apply(state, seat, action)
            expected = naive_flips(v["board"], action["square"], colour)
            cv = engine.view(child, None)
            assert set(cv["flipped"]) == expected
            assert cv["counts"][colour] == v["counts"][colour] + 1 + len(expected)
            # REV-8: nothing placed ever leaves the board.
            assert all(a != "." for b, a in zip(v["board"], cv["board"], strict=True) if b != ".")
        assert engine.dump(state) == before

        # Wrong seat, occupied square, non-flipping square, a pass, malformed: all rejected, no change.
        bad: list[tuple[int, Any]] = [
            (1 - seat, legal[0]),
            (seat, {"type": "pass"}),
            (seat, {"type": "place", "square": legal[0]["square"].upper()}),
        ]
        occupied = [sq for sq in SQUARE_NAMES if v["board"][SQUARE_INDEX[sq]] != "."]
        bad.append((seat, {"type": "place", "square": rng.choice(occupied)}))
        dead = [sq for sq in SQUARE_NAMES if v["board"][SQUARE_INDEX[sq]] == "." and sq not in oracle]
        if dead:
            bad.append((seat, {"type": "place", "square": rng.choice(dead)}))
        for bad_seat, bad_action in bad:
            try:
                engine.apply(state, bad_seat, bad_action)
            except (IllegalAction, InvalidAction):
                pass
            else:
                raise AssertionError(f"{bad_action} by seat {bad_seat} was accepted")
            assert engine.dump(state) == before

        text = json.dumps(engine.dump(state))
        assert engine.load(json.loads(text)) == state
        json.dumps(engine.view(state, None))
        check_counts(state)

        state = engine.apply(state, seat, rng.choice(legal))
        placements += 1
    assert placements <= 60
    assert engine.load(json.loads(json.dumps(engine.dump(state)))) == state
    json.dumps(engine.view(state, 0), sort_keys=True)


@settings(max_examples=400, **SETTINGS)
@given(st.text(alphabet="BW.", min_size=64, max_size=64), st.sampled_from("BW"), st.integers(0, 2**32))
def test_any_custom_position_starts_with_a_real_decision_or_is_over(board: str, to_move: str, seed: int) -> None:
    state = engine.new_game(2, seed, {"board": board, "to_move": to_move})
    v = engine.view(state, None)
    assert v["board"] == board
    assert v["over"] or v["legal"]
    if v["events"]:
        assert v["events"][0]["type"] in {"pass", "end"}
    states, actions = random_game(random.Random(seed), state)
    assert len(actions) <= board.count(".")
    check_counts(states[-1])
    assert all(s.black.bit_count() + s.white.bit_count() <= 64 for s in states)
