"""The exact labels the hard level's evaluation is fitted to (tools/reversi_exact_labels.py)."""

from __future__ import annotations

import math
import time

import pytest

from games.reversi import endgame
from tests.games.reversi.test_analysis import DATA
from tools.fit_reversi_patterns import positions
from tools.reversi_exact_labels import game_labels, game_positions

EMPTIES = 9  # small enough for the pure-Python solver to check every label quickly


def wthor_lines(count: int) -> list[str]:
    """Complete games (60 moves) of the sample, spread over it."""
    lines = [line for line in (DATA / "wthor_sample.txt").read_text().splitlines() if len(line.split()[0]) == 120]
    return lines[:: len(lines) // count][:count]


@pytest.mark.slow
def test_labels_are_exact_from_the_cut_and_carry_back_to_each_side_to_move() -> None:
    changed = 0
    for line in wthor_lines(20):
        played = game_positions(line.split()[0])
        finals = [margin for _p, _o, margin in positions(line)]
        labels = game_labels(line, EMPTIES)
        assert len(labels) == len(played) == len(finals)
        first = next(i for i, (p, o, _black) in enumerate(played) if 64 - (p | o).bit_count() <= EMPTIES)
        for i in range(first, len(played)):
            p, o, _black = played[i]
            exact = endgame.solve(p, o, -65, 65, endgame.Budget(10**9, math.inf, time.perf_counter))
            assert labels[i] == exact
        # Before the cut, every position takes the cut's value, for its own side to move: the sign
        # follows the side, as the final margin's does.
        for i in range(first):
            same_side = played[i][2] == played[first][2]
            assert labels[i] == (labels[first] if same_side else -labels[first])
        changed += labels != finals
    # People's endgames differ from perfect play: the labels are not the final margins again.
    assert changed > 0


@pytest.mark.slow
def test_a_game_that_ends_before_the_cut_keeps_its_final_margins() -> None:
    line = wthor_lines(1)[0]
    text, _count = line.split()
    short = text[:40]  # 20 moves: 40 empties left, more than the cut; its "final" count is made up
    fake = f"{short} 40"
    assert game_labels(fake, EMPTIES) == [margin for _p, _o, margin in positions(fake)]
