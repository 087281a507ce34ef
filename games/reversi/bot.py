"""Reversi computer players at three levels, all deciding from the view alone.

Every level rebuilds the position from ``view["board"]`` / ``view["to_move"]`` (everything in Reversi
is public) and counts its work in nodes: ``budget_s`` buys ``budget_s * NODES_PER_SECOND[level]``
nodes. Each rate is what that level's search reaches in ``budget_s`` on one core of the reference
machine (medium: about half a second's worth). A busy host reaches fewer nodes per second, so every
search also reads the clock every few hundred nodes (the compiled one too) and stops at
``WALL_SAFETY * budget_s`` of wall time: the node count decides on a quiet host (and in tests and
benchmarks, which turn the clock off), the clock on a busy one.

- easy: a beginner. Looks one move ahead, likes flipping many discs, corners and edges, vaguely
  dislikes X-squares and giving the opponent moves, and picks by a softmax over that score, so it
  often plays the second- or third-best idea and never sees a trap.
- medium: iterative-deepening alpha-beta (negamax) on a hand-made evaluation (mobility, potential
  mobility, corners, X/C-squares, edge stability); exact in the last few moves. Pure Python.
- hard: compiled with numba (fast.py): an opening book from WTHOR games (book.py), a PVS search on a
  pattern evaluation fitted to WTHOR games, an exact endgame solver as soon as the position is small
  enough to solve within the budget, and its search and solver tables kept between moves. The
  worker compiles it when it starts (``warm_up``); a hard move that comes sooner waits for the
  compiler (the match page shows the computer thinking) rather than play a weaker search.
"""

from __future__ import annotations

import json
import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import product
from pathlib import Path
from time import perf_counter
from types import SimpleNamespace
from typing import Any

import numpy as np

from games.engine import Action, View
from games.reversi import book, endgame
from games.reversi.bitboard import CORNERS, FULL, bits, flips, moves
from games.reversi.board import SQUARE_INDEX, SQUARE_NAMES, parse_board
from games.reversi.endgame import Budget, OutOfBudget
from games.reversi.state import START_BLACK, START_WHITE
from games.support import deadline

LEVELS = ("easy", "medium", "hard")
# Nodes per second of budget (bench/bots/reversi.py, CPU time). The pure-Python search reaches about
# 64,000 on one core of the reference machine; medium gets half of that, so it thinks about half as
# long. Hard's compiled search reaches 1-3 M on a quiet core (0.34-0.9 M measured under a load average
# of 13-16, which depresses rates about 3x). A node is one searched position; for hard, 8 nodes of
# the exact solver count as one (SOLVER_NODES_PER_UNIT).
NODES_PER_SECOND = {"easy": 64_000, "medium": 32_000, "hard": 1_500_000}
# The wall-clock deadline, in budgets: a search stops at its first clock read past it (about a
# millisecond later), so a 0.5 s move ends by about 0.5 s however busy the host.
WALL_SAFETY = 1.0

# A proven final margin of one disc (SCALE) outweighs any heuristic score (clamped below SCALE), so the
# search never trades a known win for a merely promising position.
SCALE = 10_000
HEURISTIC_CAP = SCALE - 1
INF = 1_000_000

# Exact search with the lean solver (no evaluation, no hashing) below this many empty squares.
SOLVER_EMPTIES = 7
# A long think (large budget_s) must not grow the table without bound: ~250 bytes an entry.
TABLE_LIMIT = 400_000

NOT_A = 0xFEFEFEFEFEFEFEFE
NOT_H = 0x7F7F7F7F7F7F7F7F
A_FILE = 0x0101010101010101
# Gathers the a-file into the top byte: every partial product lands on its own bit, so no carries.
GATHER = 0x0102040810204080

