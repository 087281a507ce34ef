"""Reversi bot levels: legal moves at every level, work within budget, exact endgames, book and weights."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from games.reversi import book, bot, endgame, fast, symmetry
from games.reversi.bitboard import FULL, bits, flips, moves
from games.reversi.board import SQUARE_NAMES, parse_board
from games.reversi.rules import State, engine
from games.reversi.state import START_BLACK, START_WHITE

DATA = Path(__file__).resolve().parents[2] / "data" / "reversi"


def random_play(seed: int, plies: int) -> tuple[int, int]:
    """(mover, opponent) after ``plies`` random moves from the start (passes skipped); game not over."""
    rng = random.Random(seed)
    p, o = START_BLACK, START_WHITE
    for _ in range(plies):
        mv = moves(p, o)
        if not mv:
            if not moves(o, p):
                break
            p, o = o, p
            continue
        sq = rng.choice(bits(mv))
        f = flips(sq, p, o)
        p, o = o ^ f, p | f | (1 << sq)
    if not moves(p, o):
        p, o = o, p
    return p, o


def positions() -> list[tuple[int, int]]:
    out = []
    for seed, plies in [(1, 0), (2, 9), (3, 20), (4, 31), (5, 40), (6, 44), (7, 48), (8, 52), (9, 55)]:
        p, o = random_play(seed, plies)
        if moves(p, o):
            out.append((p, o))
    return out


def plain_negamax(p: int, o: int) -> int:
    """Reference: exact margin by trying every move, no pruning (for a handful of empties only)."""
    mv = moves(p, o)
    if not mv:
        if not moves(o, p):
            return endgame.final_margin(p, o)
        return -plain_negamax(o, p)
    best = -65
    for sq in bits(mv):
        f = flips(sq, p, o)
        best = max(best, -plain_negamax(o ^ f, p | f | (1 << sq)))
    return best


@pytest.mark.parametrize("level", bot.LEVELS)
def test_every_level_returns_one_of_the_legal_actions(level: str) -> None:
    for seed in range(4):
        state = engine.new_game(2, seed)
        rng = random.Random(seed)
        while state.to_move is not None:
            seat = state.to_move
            legal = engine.legal_actions(state, seat)
            if seat == 0:
                action = bot.choose(engine.view(state, seat), legal, rng=rng, budget_s=0.005, level=level)
                assert any(action is a for a in legal)
            else:
                action = rng.choice(legal)
            state = engine.apply(state, seat, action)


def test_medium_is_the_default_level_and_unknown_levels_are_refused() -> None:
    state = engine.new_game(2, 0)
    legal = engine.legal_actions(state, 0)
    assert bot.choose(engine.view(state, 0), legal, rng=random.Random(0), budget_s=0.01) in legal
    with pytest.raises(ValueError, match="Unknown level 'expert'"):
        bot.choose(engine.view(state, 0), legal, rng=random.Random(0), budget_s=0.01, level="expert")


@pytest.mark.parametrize("level", bot.LEVELS)
@pytest.mark.parametrize("budget_s", [0.01, 0.05])
def test_work_stays_within_ten_percent_of_the_budget(level: str, budget_s: float) -> None:
    """Counted in nodes, with the wall-clock guard off, so only the node budget can stop the search."""
    for p, o in positions():
        d = bot.decide(p, o, level=level, budget_s=budget_s, rng=random.Random(0), wall_safety=math.inf)
        assert d.limit == max(1, int(budget_s * bot.NODES_PER_SECOND[level]))
        assert d.nodes <= d.limit * 1.1, (level, d)
        assert moves(p, o) >> d.square & 1


def test_the_search_uses_its_budget_rather_than_stopping_early() -> None:
    """A budget that cannot reach the end of the game is spent almost entirely (the limit binds)."""
    p, o = random_play(3, 20)
    for level in ("medium", "hard"):
        bot.forget()
        d = bot.decide(p, o, level=level, budget_s=0.05, rng=random.Random(0), wall_safety=math.inf)
        assert d.limit * 0.9 <= d.nodes <= d.limit * 1.1


def same_board_two_ways() -> tuple[State, State]:
    """One position reached by play and the same board set up directly, with another seed."""
    played = engine.new_game(2, 11)
    for square in ("f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2"):
        played = engine.apply(played, played.to_move, {"type": "place", "square": square})
    view = engine.view(played, played.to_move)
    direct = engine.new_game(2, 99, {"board": view["board"], "to_move": view["to_move"]})
    return played, direct


@pytest.mark.parametrize("level", bot.LEVELS)
def test_the_bot_decides_from_the_board_in_the_view_alone(level: str) -> None:
    played, direct = same_board_two_ways()
    answers = []
    for state in (played, direct):
        # The tables kept between moves would let the first call help the second; start both cold.
        bot.forget()
        seat = state.to_move
        view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
        answers.append(bot.choose(view, legal, rng=random.Random(5), budget_s=0.05, level=level))
    assert answers[0] == answers[1]


def test_easy_is_a_beginner_not_a_random_player() -> None:
    """It grabs a free corner most of the time but not always, and varies its moves."""
    # Start position plus a diagonal run: black may take a1 (flipping b2) among other moves.
    board = ["."] * 64
    for name, colour in {"d4": "W", "e4": "B", "d5": "B", "e5": "W", "b2": "W", "c3": "B"}.items():
        board[SQUARE_NAMES.index(name)] = colour
    p, o = parse_board("".join(board))
    assert moves(p, o) & 1
    picks = Counter(
        bot.decide(p, o, level="easy", budget_s=0.5, rng=random.Random(seed), wall_safety=math.inf).square
        for seed in range(200)
    )
    assert picks[0] >= 120
    assert len(picks) >= 2


def ffo_line(path: Path, index: int) -> tuple[int, int, dict[str, int]]:
    line = path.read_text().splitlines()[index]
    board, rest = line[:64], line[65:]
    black, white = parse_board(board.translate(str.maketrans("XO-", "BW.")))
    p, o = (black, white) if rest[0] == "X" else (white, black)
    scores = {m.strip().lower(): int(s) for m, s in (pair.split(":") for pair in rest[2:].split(";") if ":" in pair)}
    return p, o, scores


def test_endgame_solver_gives_the_published_score_of_every_move_of_ffo_20() -> None:
    p, o, scores = ffo_line(DATA / "fforum-20-39.obf", 0)
    budget = endgame.Budget(10**9, math.inf, lambda: 0.0)
    for name, score in scores.items():
        sq = SQUARE_NAMES.index(name)
        f = flips(sq, p, o)
        assert -endgame.solve(o ^ f, p | f | (1 << sq), -64, 64, budget) == score, name


@pytest.mark.parametrize("seed", range(6))
def test_endgame_solver_matches_a_plain_negamax_with_any_window(seed: int) -> None:
    p, o = random_play(100 + seed, 52)  # about 8 empties: the solver's deep path with table and stability
    exact = plain_negamax(p, o)
    endgame.TABLE.clear()
    budget = endgame.Budget(10**9, math.inf, lambda: 0.0)
    assert endgame.solve(p, o, -64, 64, budget) == exact
    for alpha in (exact - 3, exact, exact + 2):
        value = endgame.solve(p, o, alpha, alpha + 1, budget)
        assert (value > alpha) == (exact > alpha)
    square, margin, complete = endgame.solve_root(p, o, bits(moves(p, o)), budget)
    assert complete and margin == exact
    f = flips(square, p, o)
    assert -plain_negamax(o ^ f, p | f | (1 << square)) == exact


def test_hard_plays_the_exact_best_move_when_it_can_solve() -> None:
    p, o = random_play(7, 50)
    bot.forget()
    d = bot.decide(p, o, level="hard", budget_s=2.0, rng=random.Random(0), wall_safety=math.inf)
    assert d.source == "exact"
    unlimited = endgame.Budget(10**9, math.inf, lambda: 0.0)
    assert d.value == endgame.solve(p, o, -64, 64, unlimited)
    f = flips(d.square, p, o)
    assert -endgame.solve(o ^ f, p | f | (1 << d.square), -64, 64, unlimited) == d.value


def test_stable_discs_counts_corner_anchored_edges() -> None:
    p = 0b111 | (1 << 8) | (1 << 16)  # a1 b1 c1 on row 1, a2 a3 down the a-file
    assert endgame.stable_discs(p, 0) == 5
    assert endgame.stable_discs(p & ~1, 0) == 0  # without the corner nothing is anchored
    assert endgame.stable_discs(0xFF, 0xFF00) == 8  # a full edge


def test_book_replies_with_a_legal_move_in_every_orientation() -> None:
    assert len(book.entries()) > 500
    p, o = START_BLACK, START_WHITE
    reply = book.lookup(p, o)
    assert reply is not None and moves(p, o) >> reply & 1
    # After each of black's four (symmetric) openings, white's reply is the same move mirrored.
    replies = []
    for sq in bits(moves(p, o)):
        f = flips(sq, p, o)
        q, r = o ^ f, p | f | (1 << sq)
        answer = book.lookup(q, r)
        assert answer is not None and moves(q, r) >> answer & 1
        replies.append(book.canonical(q, r)[0])
    assert len(set(replies)) == 1


def test_hard_uses_the_book_in_the_opening() -> None:
    d = bot.decide(START_BLACK, START_WHITE, level="hard", budget_s=0.5, rng=random.Random(0))
    assert d.source == "book" and d.nodes == 1


def test_symmetries() -> None:
    rng = random.Random(3)
    for _ in range(50):
        b = rng.getrandbits(64)
        assert symmetry.transpose(b) == sum(1 << (sq % 8 * 8 + sq // 8) for sq in range(64) if b >> sq & 1)
        assert symmetry.mirror_h(b) == sum(1 << (sq // 8 * 8 + 7 - sq % 8) for sq in range(64) if b >> sq & 1)
        assert symmetry.flip_v(b) == sum(1 << ((7 - sq // 8) * 8 + sq % 8) for sq in range(64) if b >> sq & 1)
        assert symmetry.transpose(symmetry.transpose(b)) == b & FULL
        assert len(set(symmetry.images(b))) <= 8


def test_compiled_moves_and_flips_agree_with_the_reference_bitboards() -> None:
    """fast.py (the hard level's numba core) against bitboard.py, which the rules engine uses."""
    for seed in range(40):
        rng = random.Random(seed)
        p, o = START_BLACK, START_WHITE
        while True:
            mv = moves(p, o)
            assert int(fast.moves(np.uint64(p), np.uint64(o))) == mv
            if not mv:
                if not moves(o, p):
                    break
                p, o = o, p
                continue
            for sq in bits(mv):
                assert int(fast.flips(np.uint64(sq), np.uint64(p), np.uint64(o))) == flips(sq, p, o)
            sq = rng.choice(bits(mv))
            f = flips(sq, p, o)
            p, o = o ^ f, p | f | (1 << sq)


@pytest.mark.parametrize("seed", range(6))
def test_compiled_solver_matches_a_plain_negamax_with_any_window(seed: int) -> None:
    p, o = random_play(200 + seed, 51)  # about 9-10 empties: move generator, table and stability paths
    exact = plain_negamax(p, o)
    size = 1 << fast.TT_BITS
    keys, values = np.zeros((size, 2), dtype=np.uint64), np.zeros((size, 3), dtype=np.int64)
    ctr = np.array([0, 10**12, 0], dtype=np.int64)
    big_p, big_o = np.uint64(p), np.uint64(o)
    assert fast.solve(big_p, big_o, -64, 64, ctr, keys, values) == exact
    for alpha in (exact - 3, exact, exact + 2):
        value = fast.solve(big_p, big_o, alpha, alpha + 1, ctr, keys, values)
        assert (value > alpha) == (exact > alpha)
    assert ctr[2] == 0 and ctr[0] > 0


def test_compiled_solver_gives_the_published_score_of_ffo_40() -> None:
    p, o, scores = ffo_line(DATA / "fforum-40-59.obf", 0)
    size = 1 << fast.TT_BITS
    keys, values = np.zeros((size, 2), dtype=np.uint64), np.zeros((size, 3), dtype=np.int64)
    ctr = np.array([0, 10**12, 0], dtype=np.int64)
    assert fast.solve(np.uint64(p), np.uint64(o), -64, 64, ctr, keys, values) == max(scores.values())


def test_compiled_search_stops_at_its_node_limit() -> None:
    """The counter, not the clock, ends the compiled search: it unwinds as soon as the limit is reached."""
    p, o = random_play(3, 20)
    budget = endgame.Budget(5_000, math.inf, lambda: 0.0)
    sq, _, depth = bot._deep_search(p, o, bits(moves(p, o)), budget, bot._core())
    assert budget.nodes == 5_000
    assert moves(p, o) >> sq & 1 and depth >= 2


def test_the_learned_weights_fit_the_patterns() -> None:
    core = bot._core()
    cells, offsets, n_weights = fast.pattern_tables()
    views = fast.pattern_views()
    assert core.weights.shape == (n_weights,) and core.weights.dtype == np.int16
    assert cells.shape[0] == 46  # 4 + 4 + 8 + 4 x 3 rows + 2 + 4 x 4 diagonals placements
    # Fitted, not empty: a corner of one's own is worth discs, in every orientation.
    corner = 1 << 0
    for image in symmetry.images(corner):
        p = START_BLACK | image
        assert fast.evaluate(np.uint64(p), np.uint64(START_WHITE), views, offsets, core.weights) > fast.evaluate(
            np.uint64(START_BLACK), np.uint64(START_WHITE), views, offsets, core.weights
        )


def test_the_compiled_evaluation_reads_every_placement_square_by_square() -> None:
    """The evaluation reads each placement off a symmetric image of the board with bit tricks; it must
    give exactly what reading the placement's squares one by one gives (so no move changes)."""
    core = bot._core()
    cells, offsets, _ = fast.pattern_tables()
    views = fast.pattern_views()
    rng = random.Random(14)
    for view in range(8):
        x = rng.getrandbits(64)
        image = int(fast.board_view(np.uint64(x), view))
        assert all((image >> sq & 1) == (x >> fast._square_images(sq)[view] & 1) for sq in range(64))

    def square_by_square(p: int, o: int) -> int:
        phase = min(64 - (p | o).bit_count(), 59) // 6
        total = int(core.weights[offsets[phase, len(cells)]])
        for k, squares in enumerate(cells.tolist()):
            idx = 0
            for sq in reversed([sq for sq in squares if sq >= 0]):
                idx = 3 * idx + (1 if p >> sq & 1 else 2 if o >> sq & 1 else 0)
            total += int(core.weights[offsets[phase, k] + idx])
        return max(-fast.HEURISTIC_CAP, min(fast.HEURISTIC_CAP, total))

    for _ in range(300):
        filled = rng.getrandbits(64) | rng.getrandbits(64)
        p = filled & rng.getrandbits(64)
        o = filled & ~p
        assert fast.evaluate(np.uint64(p), np.uint64(o), views, offsets, core.weights) == square_by_square(p, o)


class SlowClock:
    """A fake clock that moves on a fixed step per read, so a search's stop is exact, not timed."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads * self.step


@pytest.mark.parametrize("budget_s", [0.5, 2.0])
def test_hard_s_compiled_search_stops_at_its_deadline_on_a_slow_host(
    monkeypatch: pytest.MonkeyPatch, budget_s: float
) -> None:
    """On a host a hundred times slower than the node rate assumes (a clock read every 1,024 nodes
    advances 10 ms here), the compiled search and the exact solver stop at their first clock read past
    the deadline, not when the node budget is spent: budget_s / 10 ms reads, then one more."""
    bot.warm_up()
    for p, o in [random_play(3, 20), random_play(5, 44)]:  # the midgame search; the exact solver
        bot.forget()
        clock = SlowClock(0.01)
        monkeypatch.setattr(bot, "perf_counter", clock)
        d = bot.decide(p, o, level="hard", budget_s=budget_s, rng=random.Random(0))
        monkeypatch.undo()
        assert moves(p, o) >> d.square & 1
        reads_to_deadline = round(budget_s / clock.step)
        assert reads_to_deadline <= clock.reads <= reads_to_deadline + 3, (d, clock.reads)
        # Stopped by the clock: the node budget (calibrated for a quiet host) was far from spent.
        assert d.nodes <= clock.reads * fast.CLOCK_EVERY < d.limit / 10, d
        assert fast.WATCH == [None]


def test_without_a_deadline_only_the_node_budget_ends_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Benchmarks and tests turn the deadline off: however late the clock says it is, hard then
    spends its whole node budget, so the same position gets the same move on any host."""
    bot.warm_up()
    bot.forget()
    monkeypatch.setattr(bot, "perf_counter", SlowClock(1000.0))
    p, o = random_play(3, 20)
    d = bot.decide(p, o, level="hard", budget_s=0.05, rng=random.Random(0), wall_safety=math.inf)
    assert d.limit * 0.9 <= d.nodes <= d.limit * 1.1
