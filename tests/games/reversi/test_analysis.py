"""The Reversi analyser's values: exact ones against the published FFO scores and the game's own end,
fixed-depth ones against a plain minimax of the engine's evaluation, and its budget."""

from __future__ import annotations

import random
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from games.reversi import analysis, bot, fast
from games.reversi.bitboard import bits, flips, moves
from games.reversi.board import SQUARE_INDEX, SQUARE_NAMES, parse_board
from games.reversi.rules import State, engine

DATA = Path(__file__).resolve().parents[2] / "data" / "reversi"


def ffo(path: str) -> list[tuple[int, int, dict[str, int]]]:
    """Each problem's (own, opponent) boards and the published exact score of every legal move."""
    out = []
    for line in (DATA / path).read_text().splitlines():
        board, rest = line[:64], line[65:]
        black, white = parse_board(board.translate(str.maketrans("XO-", "BW.")))
        p, o = (black, white) if rest[0] == "X" else (white, black)
        pairs = (pair.split(":") for pair in rest[2:].split(";") if ":" in pair)
        scores = {m.strip().lower(): int(s) for m, s in pairs}
        out.append((p, o, scores))
    return out


FFO_1_19 = ffo("fforum-1-19.obf")


def replay_wthor(line: str) -> tuple[list[State], list[tuple[int, dict[str, Any]]]]:
    moves_text = line.split()[0]
    state = engine.new_game(2, 0, {})
    states, log = [state], []
    for i in range(0, len(moves_text), 2):
        action = {"type": "place", "square": moves_text[i : i + 2]}
        seat = state.to_move
        assert seat is not None
        log.append((seat, action))
        state = engine.apply(state, seat, action)
        states.append(state)
    return states, log


def plain_negamax(p: int, o: int, depth: int) -> int:
    """Minimax of the learned evaluation to ``depth`` plies, a pass free, with nothing pruned or stored."""
    views, offsets, weights = bot.evaluation_tables()
    mv = moves(p, o)
    if not mv:
        if not moves(o, p):
            return int(fast.final_margin(np.uint64(p), np.uint64(o))) * bot.SCALE
        return -plain_negamax(o, p, depth)
    if depth <= 0:
        return int(fast.evaluate(np.uint64(p), np.uint64(o), views, offsets, weights))
    best = -analysis.INF
    for sq in bits(mv):
        f = flips(sq, p, o)
        best = max(best, -plain_negamax(o ^ f, p | f | (1 << sq), depth - 1))
    return best


def random_position(seed: int, plies: int) -> tuple[int, int]:
    rng = random.Random(seed)
    state = engine.new_game(2, 0, {})
    for _ in range(plies):
        seat = state.to_move
        assert seat is not None
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    assert state.to_move is not None
    return state.discs(state.to_move)


@pytest.mark.parametrize("number", range(1, 20))
def test_ffo_positions_get_their_published_exact_values(number: int) -> None:
    """Played the worst move: the position's value is the published best score, the played move's
    value its published score, and the loss the difference."""
    p, o, scores = FFO_1_19[number - 1]
    worst = min(scores, key=lambda m: scores[m])
    record = analysis.analyse_position(p, o, SQUARE_INDEX[worst])
    assert record["exact"]
    assert record["value"] == max(scores.values())
    assert scores[record["best"]] == max(scores.values())
    assert record["played_value"] == scores[worst]
    assert record["loss"] == max(scores.values()) - scores[worst]


def test_a_best_move_played_loses_nothing_and_is_kept_as_the_best() -> None:
    p, o, scores = FFO_1_19[0]
    best = max(scores, key=lambda m: scores[m])
    record = analysis.analyse_position(p, o, SQUARE_INDEX[best])
    assert (record["best"], record["loss"], record["grade"]) == (best, 0.0, "")


def test_ffo_40_with_20_empties_is_solved_exactly() -> None:
    """The edge of where the analysis solves: 20 empties within its solver budget."""
    (p, o, scores), *_ = ffo("fforum-40-59.obf")
    assert 64 - (p | o).bit_count() == analysis.EXACT_EMPTIES
    played = min(scores, key=lambda m: scores[m])
    record = analysis.analyse_position(p, o, SQUARE_INDEX[played])
    assert record["exact"] and record["value"] == max(scores.values()) and record["played_value"] == scores[played]
    assert record["nodes"] <= analysis.SOLVER_NODES