# Squares diagonally (X) and orthogonally (C) next to each corner: giving the opponent access to an
# empty corner is the classic way to lose one.
_CORNER_NEIGHBOURS: list[tuple[int, int, int]] = []
for _corner, _x, _c1, _c2 in (
    ("a1", "b2", "b1", "a2"),
    ("h1", "g2", "g1", "h2"),
    ("a8", "b7", "a7", "b8"),
    ("h8", "g7", "h7", "g8"),
):
    _c = (1 << SQUARE_INDEX[_c1]) | (1 << SQUARE_INDEX[_c2])
    _CORNER_NEIGHBOURS.append((1 << SQUARE_INDEX[_corner], 1 << SQUARE_INDEX[_x], _c))
X_SQUARES = sum(x for _, x, _ in _CORNER_NEIGHBOURS)
C_SQUARES = sum(c for _, _, c in _CORNER_NEIGHBOURS)
EDGES = 0xFF000000000000FF | A_FILE | (A_FILE << 7)
# Cheap move ordering for shallow nodes: corners, then other edges, the middle, C- and last X-squares.
ORDER_CLASSES = (CORNERS, EDGES & ~(CORNERS | C_SQUARES), FULL & ~(EDGES | X_SQUARES), C_SQUARES, X_SQUARES)

W_MOBILITY = 10
W_POTENTIAL = 4
W_CORNER = 60
W_X = 25
W_C = 8
W_STABLE = 12


def _edge_stability_table() -> list[int]:
    """Stable discs on one edge, own minus opponent, indexed by ``own_line << 8 | opp_line``.

    A disc on an edge can only be flipped along that edge, so it is stable when the edge is full or
    when an unbroken run of its colour joins it to a corner.
    """
    table = [0] * 65536
    for cells in product((0, 1, 2), repeat=8):
        own = sum(1 << i for i, c in enumerate(cells) if c == 1)
        opp = sum(1 << i for i, c in enumerate(cells) if c == 2)
        if own | opp == 0xFF:
            table[own << 8 | opp] = own.bit_count() - opp.bit_count()
            continue
        stable = [False] * 8
        for run in (range(8), range(7, -1, -1)):
            colour = cells[run[0]]
            if colour == 0:
                continue
            for i in run:
                if cells[i] != colour:
                    break
                stable[i] = True
        table[own << 8 | opp] = sum((1 if cells[i] == 1 else -1) for i in range(8) if stable[i])
    return table


EDGE_STABILITY = _edge_stability_table()


def _neighbours(b: int) -> int:
    """Squares next to any disc of ``b`` (may include occupied squares)."""
    east = ((b << 1) | (b << 9) | (b >> 7)) & NOT_A
    west = ((b >> 1) | (b >> 9) | (b << 7)) & NOT_H
    return (east | west | (b << 8) | (b >> 8)) & FULL


def _edge_lines(b: int) -> tuple[int, int, int, int]:
    return (
        b & 0xFF,
        b >> 56,
        (((b & A_FILE) * GATHER) >> 56) & 0xFF,
        ((((b >> 7) & A_FILE) * GATHER) >> 56) & 0xFF,
    )


def evaluate(p: int, o: int, mp: int, mo: int) -> int:
    """Heuristic value for the side to move (owner of ``p``), whose moves are ``mp``, opponent's ``mo``."""
    empty = FULL & ~(p | o)
    score = W_MOBILITY * (mp.bit_count() - mo.bit_count())
    # Potential mobility: empties next to the opponent's discs are where my future moves come from.
    score += W_POTENTIAL * ((_neighbours(o) & empty).bit_count() - (_neighbours(p) & empty).bit_count())
    score += W_CORNER * ((p & CORNERS).bit_count() - (o & CORNERS).bit_count())
    for corner, x, c in _CORNER_NEIGHBOURS:
        if corner & empty:
            if x & p:
                score -= W_X
            elif x & o:
                score += W_X
            score -= W_C * ((c & p).bit_count() - (c & o).bit_count())
    stable = 0
    for lp, lo in zip(_edge_lines(p), _edge_lines(o), strict=True):
        stable += EDGE_STABILITY[lp << 8 | lo]
    score += W_STABLE * stable
    empties = empty.bit_count()
    if empties < 16:
        # Discs start to count only when few moves remain to turn them over.
        score += (16 - empties) // 4 * (p.bit_count() - o.bit_count())
    return max(-HEURISTIC_CAP, min(HEURISTIC_CAP, score))


