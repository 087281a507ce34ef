"""games.kit.bots.one_ply, the generic computer player, on Nim (whoever takes the last stone wins, so
leaving 1 to 3 stones hands the opponent a win) and on Reversi. Pure: runs with ``-p no:django``."""

from __future__ import annotations

from random import Random

import pytest

from games.kit.bots import one_ply
from games.reversi.board import SQUARE_INDEX
from games.reversi.rules import engine as reversi
from tests.nim import bot
from tests.nim.rules import State, engine

SEEDS = range(60)


def takes(stones: int, level: str | None = None) -> set[int]:
    """Every count one_ply (or Nim's bot at ``level``) takes from ``stones``, over many seeds."""
    state = State(stones=stones, to_move=0)
    legal = engine.legal_actions(state, 0)
    if level is None:
        return {int(one_ply(engine, state, 0, rng=Random(seed))["count"]) for seed in SEEDS}
    view = engine.view(state, 0)
    return {int(bot.choose(view, legal, rng=Random(seed), budget_s=0.1, level=level)["count"]) for seed in SEEDS}


@pytest.mark.parametrize("stones", [1, 2, 3])
def test_it_takes_a_win_when_there_is_one(stones: int) -> None:
    assert takes(stones) == {stones}


@pytest.mark.parametrize(("stones", "safe"), [(5, {1}), (6, {1, 2}), (7, {1, 2, 3}), (20, {1, 2, 3})])
def test_it_plays_at_random_among_the_moves_that_hand_over_no_win(stones: int, safe: set[int]) -> None:
    """From 5 only taking 1 leaves more than 3; from 6, taking 1 or 2; the choice among them is random."""
    assert takes(stones) == safe


def test_when_every_move_hands_over_a_win_it_still_plays_one() -> None:
    assert takes(4) == {1, 2, 3}


def test_the_same_rng_gives_the_same_move() -> None:
    state = State(stones=20, to_move=1)
    assert len({one_ply(engine, state, 1, rng=Random(7))["count"] for _ in range(5)}) == 1


def test_it_plays_only_legal_moves_to_the_end_of_a_game() -> None:
    for seed in SEEDS:
        rng = Random(seed)
        state = engine.new_game(2, seed, {"stones": rng.randint(1, 50)})
        while engine.to_act(state):
            seat = engine.to_act(state)[0]
            action = one_ply(engine, state, seat, rng=rng)
            assert action in engine.legal_actions(state, seat)
            if state.stones <= 3:  # a win within reach is always taken
                assert int(action["count"]) == state.stones
            elif state.stones % 4:  # a move that leaves 4 (so no win to hand over) exists: it never leaves 1..3
                assert state.stones - int(action["count"]) > 3
            state = engine.apply(state, seat, action)


def test_nims_bot_plays_one_ply_at_easy_and_falls_back_to_it_when_no_move_leaves_a_multiple_of_four() -> None:
    assert takes(5, "easy") == {1}  # easy: one_ply, which also finds this one
    assert takes(3, "easy") == {3}
    assert takes(7, "medium") == {3}  # leaves four: perfect play
    assert takes(6, "hard") == {2}
    assert takes(8, "medium") == {1, 2, 3}  # lost against perfect play: one_ply, nothing to avoid yet
    assert takes(4, "hard") == {1, 2, 3}


def test_on_reversi_it_takes_the_move_that_ends_the_game_won() -> None:
    """Black to move, two empty squares: a1 and c1 both flip the one white disc on b2. After a1 nobody can
    move (the only other white disc, h8, is out of reach): the game is over, Black winning. After c1,
    White can play a1 along the a1-h8 diagonal, so the game goes on. one_ply always plays a1."""
    cells = ["B"] * 64
    for name in ("a1", "c1"):
        cells[SQUARE_INDEX[name]] = "."
    for name in ("b2", "h8"):
        cells[SQUARE_INDEX[name]] = "W"
    state = reversi.new_game(2, 0, {"board": "".join(cells), "to_move": "B"})
    assert {a["square"] for a in reversi.legal_actions(state, 0)} == {"a1", "c1"}
    assert reversi.result(reversi.apply(state, 0, {"type": "place", "square": "c1"})) is None
    assert {one_ply(reversi, state, 0, rng=Random(seed))["square"] for seed in SEEDS} == {"a1"}
