"""The hard Reversi bot's search: alpha-beta on the learned evaluation, exact near the end.

Values are final-margin estimates for the side to move in 1/``UNIT`` disc (games/reversi/eval.py), so
an exact endgame score (discs * UNIT) and an evaluation compare directly. The table of searched
positions is kept between moves (the worker process serves many matches; the table is bounded and
keyed by the full position, which in Reversi is all the state there is).
"""

from __future__ import annotations

from games.reversi import endgame
from games.reversi.bitboard import CORNERS, FULL, flips, moves
from games.reversi.endgame import Budget, OutOfBudget
from games.reversi.eval import UNIT, evaluate

INF = 1_000_000
EVAL_CAP = 64 * UNIT - 1
# At most this many empties left in the search tree: hand over to the exact solver.
SOLVE_AT = 10
ORDER_BY_EVAL_DEPTH = 3  # remaining depth from which children are ordered by the evaluation
TABLE_LIMIT = 300_000
# Work is counted in exact-solver nodes; an evaluation costs about this many more (measured: one
# evaluation ~3x a solver node in CPU time), so one budget serves both kinds of search.
EVAL_WORK = 3
X_SQUARES = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54)

# (p, o) -> (depth, lower, upper, best square); depth >= empties means exact.
TABLE: dict[tuple[int, int], tuple[int, int, int, int]] = {}


def _eval(p: int, o: int) -> int:
    v = evaluate(p, o)
    return EVAL_CAP if v > EVAL_CAP else -EVAL_CAP if v < -EVAL_CAP else v


class Searcher:
    def __init__(self, budget: Budget) -> None:
        self.budget = budget

    def _ordered(self, p: int, o: int, mv: int, depth: int, hint: int) -> list[tuple[int, int]]:
        """(square, flips) of every move, most promising first."""
        keyed: list[tuple[int, int, int]] = []
        budget = self.budget
        while mv:
            bit = mv & -mv
            mv ^= bit
            sq = bit.bit_length() - 1
            f = flips(sq, p, o)
            if sq == hint:
                key = -INF
            elif depth >= ORDER_BY_EVAL_DEPTH:
                # The child's value is the opponent's: lower is better for us.
                budget.nodes += EVAL_WORK
                key = _eval(o ^ f, p | f | bit)
            else:
                key = moves(o ^ f, p | f | bit).bit_count() * 4 * UNIT
                if bit & CORNERS:
                    key -= 8 * UNIT
                elif bit & X_SQUARES:
                    key += 6 * UNIT
            keyed.append((key, sq, f))
        if budget.nodes >= budget.check_at:
            budget.check()
        keyed.sort()
        return [(sq, f) for _, sq, f in keyed]

    def negamax(self, p: int, o: int, depth: int, alpha: int, beta: int) -> int:
        budget = self.budget
        budget.nodes += 1
        if budget.nodes >= budget.check_at:
            budget.check()
        empties = 64 - (p | o).bit_count()
        if depth >= empties and empties <= SOLVE_AT:
            a = alpha // UNIT
            b = -((-beta) // UNIT)
            return endgame.solve(p, o, max(a, -64), min(b, 64), budget) * UNIT
        mp = moves(p, o)
        if not mp:
            if not moves(o, p):
                return endgame.final_margin(p, o) * UNIT
            return -self.negamax(o, p, depth, -beta, -alpha)
        if depth <= 0:
            budget.nodes += EVAL_WORK
            return _eval(p, o)

        key = (p, o)
        hint = -1
        entry = TABLE.get(key)
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
        first = True
        for sq, f in self._ordered(p, o, mp, depth, hint):
            child_p, child_o = o ^ f, p | f | (1 << sq)
            if first:
                value = -self.negamax(child_p, child_o, depth - 1, -beta, -alpha)
                first = False
            else:
                value = -self.negamax(child_p, child_o, depth - 1, -alpha - 1, -alpha)
                if alpha < value < beta:
                    value = -self.negamax(child_p, child_o, depth - 1, -beta, -value)
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
        if len(TABLE) >= TABLE_LIMIT:
            TABLE.clear()
        TABLE[key] = (min(depth, empties), lower, upper, best_sq)
        return best

    def root(self, p: int, o: int, order: list[int], depth: int) -> tuple[list[tuple[int, int]], bool]:
        """Values of the root moves at ``depth``, best first; ``False`` if the budget cut it short."""
        scored: list[tuple[int, int]] = []
        alpha = -INF
        try:
            for sq in order:
                f = flips(sq, p, o)
                child_p, child_o = o ^ f, p | f | (1 << sq)
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


def search(p: int, o: int, order: list[int], budget: Budget) -> tuple[int, int, int]:
    """(square, value in 1/UNIT disc, depth reached) by iterative deepening until the budget runs out."""
    searcher = Searcher(budget)
    empties = (FULL & ~(p | o)).bit_count()
    best, value, reached = order[0], 0, 0
    for depth in range(1, empties + 1):
        scored, finished = searcher.root(p, o, order, depth)
        if finished:
            best, value, reached = scored[0][1], scored[0][0], depth
            order = [sq for _, sq in scored]
        else:
            # The first root move is the previous best; a move that beat it at this depth is better still.
            if scored and scored[0][1] != order[0]:
                best, value = scored[0][1], scored[0][0]
            break
    return best, value, reached