@pytest.mark.parametrize("seed", range(4))
def test_fixed_depth_values_are_the_plain_minimax_of_the_evaluation(seed: int, monkeypatch: Any) -> None:
    """At a fixed depth the analysis gives exactly the minimax value of the engine's evaluation, for
    the best move and for every move played, whatever the move order or window."""
    p, o = random_position(seed, 21)  # 39 empties: depth 3 ends on an even number
    depth = 3
    monkeypatch.setattr(analysis, "DEPTH", depth)
    children = {}
    for sq in bits(moves(p, o)):
        f = flips(sq, p, o)
        children[sq] = -plain_negamax(o ^ f, p | f | (1 << sq), depth - 1)
    best_value = max(children.values())
    for sq, value in children.items():
        record = analysis.analyse_position(p, o, sq)
        assert not record["exact"] and record["depth"] == depth
        assert record["played_value"] == analysis.to_discs(value)
        assert record["value"] == analysis.to_discs(best_value)
        assert children[SQUARE_INDEX[record["best"]]] == best_value


def test_a_known_wthor_game_matches_the_engine_at_fixed_depth(monkeypatch: Any) -> None:
    """The first game of the WTHOR sample, analysed at depth 2 (solving from 12 empties): every
    midgame record is the minimax of the evaluation at that depth; the exact records chain (the value
    after the move played is the next position's value for the opponent), and the last one ends on the
    game's recorded score."""
    monkeypatch.setattr(analysis, "DEPTH", 2)
    monkeypatch.setattr(analysis, "EXACT_EMPTIES", 12)
    line = (DATA / "wthor_sample.txt").read_text().splitlines()[0]
    states, log = replay_wthor(line)
    records = [analysis.evaluate(task) for task in analysis.tasks(states, log)]
    assert [r["played"] for r in records] == [a["square"] for _, a in log]
    for task, record in zip(analysis.tasks(states, log), records, strict=True):
        p, o, played = task["p"], task["o"], SQUARE_INDEX[task["played"]]
        empties = 64 - (p | o).bit_count()
        if record["exact"]:
            assert empties <= 12
            continue
        depth = record["depth"]
        assert depth == max(analysis.search_depths(empties))
        f = flips(played, p, o)
        assert record["played_value"] == analysis.to_discs(-plain_negamax(o ^ f, p | f | (1 << played), depth - 1))
    exact = [r for r in records if r["exact"]]
    assert len(exact) == 12
    for before, after in pairwise(exact):
        same_side = after["seat"] == before["seat"]  # the opponent passed
        assert after["value"] == (before["played_value"] if same_side else -before["played_value"])
    black = int(line.split()[1])
    last = records[-1]
    margin = black - (64 - black)
    assert last["played_value"] == (margin if last["seat"] == 0 else -margin)


def test_search_depths_keep_the_leaves_on_an_even_number_of_empties() -> None:
    for empties in range(11, 61):
        depths = list(analysis.search_depths(empties))
        assert depths[-1] in (analysis.DEPTH, analysis.DEPTH - 1)
        assert all((empties - d) % 2 == 0 for d in depths)


def test_the_search_budget_bounds_a_position(monkeypatch: Any) -> None:
    """Out of nodes, the deepest depth finished stands: the cost of a position is bounded by count."""
    monkeypatch.setattr(analysis, "SEARCH_NODES", 20_000)
    p, o = random_position(7, 24)
    record = analysis.analyse_position(p, o, bits(moves(p, o))[0])
    assert record["nodes"] <= 20_000
    assert 1 <= record["depth"] < analysis.DEPTH


def test_grades_follow_the_documented_thresholds() -> None:
    assert [analysis.grade(x) for x in (0.0, 1.9, 2.0, 3.9, 4.0, 7.9, 8.0, 30.0)] == [
        "",
        "",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_analysing_leaves_the_computer_players_tables_alone() -> None:
    """The analysis searches with tables of its own: what the bot has learned is not changed."""
    core = bot._core()
    before = [t.copy() for t in (core.mk, core.mv, core.ek, core.ev)]
    p, o = random_position(3, 30)
    analysis.analyse_position(p, o, bits(moves(p, o))[0])
    for saved, table in zip(before, (core.mk, core.mv, core.ek, core.ev), strict=True):
        assert np.array_equal(saved, table)


def test_a_task_names_the_move_played_and_the_record_says_who_played_it() -> None:
    states, log = replay_wthor("f5d6c3 0")
    tasks = analysis.tasks(states, log)
    assert [(t["step"], t["seat"], t["played"]) for t in tasks] == [(0, 0, "f5"), (1, 1, "d6"), (2, 0, "c3")]
    record = analysis.evaluate(tasks[1])
    assert (record["step"], record["seat"], record["played"]) == (1, 1, "d6")
    assert record["best"] in {SQUARE_NAMES[sq] for sq in bits(moves(tasks[1]["p"], tasks[1]["o"]))}