def final_score(p: int, o: int) -> int:
    """Scaled final margin, empties to the winner (REV-11's tournament score, the FFO/WTHOR convention)."""
    diff = p.bit_count() - o.bit_count()
    if diff > 0:
        diff += 64 - (p | o).bit_count()
    elif diff < 0:
        diff -= 64 - (p | o).bit_count()
    return diff * SCALE


class Searcher:
    """The medium level's search for one move: its budget and a transposition table for move ordering."""

    def __init__(self, budget: Budget, table: dict[tuple[int, int], tuple[int, int, int, int]] | None = None) -> None:
        self.budget = budget
        # (p, o) -> (depth, lower, upper, best square). Depth is capped at the empties: an entry whose
        # depth reaches the empties is exact, so it serves a search to any depth. Entries depend only on
        # the position and the (fixed) evaluation, so a table may be kept between moves (hard does).
        self.table = {} if table is None else table

    def _tick(self) -> None:
        budget = self.budget
        budget.nodes += 1
        if budget.nodes >= budget.check_at:
            budget.check()

    def _ordered(self, p: int, o: int, mv: int, depth: int, hint: int) -> list[int]:
        if depth >= 3:
            # Fastest-first: replies that leave the opponent few moves prune the most.
            keyed = []
            for sq in bits(mv):
                bit = 1 << sq
                f = flips(sq, p, o)
                np, no = p | f | bit, o ^ f
                key = moves(no, np).bit_count() * 4
                if bit & CORNERS:
                    key -= 8
                elif bit & X_SQUARES:
                    key += 6
                keyed.append((key, sq))
            keyed.sort()
            order = [sq for _, sq in keyed]
        else:
            order = []
            for cls in ORDER_CLASSES:
                if mv & cls:
                    order.extend(bits(mv & cls))
        if hint >= 0 and hint in order and order[0] != hint:
            order.remove(hint)
            order.insert(0, hint)
        return order

    def negamax(self, p: int, o: int, depth: int, alpha: int, beta: int) -> int:
        self._tick()
        mp = moves(p, o)
        if not mp:
            if not moves(o, p):
                return final_score(p, o)
            # A forced pass (REV-7) costs no depth: only placements bring the end closer.
            return -self.negamax(o, p, depth, -beta, -alpha)
        empties = 64 - (p | o).bit_count()
        if depth >= empties and empties <= SOLVER_EMPTIES:
            return self.solve(p, o, alpha, beta)
        if depth <= 0:
            return evaluate(p, o, mp, moves(o, p))

        key = (p, o)
        hint = -1
        entry = self.table.get(key)
        if entry is not None:
            e_depth, lower, upper, hint = entry
            if e_depth >= depth or e_depth >= empties:
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                if lower == upper:
                    return lower
                alpha = max(alpha, lower)
                beta = min(beta, upper)

        alpha0 = alpha
        best = -INF
        best_sq = -1
        for sq in self._ordered(p, o, mp, depth, hint):
            f = flips(sq, p, o)
            value = -self.negamax(o ^ f, p | f | (1 << sq), depth - 1, -beta, -alpha)
            if value > best:
                best, best_sq = value, sq
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if best >= beta:
            lower, upper = best, INF
        elif best <= alpha0:
            lower, upper = -INF, best
        else:
            lower = upper = best
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (min(depth, empties), lower, upper, best_sq)
        return best

    def solve(self, p: int, o: int, alpha: int, beta: int) -> int:
        """Exact final margin (scaled) for few empties: try each empty square, no move generator."""
        self._tick()
        empty = FULL & ~(p | o)
        best = -INF
        moved = False
        while empty:
            bit = empty & -empty
            empty ^= bit
            f = flips(bit.bit_length() - 1, p, o)
            if not f:
                continue
            moved = True
            value = -self.solve(o ^ f, p | f | bit, -beta, -alpha)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        return best
        if moved:
            return best
        if moves(o, p):
            return -self.solve(o, p, -beta, -alpha)
        return final_score(p, o)

    def root(self, p: int, o: int, order: list[int], depth: int) -> tuple[list[tuple[int, int]], bool]:
        """Values of root moves at ``depth``, best first; ``False`` if the budget ran out."""
        scored: list[tuple[int, int]] = []
        alpha = -INF
        try:
            for sq in order:
                f = flips(sq, p, o)
                # Null window after the first move: we only need to know whether a move is better.
                child_o, child_p = p | f | (1 << sq), o ^ f
                if scored:
                    value = -self.negamax(child_p, child_o, depth - 1, -alpha - 1, -alpha)
                    if value > alpha:
                        value = -self.negamax(child_p, child_o, depth - 1, -INF, -alpha)
                else:
                    value = -self.negamax(child_p, child_o, depth - 1, -INF, INF)
                scored.append((value, sq))
                alpha = max(alpha, value)
        except OutOfBudget:
            scored.sort(key=lambda t: -t[0])
            return scored, False
        scored.sort(key=lambda t: -t[0])
        return scored, True


