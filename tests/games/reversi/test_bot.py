"""The computer player: legal, sensible, exact in small endgames, strong against random, on time."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.reversi import bot
from games.reversi.rules import State, engine
from games.support import deadline

DATA = Path(__file__).resolve().parents[2] / "data" / "reversi"


def ask(state: State, budget_s: float, seed: int = 0) -> dict[str, str]:
    assert state.to_move is not None
    seat = state.to_move
    legal = engine.legal_actions(state, seat)
    action = bot.choose(engine.view(state, seat), legal, rng=random.Random(seed), budget_s=budget_s)
    assert any(action is a for a in legal), "the bot must return one of the given action dicts"
    return action


def random_position(seed: int, plies: int) -> State:
    rng = random.Random(seed)
    state = engine.new_game(2, seed)
    for _ in range(plies):
        if state.to_move is None:
            break
        state = engine.apply(state, state.to_move, rng.choice(engine.legal_actions(state, state.to_move)))
    return state


@settings(max_examples=40, deadline=None, database=None)
@given(st.integers(0, 2**32), st.integers(0, 58))
def test_bot_always_returns_one_of_the_legal_actions(seed: int, plies: int) -> None:
    state = random_position(seed, plies)
    if state.to_move is not None:
        ask(state, budget_s=0.01, seed=seed)


def test_bot_with_one_legal_move_plays_it_at_once(board: Callable[..., str], monkeypatch: pytest.MonkeyPatch) -> None:
    """No search at all (not a node), however large the budget: the only move is played."""
    state = engine.new_game(2, 0, {"board": board(black="a1", white="b1 h8 h7"), "to_move": "B"})
    assert engine.legal_actions(state, 0) == [{"type": "place", "square": "c1"}]

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("the bot searched although it had one legal move")

    monkeypatch.setattr(bot, "best_square", no_search)
    assert ask(state, budget_s=5.0) == {"type": "place", "square": "c1"}


def test_bot_refuses_an_empty_legal_list() -> None:
    state = engine.new_game(2, 0)
    with pytest.raises(ValueError, match="No legal action"):
        bot.choose(engine.view(state, 1), [], rng=random.Random(0), budget_s=0.05)


@pytest.mark.parametrize(("mover", "to_move"), [("B", "B"), ("W", "W")])
def test_bot_takes_a_corner_the_opponent_threatens_to_take(board: Callable[..., str], mover: str, to_move: str) -> None:
    # Start position plus an edge and a diagonal fight for a1: the mover takes it along row 1 (b1 is
    # bracketed by c1), and if it does not, the opponent takes it along the diagonal (b2 by c3).
    mine, theirs = "d4 e5 b2 c1", "e4 d5 c3 b1"
    black, white = (mine, theirs) if mover == "B" else (theirs, mine)
    state = engine.new_game(2, 0, {"board": board(black=black, white=white), "to_move": to_move})
    assert "a1" in engine.view(state, state.to_move)["legal"]
    for seed in range(3):
        for budget_s in (0.05, 0.3):
            assert ask(state, budget_s=budget_s, seed=seed)["square"] == "a1"


def test_bot_finds_the_only_winning_move_in_a_small_endgame() -> None:
    # FForum #20, black to move with 6 empties: H5 wins by 6; G6 (-2), F6 (-4) and H6 (-10) all lose.
    line = (DATA / "fforum-20-39.obf").read_text().splitlines()[0]
    board = line[:64].translate(str.maketrans("XO-", "BW."))
    state = engine.new_game(2, 0, {"board": board, "to_move": "B"})
    assert engine.view(state, 0)["legal"] == ["f6", "g6", "h5", "h6"]
    for seed in range(3):
        assert ask(state, budget_s=0.3, seed=seed) == {"type": "place", "square": "h5"}


def play_vs_random(seed: int, bot_seat: int, budget_s: float) -> tuple[int, int]:
    rng = random.Random(seed)
    state = engine.new_game(2, seed)
    while state.to_move is not None:
        seat = state.to_move
        if seat == bot_seat:
            action = ask(state, budget_s=budget_s, seed=seed)
        else:
            action = rng.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action)
    result = engine.result(state)
    assert result is not None
    return result["scores"][bot_seat], result["scores"][1 - bot_seat]


def test_bot_beats_a_random_player_in_nearly_all_of_20_games() -> None:
    wins = 0
    for game in range(20):
        mine, theirs = play_vs_random(game, game % 2, budget_s=0.01)
        wins += mine > theirs
    assert wins >= 18


@pytest.mark.parametrize("budget_s", [0.05, 0.2])
def test_bot_stops_searching_at_its_deadline(budget_s: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock (10 ms per look) makes this exact: the search must stop soon after the deadline.

    Wall-clock speed itself is measured by `make bench`, not asserted here (the machine may be busy).
    """
    looks: list[int] = []

    def clock() -> float:
        looks.append(1)
        return len(looks) * 0.01

    monkeypatch.setattr(bot, "perf_counter", clock)
    monkeypatch.setattr(deadline, "ENFORCED", True)
    for seed, plies in [(1, 0), (2, 10), (3, 24), (4, 36), (5, 44), (6, 46), (7, 48), (8, 50)]:
        state = random_position(seed, plies)
        if state.to_move is None:
            continue
        looks.clear()
        action = ask(state, budget_s=budget_s)
        assert action in engine.legal_actions(state, engine.to_act(state)[0])
        # The deadline is reached after budget/10ms looks; a few more reads finish the current batch.
        assert len(looks) <= budget_s / 0.01 + 5


def test_edge_stability_counts_corner_runs_and_full_edges() -> None:
    def line(text: str) -> int:
        own = sum(1 << i for i, c in enumerate(text) if c == "x")
        opp = sum(1 << i for i, c in enumerate(text) if c == "o")
        return bot.EDGE_STABILITY[own << 8 | opp]

    assert line("xxxo....") == 3  # the run from the corner; o could still be flipped
    assert line("....oxxx") == 3
    assert line("oox....x") == -2 + 1
    assert line(".xxxxxx.") == 0  # no corner, nothing is safe
    assert line("xxxxxooo") == 5 - 3  # a full edge: nothing on it can flip any more


def test_bot_plays_white_too() -> None:
    state = engine.apply(engine.new_game(2, 0), 0, {"type": "place", "square": "f5"})
    assert ask(state, budget_s=0.05)["square"] in {"d6", "f4", "f6"}
