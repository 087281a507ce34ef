"""The work budget every Reversi search counts against, and the pure-Python exact endgame solver.

The hard level solves with the compiled copy of this solver in ``fast.py``; this one stays as the
readable reference the tests check the compiled one against.

Scores are final disc margins for the side to move, empties to the winner (the FFO/WTHOR convention).
The solver is a null-window-friendly alpha-beta with, from the deep end down:
- a transposition table of proven bounds kept between moves and matches (exact values do not depend
  on any evaluation; bounded in size),
- a stability cutoff: discs the opponent can never lose cap the best possible margin,
- fastest-first move ordering (the reply that leaves the opponent fewest moves first; corners early),
- below ``SHALLOW`` empties, no move generator: each empty square is tried in parity order (squares
  in regions with an odd number of empties first), and the last empty square is counted directly.
"""

from __future__ import annotations

from collections.abc import Callable

from games.reversi.bitboard import FULL, flips, moves

SHALLOW = 6  # at most this many empties: the square-by-square solver
TABLE_FROM = 9  # positions with at least this many empties go in the table
TABLE_LIMIT = 300_000  # entries (~200 bytes each); the table is cleared when full
CHECK_EVERY = 128  # nodes between clock reads: a few milliseconds of pure-Python search on a busy core

# Quadrant of each square (parity regions) and a static order inside a quadrant: corners first,
# X-squares last.
_QUADRANT = [(sq % 8 >= 4) + 2 * (sq // 8 >= 4) for sq in range(64)]
_QUAD_MASKS = [sum(1 << sq for sq in range(64) if _QUADRANT[sq] == q) for q in range(4)]
_PRIORITY = (0, 7, 56, 63, 2, 5, 16, 23, 40, 47, 58, 61, 3, 4, 24, 31, 32, 39, 59, 60, 18, 21, 42, 45,
             19, 20, 26, 29, 34, 37, 43, 44, 11, 12, 25, 30, 33, 38, 51, 52, 10, 13, 17, 22, 41, 46, 50,
             53, 1, 6, 8, 15, 48, 55, 57, 62, 9, 14, 49, 54)  # fmt: skip
CORNERS = (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
X_SQUARES = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54)


class OutOfBudget(Exception):
    """The search used its node budget or passed its wall-clock deadline."""


class Budget:
    """Work allowance of one decision: ``limit`` nodes, and a wall-clock deadline read from ``clock``.

    The node limit ends a search on a quiet host (and in tests and benchmarks, whose deadline is
    infinite), so the same position gets the same move; the deadline ends it on a busy host, where
    the nodes come slower than the rate the limit assumes. Hot loops inline
    ``nodes += 1; if nodes >= check_at: budget.check()``, which reads the clock every ``CHECK_EVERY``
    nodes.
    """

    __slots__ = ("check_at", "clock", "deadline", "limit", "nodes")

    def __init__(self, limit: int, deadline: float, clock: Callable[[], float]) -> None:
        self.nodes = 0
        self.limit = limit
        self.deadline = deadline
        self.clock = clock
        self.check_at = min(limit, CHECK_EVERY)

    def check(self) -> None:
        if self.nodes >= self.limit or self.clock() > self.deadline:
            raise OutOfBudget
        self.check_at = min(self.limit, self.nodes + CHECK_EVERY)


# (p, o) -> (lower, upper, best square). Module level: the worker process reuses it across moves.
TABLE: dict[tuple[int, int], tuple[int, int, int]] = {}


def _edge_stable_masks() -> list[int]:
    """Own discs on one edge that can never flip, as an 8-bit mask, indexed by ``own << 8 | opp``."""
    from itertools import product

    table = [0] * 65536
    for cells in product((0, 1, 2), repeat=8):
        own = sum(1 << i for i, c in enumerate(cells) if c == 1)
        opp = sum(1 << i for i, c in enumerate(cells) if c == 2)
        if own | opp == 0xFF:
            table[own << 8 | opp] = own
            continue
        stable = 0
        for run in (range(8), range(7, -1, -1)):
            if cells[run[0]] != 1:
                continue
            for i in run:
                if cells[i] != 1:
                    break
                stable |= 1 << i
        table[own << 8 | opp] = stable
    return table


EDGE_STABLE = _edge_stable_masks()
_A_FILE = 0x0101010101010101
_GATHER = 0x0102040810204080
# An a-file byte (bit i = row i) back to its squares.
SCATTER = [sum(1 << (8 * i) for i in range(8) if x >> i & 1) for x in range(256)]


def stable_discs(p: int, o: int) -> int:
    """A lower bound on the discs of ``p`` that can never flip: corner-anchored runs and full edges."""
    top = EDGE_STABLE[(p & 0xFF) << 8 | (o & 0xFF)]
    bottom = EDGE_STABLE[(p >> 56) << 8 | (o >> 56)]
    left = EDGE_STABLE[((((p & _A_FILE) * _GATHER) >> 56) & 0xFF) << 8 | ((((o & _A_FILE) * _GATHER) >> 56) & 0xFF)]
    right = EDGE_STABLE[
        (((((p >> 7) & _A_FILE) * _GATHER) >> 56) & 0xFF) << 8 | (((((o >> 7) & _A_FILE) * _GATHER) >> 56) & 0xFF)
    ]
    return (top | bottom << 56 | SCATTER[left] | SCATTER[right] << 7).bit_count()


def final_margin(p: int, o: int) -> int:
    """Margin of a finished game for ``p``'s owner, empties to the winner."""
    diff = p.bit_count() - o.bit_count()
    if diff > 0:
        return diff + 64 - (p | o).bit_count()
    if diff < 0:
        return diff - 64 + (p | o).bit_count()
    return 0


def _last(p: int, o: int, sq: int) -> int:
    """Exact margin with one empty square ``sq``."""
    f = flips(sq, p, o)
    if f:
        return 2 * (p.bit_count() + f.bit_count()) - 62
    f = flips(sq, o, p)
    if f:
        return 62 - 2 * (o.bit_count() + f.bit_count())
    return final_margin(p, o)


def _parity_order(empty: int) -> list[int]:
    odd = 0
    for mask in _QUAD_MASKS:
        if (empty & mask).bit_count() & 1:
            odd |= mask
    first = empty & odd
    return [sq for sq in _PRIORITY if first >> sq & 1] + [sq for sq in _PRIORITY if (empty & ~odd) >> sq & 1]


def _shallow(p: int, o: int, alpha: int, beta: int, empty: int, n_empty: int, budget: Budget) -> int:
    budget.nodes += 1
    if budget.nodes >= budget.check_at:
        budget.check()
    if n_empty == 1:
        return _last(p, o, empty.bit_length() - 1)
    best = -65
    for sq in _parity_order(empty):
        f = flips(sq, p, o)
        if not f:
            continue
        bit = 1 << sq
        value = -_shallow(o ^ f, p | f | bit, -beta, -alpha, empty ^ bit, n_empty - 1, budget)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    return best
    if best > -65:
        return best
    if moves(o, p):
        return -_shallow(o, p, -beta, -alpha, empty, n_empty, budget)
    return final_margin(p, o)


def solve(p: int, o: int, alpha: int, beta: int, budget: Budget) -> int:
    """Exact margin for the side owning ``p`` if it lies in (alpha, beta); else a bound on that side."""
    empty = FULL & ~(p | o)
    n_empty = empty.bit_count()
    if n_empty <= SHALLOW:
        if n_empty == 0:
            return final_margin(p, o)
        return _shallow(p, o, alpha, beta, empty, n_empty, budget)
    budget.nodes += 1
    if budget.nodes >= budget.check_at:
        budget.check()

    mv = moves(p, o)
    if not mv:
        if not moves(o, p):
            return final_margin(p, o)
        return -solve(o, p, -beta, -alpha, budget)

    # Stability cutoff: the opponent's stable discs are lost to us whatever happens.
    if alpha >= 8:
        ceiling = 64 - 2 * stable_discs(o, p)
        if ceiling <= alpha:
            return ceiling
        if ceiling < beta:
            beta = ceiling

    key = (p, o)
    hint = -1
    if n_empty >= TABLE_FROM:
        entry = TABLE.get(key)
        if entry is not None:
            lower, upper, hint = entry
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            if lower > alpha:
                alpha = lower
            if upper < beta:
                beta = upper

    # Fastest first: fewest replies for the opponent; corners early, X-squares late; the table's best.
    keyed: list[tuple[int, int, int]] = []
    while mv:
        bit = mv & -mv
        mv ^= bit
        sq = bit.bit_length() - 1
        f = flips(sq, p, o)
        no, np_ = o ^ f, p | f | bit
        key_sq = moves(no, np_).bit_count() * 16
        if bit & CORNERS:
            key_sq -= 24
        elif bit & X_SQUARES:
            key_sq += 12
        if sq == hint:
            key_sq = -1000
        keyed.append((key_sq, sq, f))
    keyed.sort()

    alpha0 = alpha
    best = -65
    best_sq = -1
    first = True
    for _, sq, f in keyed:
        bit = 1 << sq
        np_, no = o ^ f, p | f | bit
        if first:
            value = -solve(np_, no, -beta, -alpha, budget)
            first = False
        else:
            # Principal variation search: prove the move no better with a null window first.
            value = -solve(np_, no, -alpha - 1, -alpha, budget)
            if alpha < value < beta:
                value = -solve(np_, no, -beta, -value, budget)
        if value > best:
            best, best_sq = value, sq
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    if n_empty >= TABLE_FROM:
        if len(TABLE) >= TABLE_LIMIT:
            TABLE.clear()
        if best >= beta:
            TABLE[key] = (best, 64, best_sq)
        elif best <= alpha0:
            TABLE[key] = (-64, best, best_sq)
        else:
            TABLE[key] = (best, best, best_sq)
    return best


def _aspirated(p: int, o: int, guess: int, budget: Budget) -> int:
    """Exact margin of (p, o) for its mover, searched first in a narrow window around ``guess``."""
    low, high = max(-64, guess - 4), min(64, guess + 4)
    value = solve(p, o, low, high, budget)
    if value <= low:
        return solve(p, o, -64, value + 1, budget)
    if value >= high:
        return solve(p, o, value - 1, 64, budget)
    return value


def solve_root(p: int, o: int, order: list[int], budget: Budget, guess: int = 0) -> tuple[int, int, bool]:
    """(best square, its exact margin, complete) for the side owning ``p``, trying ``order`` first.

    ``guess`` (an estimate of the margin) narrows the first search. If the budget runs out, the best
    square proven so far is returned with ``complete=False``: the first square's value is exact once
    known, and a later square replaces it only when proven better.
    """
    best_sq, best = order[0], -65
    try:
        for i, sq in enumerate(order):
            bit = 1 << sq
            f = flips(sq, p, o)
            child_p, child_o = o ^ f, p | f | bit
            if i == 0:
                best = -_aspirated(child_p, child_o, -guess, budget)
                continue
            value = -solve(child_p, child_o, -best - 1, -best, budget)
            if value > best:
                # Proven better: it is the move even if its exact value is not known yet.
                best_sq, best = sq, value
                best = -solve(child_p, child_o, -64, -value + 1, budget)
    except OutOfBudget:
        return best_sq, best, False
    return best_sq, best, True