def best_square(
    p: int,
    o: int,
    *,
    budget: Budget,
    rng: random.Random | None = None,
    max_depth: int = 64,
    table: dict[tuple[int, int], tuple[int, int, int, int]] | None = None,
) -> tuple[int, int, int]:
    """(square, value, depth reached) for the side owning ``p``; needs at least one legal move."""
    searcher = Searcher(budget, table)
    mv = moves(p, o)
    order = searcher._ordered(p, o, mv, 3, -1)
    if rng is not None:
        # Random tie-break among equal moves; the stable sorts below keep this order among ties.
        rng.shuffle(order)
        order.sort(key=lambda sq: 0 if (1 << sq) & CORNERS else 2 if (1 << sq) & X_SQUARES else 1)
    best, best_value, reached = order[0], 0, 0
    empties = 64 - (p | o).bit_count()
    for depth in range(1, min(max_depth, empties) + 1):
        scored, finished = searcher.root(p, o, order, depth)
        if finished:
            best, best_value, reached = scored[0][1], scored[0][0], depth
            order = [sq for _, sq in scored]
        else:
            # The first root move is the previous best; a move that beat it at this depth is better still.
            if scored and scored[0][1] != order[0]:
                best, best_value = scored[0][1], scored[0][0]
            break
    return best, best_value, reached


def _easy(p: int, o: int, budget: Budget, rng: random.Random) -> int:
    """A beginner's move: a softmax over a one-move-ahead score, one node per move looked at."""
    opp_corner_free = CORNERS & ~(p | o)
    scored: list[tuple[float, int]] = []
    for sq in bits(moves(p, o))[: max(1, budget.limit)]:
        budget.nodes += 1
        bit = 1 << sq
        f = flips(sq, p, o)
        score = 0.5 * f.bit_count() - 0.3 * moves(o ^ f, p | f | bit).bit_count()
        if bit & CORNERS:
            score += 5.0
        elif bit & EDGES:
            score += 1.0
        elif bit & X_SQUARES and _CORNER_OF_X[sq] & opp_corner_free:
            score -= 2.0
        scored.append((score, sq))
    top = max(score for score, _ in scored)
    weights = [math.exp((score - top) / EASY_TEMPERATURE) for score, _ in scored]
    return rng.choices([sq for _, sq in scored], weights=weights)[0]


EASY_TEMPERATURE = 1.2
_CORNER_OF_X = {x.bit_length() - 1: corner for corner, x, _ in _CORNER_NEIGHBOURS}


