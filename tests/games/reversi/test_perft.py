"""Perft from the start position against the published counts (tests/data/reversi/perft_start.txt).

Convention "mode 1" (Aart Bik): a pass uses one ply and a finished game counts as one leaf. Depths 1-8
have no passes; depth 9 is the first with passes, so it checks the convention too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.reversi.bitboard import perft
from games.reversi.rules import State, engine
from games.reversi.state import START_BLACK, START_WHITE

DATA = Path(__file__).resolve().parents[2] / "data" / "reversi"


def published() -> dict[int, int]:
    counts = {}
    for line in (DATA / "perft_start.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        depth, mode1_total, *_ = line.split()
        counts[int(depth)] = int(mode1_total)
    return counts


PUBLISHED = published()


def test_the_published_table_is_the_expected_one() -> None:
    assert [PUBLISHED[d] for d in range(1, 9)] == [4, 12, 56, 244, 1396, 8200, 55092, 390216]


@pytest.mark.parametrize("depth", range(1, 10))
def test_bitboard_perft_matches_published_counts(depth: int) -> None:
    assert perft(START_BLACK, START_WHITE, depth) == PUBLISHED[depth]


@pytest.mark.slow
def test_bitboard_perft_depth_10_matches_published_count() -> None:
    assert perft(START_BLACK, START_WHITE, 10) == PUBLISHED[10]


def engine_perft(state: State, depth: int) -> int:
    """The same count through the public engine API: passes happen inside apply, so a ply that is a
    forced pass shows up as the other seat moving again, and mode 1 charges it one ply."""
    if depth == 0 or state.to_move is None:
        return 1
    seat = state.to_move
    total = 0
    for action in engine.legal_actions(state, seat):
        child = engine.apply(state, seat, action)
        passed = child.to_move == seat
        # A forced pass inside apply consumed a ply of its own.
        if passed:
            total += 1 if depth == 2 else engine_perft(child, depth - 2)
        else:
            total += engine_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("depth", range(1, 7))
def test_engine_api_perft_matches_published_counts(depth: int) -> None:
    assert engine_perft(engine.new_game(2, 0), depth) == PUBLISHED[depth]