@cache
def _core() -> SimpleNamespace:
    """The compiled search (imported on first use: numba costs a second to import) and its tables.

    The tables live as long as the worker process, so what one move learned serves the next.
    """
    from games.reversi import fast

    weights = np.load(PATTERNS)["weights"]
    _cells, offsets, n_weights = fast.pattern_tables()
    if weights.shape != (n_weights,):
        raise RuntimeError(f"{PATTERNS} does not fit the patterns in fast.py; rerun tools/fit_reversi_patterns.py")
    size = 1 << fast.TT_BITS
    mk, mv = np.zeros((size, 2), dtype=np.uint64), np.zeros((size, 4), dtype=np.int64)
    ek, ev = np.zeros((size, 2), dtype=np.uint64), np.zeros((size, 3), dtype=np.int64)
    cut = probcut_table(json.loads(PROBCUT.read_text())["fits"], PROBCUT_CONFIDENCE)
    return SimpleNamespace(
        fast=fast,
        weights=weights,
        mk=mk,
        mv=mv,
        ek=ek,
        ev=ev,
        tables=(mk, mv, ek, ev, fast.pattern_views(), offsets, weights, cut),
    )


def warm_up() -> None:
    """Compile the hard level's search (about 13 s of CPU, once per process) before a move needs it.

    The worker runs this in a background thread as it starts; a hard move calls it too (``decide``),
    so one that arrives mid-compile waits for that thread rather than play a weaker search. The tables
    are emptied afterwards, so warming up changes no later decision.
    """
    while not _COMPILED.is_set():
        # One compile at a time: a hard move arriving mid-compile must wait for this one, not
        # start a second (numba would serialise them anyway, at twice the CPU).
        if _COMPILING.acquire(blocking=False):
            try:
                if not _COMPILED.is_set():
                    core = _core()
                    order = [19, 26, 37, 44]
                    _deep_search(START_BLACK, START_WHITE, order, Budget(10_000, math.inf, perf_counter), core)
                    _exact_root(START_BLACK, START_WHITE, order, Budget(100, math.inf, perf_counter), core, 0)
                    forget()
                    _COMPILED.set()
            finally:
                _COMPILING.release()
        else:
            # Another thread compiles; if it fails, the lock comes free and this one tries itself.
            _COMPILED.wait(COMPILE_POLL_SECONDS)


_COMPILED = threading.Event()
_COMPILING = threading.Lock()
COMPILE_POLL_SECONDS = 0.5


def evaluation_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The learned evaluation's (views, offsets, weights), for a search with tables of its own (the
    post-game analysis, ``games/reversi/analysis.py``); the bot's own tables are left alone."""
    tables = _core().tables
    return tables[4], tables[5], tables[6]


def forget() -> None:
    """Empty the tables the hard level keeps between moves (benchmarks and tests start cold)."""
    endgame.TABLE.clear()
    if _core.cache_info().currsize:
        core = _core()
        for table in (core.mk, core.mv, core.ek, core.ev):
            table.fill(0)


def _counter(budget: Budget, per_unit: int = 1) -> np.ndarray:
    """The compiled code's node counter: [used, allowed, out of budget], ``per_unit`` nodes a unit."""
    return np.array([0, max(0, budget.limit - budget.nodes) * per_unit, 0], dtype=np.int64)


def _deep_search(p: int, o: int, order: list[int], budget: Budget, core: SimpleNamespace) -> tuple[int, int, int]:
    """(square, value, depth) by iterative deepening with the compiled search and learned evaluation."""
    fast = core.fast
    big_p, big_o = np.uint64(p), np.uint64(o)
    arr = np.array(order, dtype=np.int64)
    values = np.zeros(len(order), dtype=np.int64)
    ctr = _counter(budget)
    best, best_value, reached = order[0], 0, 0
    empties = 64 - (p | o).bit_count()
    fast.WATCH[0] = _watch(budget)
    try:
        for depth in range(1, empties + 1):
            done = fast.search_root(big_p, big_o, arr, depth, values, ctr, core.tables)
            if done < len(arr):
                # The first root move is the previous best; a move that beat it at this depth is better still.
                if done > 1:
                    j = int(np.argmax(values[:done]))
                    if j > 0:
                        best, best_value = int(arr[j]), int(values[j])
                break
            # Stable sort, best first; ties keep the previous order.
            rank = np.argsort(-values, kind="stable")
            arr, values = arr[rank], values[rank]
            best, best_value, reached = int(arr[0]), int(values[0]), depth
            if budget.clock() > budget.deadline:
                break
    finally:
        fast.WATCH[0] = None
        budget.nodes += int(ctr[0])
    return best, best_value, reached


def _watch(budget: Budget) -> tuple[Callable[[], float], float] | None:
    """What the compiled search reads the time from: the budget's clock and deadline, if it has one."""
    return None if math.isinf(budget.deadline) else (budget.clock, budget.deadline)


def _exact_root(
    p: int, o: int, order: list[int], budget: Budget, core: SimpleNamespace, guess: int
) -> tuple[int, int, bool]:
    """(best square, its exact margin, complete), trying ``order`` first; see ``endgame.solve_root``.

    If the budget runs out, the first square's value (once known) stands, and a later square replaces it
    only when proven better.
    """
    fast = core.fast
    ctr = _counter(budget, SOLVER_NODES_PER_UNIT)

    def solve(q: int, r: int, alpha: int, beta: int) -> int:
        value = fast.solve(np.uint64(q), np.uint64(r), alpha, beta, ctr, core.ek, core.ev)
        if ctr[2]:
            raise OutOfBudget
        return int(value)

    best_sq, best = order[0], -65
    fast.WATCH[0] = _watch(budget)
    try:
        for i, sq in enumerate(order):
            f = flips(sq, p, o)
            child_p, child_o = o ^ f, p | f | (1 << sq)
            if i == 0:
                low, high = max(-64, guess - 4), min(64, guess + 4)
                value = -solve(child_p, child_o, -high, -low)
                if value <= low:
                    value = -solve(child_p, child_o, -value - 1, 64)
                elif value >= high:
                    value = -solve(child_p, child_o, -64, -value + 1)
                best = value
                continue
            value = -solve(child_p, child_o, -best - 1, -best)
            if value > best:
                # Proven better: it is the move even if its exact value is not known yet.
                best_sq, best = sq, value
                best = -solve(child_p, child_o, -64, -value + 1)
    except OutOfBudget:
        return best_sq, best, False
    finally:
        fast.WATCH[0] = None
        budget.nodes += -(-int(ctr[0]) // SOLVER_NODES_PER_UNIT)
    return best_sq, best, True


def _hard(p: int, o: int, budget: Budget, rng: random.Random) -> tuple[int, int, int, str]:
    """(square, value in 1/SCALE disc, depth, source) for the hard level."""
    in_book = book.lookup(p, o)
    mv = moves(p, o)
    if in_book is not None and mv >> in_book & 1:
        budget.nodes += 1
        return in_book, 0, 0, "book"
    core = _core()
    order = bits(mv)
    # Random tie-break among equal moves: the stable sorts of the search keep this order among ties.
    rng.shuffle(order)
    empties = 64 - (p | o).bit_count()
    if EXACT_COST.get(empties, 10**15) <= budget.limit * SOLVER_NODES_PER_UNIT:
        # Likely solvable: a short search picks the order, the exact solver spends the rest.
        limit = budget.limit
        budget.limit = limit * SHORT_SEARCH_SHARE // 100
        try:
            sq, value, depth = _deep_search(p, o, order, budget, core)
        finally:
            budget.limit = limit
        rest = [sq] + [s for s in order if s != sq]
        guess = max(-64, min(64, round(value / SCALE) if abs(value) >= SCALE else round(value / UNIT)))
        solved_sq, margin, complete = _exact_root(p, o, rest, budget, core, guess)
        if complete:
            return solved_sq, margin * SCALE, empties, "exact"
        if solved_sq != sq:
            return solved_sq, margin * SCALE, depth, "partly exact"
        return sq, value, depth, "search"
    sq, value, depth = _deep_search(p, o, order, budget, core)
    return sq, value, depth, "exact" if depth >= empties else "search"


PATTERNS = Path(__file__).resolve().parent / "data" / "patterns.npz"
PROBCUT = Path(__file__).resolve().parent / "data" / "probcut.json"
# How many residual deviations a shallow value must clear before ProbCut trusts it (Buro's t).
PROBCUT_CONFIDENCE = 0.7


def probcut_table(fits: list[dict[str, Any]], confidence: float) -> np.ndarray:
    """The compiled search's ProbCut table (see ``fast.MPC_PHASES``) from fitted relations.

    No fits give the all-zero table: the plain full-width search.
    """
    from games.reversi import fast

    cut = np.zeros((fast.MPC_PHASES, fast.MPC_MAX_DEPTH + 1, 4), dtype=np.int64)
    for fit in fits:
        cut[fit["phase"], fit["depth"]] = (
            fit["shallow"],
            round(fit["slope"] * fast.MPC_SLOPE_ONE),
            round(fit["intercept"]),
            round(confidence * fit["sigma"]),
        )
    return cut


UNIT = 32  # the learned evaluation's unit: 1/32 disc

# A node of the compiled exact solver (no evaluation, cheap ordering) costs about a tenth of a node of
# the compiled midgame search (10 M against 0.6-1.2 M per CPU-second measured side by side), so the
# budget counts 8 solver nodes as one unit of work.
SOLVER_NODES_PER_UNIT = 8
# Solver nodes needed, by empties, on WTHOR and FFO positions (bench/bots/reversi.py --exact); the
# hard level tries to solve only when its budget covers this.
EXACT_COST = {e: 13_000 * 2 ** max(0, e - 10) for e in range(0, 30)}
SHORT_SEARCH_SHARE = 10  # percent of the budget for the search that orders the exact solver's moves


@dataclass(frozen=True)
class Decision:
    square: int
    level: str
    nodes: int
    limit: int
    depth: int
    value: float  # expected final margin in discs (exact when source is "exact")
    source: str


def decide(
    p: int,
    o: int,
    *,
    level: str,
    budget_s: float,
    rng: random.Random,
    wall_safety: float = WALL_SAFETY,
) -> Decision:
    """The ``level`` player's move for the side owning ``p`` (which must have a legal move).

    ``wall_safety=math.inf`` drops the wall-clock deadline: benchmarks and tests use it so that the
    moves depend on the node budget alone, however busy the machine. Hard always plays its compiled
    search, waiting for the compiler if this process has not finished compiling it yet.
    """
    if level not in NODES_PER_SECOND:
        raise ValueError(f"Unknown level {level!r}; expected one of {', '.join(LEVELS)}.")
    limit = max(1, int(budget_s * NODES_PER_SECOND[level]))
    if level == "hard":
        # Before the clock starts: the wait for the compiler is not the search's time.
        warm_up()
    budget = Budget(limit, perf_counter() + budget_s * wall_safety, perf_counter)
    if level == "easy":
        return Decision(_easy(p, o, budget, rng), level, budget.nodes, limit, 1, 0.0, "softmax")
    if level == "medium":
        sq, value, depth = best_square(p, o, budget=budget, rng=rng)
        return Decision(sq, level, budget.nodes, limit, depth, value / SCALE, "search")
    sq, value, depth, source = _hard(p, o, budget, rng)
    return Decision(sq, level, budget.nodes, limit, depth, value / SCALE, source)


def choose(view: View, legal: list[Action], *, rng: Any, budget_s: float, level: str = "medium") -> Action:
    """One of ``legal`` for the side to move in ``view``, within about ``budget_s`` seconds of work."""
    if not legal:
        raise ValueError("No legal action to choose from.")
    if level not in NODES_PER_SECOND:
        raise ValueError(f"Unknown level {level!r}; expected one of {', '.join(LEVELS)}.")
    if len(legal) == 1:
        return legal[0]
    by_square = {action["square"]: action for action in legal}
    black, white = parse_board(view["board"])
    p, o = (black, white) if view["to_move"] == "B" else (white, black)
    wall_safety = WALL_SAFETY if deadline.ENFORCED else math.inf
    square = decide(p, o, level=level, budget_s=budget_s, rng=rng, wall_safety=wall_safety).square
    # ``legal`` is authoritative; if it ever disagreed with our own move generator, stay legal.
    return by_square.get(SQUARE_NAMES[square]) or legal[0]
