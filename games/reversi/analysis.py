"""Reversi post-game analysis: before each move, the position's value for the mover (final disc margin
with best play), the best move, and what the move played lost.

The values come from the hard level's compiled search and exact solver (``fast.py``), read with tables
of their own, so analysing a match never changes what the computer player has learned:

- **Exact** when the position has at most ``EXACT_EMPTIES`` empty squares and the solver proves it
  within ``SOLVER_NODES`` nodes: the true final margin with perfect play from both sides.
- Otherwise a **fixed-depth** search: iterative deepening up to ``DEPTH`` plies (one fewer where
  that keeps the leaves on an even number of empties, see ``search_depths``) within ``SEARCH_NODES``
  nodes, keeping the deepest depth finished. Without ProbCut (the bot's selective
  pruning, whose results depend on the search window) and with the tables emptied before each
  position, a value is the plain minimax value of the learned evaluation at that depth: the same
  whatever the move order, window or earlier positions, so a test can check it independently.

Both budgets count nodes, never time, so the same match gives the same analysis on any machine.
Only the played move and the best one need exact values: the played move is searched first with a
full window, every other move only asked (null window) whether it is better, and re-searched if so.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from games.engine import Action
from games.engine import gettext_noop as _
from games.kit.analysis import Analyser, Record, Task
from games.record import takeback
from games.reversi import bot
from games.reversi.bitboard import bits, flips, moves
from games.reversi.board import SQUARE_INDEX, SQUARE_NAMES
from games.reversi.state import State

DEPTH = 10  # midgame plies
SEARCH_NODES = 3_000_000  # midgame nodes per position (about 2-3 s of CPU under load)
EXACT_EMPTIES = 20
SOLVER_NODES = 40_000_000  # exact solver nodes per position (about 4 s of CPU)
INF = 1_000_000

# Disc losses from which a move is graded (docs/bots.md, "Analysis"): a loss below the first is fine.
THRESHOLDS = (("blunder", 8.0), ("mistake", 4.0), ("inaccuracy", 2.0))


def grade(loss: float) -> str:
    for name, at_least in THRESHOLDS:
        if loss >= at_least:
            return name
    return ""


@cache
def _tables() -> tuple[np.ndarray, ...]:
    """Search tables of the analysis's own, sharing the bot's evaluation; ProbCut off (all zero)."""
    from games.reversi import fast

    views, offsets, weights = bot.evaluation_tables()
    size = 1 << fast.TT_BITS
    mk, mv = np.zeros((size, 2), dtype=np.uint64), np.zeros((size, 4), dtype=np.int64)
    ek, ev = np.zeros((size, 2), dtype=np.uint64), np.zeros((size, 3), dtype=np.int64)
    cut = np.zeros((fast.MPC_PHASES, fast.MPC_MAX_DEPTH + 1, 4), dtype=np.int64)
    return (mk, mv, ek, ev, views, offsets, weights, cut)


def _empty_tables() -> tuple[np.ndarray, ...]:
    tables = _tables()
    for table in tables[:4]:
        table.fill(0)
    return tables


def to_discs(value: int) -> float:
    """A search value in discs: proven margins are multiples of SCALE, estimates count 1/UNIT disc."""
    if abs(value) >= bot.SCALE:
        return float(value // bot.SCALE)
    return round(value / bot.UNIT, 1)


def _children(p: int, o: int, order: list[int]) -> list[tuple[int, np.uint64, np.uint64]]:
    out = []
    for sq in order:
        f = flips(sq, p, o)
        out.append((sq, np.uint64(o ^ f), np.uint64(p | f | (1 << sq))))
    return out


def _ordered(p: int, o: int, played: int) -> list[int]:
    """The played move first, then the others fewest replies first (the order changes no value)."""
    rest = []
    for sq in bits(moves(p, o)):
        if sq != played:
            f = flips(sq, p, o)
            rest.append((moves(o ^ f, p | f | (1 << sq)).bit_count(), sq))
    return [played] + [sq for _, sq in sorted(rest)]


def search_root(p: int, o: int, played: int, depth: int, ctr: np.ndarray) -> tuple[int, int, int] | None:
    """(best square, its value, the played move's value) at ``depth`` plies, or None if out of nodes.

    Ties go to the played move: a move as good as the best loses nothing.
    """
    from games.reversi import fast

    tables = _tables()
    best_sq, best, played_value = played, -INF, -INF
    for i, (sq, cp, co) in enumerate(_children(p, o, _ordered(p, o, played))):
        if i == 0:
            value = -fast.search(cp, co, depth - 1, -INF, INF, ctr, tables)
            best = played_value = value
        else:
            value = -fast.search(cp, co, depth - 1, -best - 1, -best, ctr, tables)
            if value > best and not ctr[2]:
                value = -fast.search(cp, co, depth - 1, -INF, -best, ctr, tables)
                best_sq, best = sq, value
        if ctr[2]:
            return None
    return best_sq, best, played_value


def solve_root(p: int, o: int, played: int, ctr: np.ndarray) -> tuple[int, int, int] | None:
    """(best square, its exact margin, the played move's exact margin), or None if out of nodes."""
    from games.reversi import fast

    _, _, ek, ev, *_rest = _tables()
    best_sq, best, played_value = played, -65, -65
    for i, (sq, cp, co) in enumerate(_children(p, o, _ordered(p, o, played))):
        if i == 0:
            value = -fast.solve(cp, co, -64, 64, ctr, ek, ev)
            best = played_value = value
        else:
            value = -fast.solve(cp, co, -best - 1, -best, ctr, ek, ev)
            if value > best and not ctr[2]:
                value = -fast.solve(cp, co, -64, -best, ctr, ek, ev)
                best_sq, best = sq, value
        if ctr[2]:
            return None
    return best_sq, best, played_value


def search_depths(empties: int) -> range:
    """The depths searched, deepest last: all ending on an even number of empties.

    The learned evaluation favours the side to move at the leaves by a few discs, so values searched
    one ply deeper or shallower swing back and forth (5-6 discs measured at depths 8-11); searching
    every position of a match to leaves of the same parity keeps consecutive values comparable, so the
    graph follows the game rather than the depth. Near the end the search reaches the last move.
    """
    top = min(DEPTH, empties)
    if (empties - top) % 2 and top < empties:
        top -= 1
    return range(2 - top % 2, top + 1, 2)


def analyse_position(p: int, o: int, played: int) -> dict[str, Any]:
    """The analysis of one decision: the side owning ``p`` (which has a legal move) played ``played``."""
    _empty_tables()
    empties = 64 - (p | o).bit_count()
    nodes = 0
    if empties <= EXACT_EMPTIES:
        ctr = np.array([0, SOLVER_NODES, 0], dtype=np.int64)
        solved = solve_root(p, o, played, ctr)
        nodes += int(ctr[0])
        if solved is not None:
            best_sq, best, played_value = solved
            return _record(best_sq, float(best), float(played_value), exact=True, depth=empties, nodes=nodes)
    ctr = np.array([0, SEARCH_NODES, 0], dtype=np.int64)
    found: tuple[int, int, int] | None = None
    reached = 0
    for depth in search_depths(empties):
        result = search_root(p, o, played, depth, ctr)
        if result is None:
            break
        found, reached = result, depth
    nodes += int(ctr[0])
    if found is None:  # not even depth 1 within the budget: cannot happen with any sane budget
        raise RuntimeError("The analysis budget is too small for a one-ply search.")
    best_sq, best, played_value = found
    exact = reached >= empties
    return _record(best_sq, to_discs(best), to_discs(played_value), exact=exact, depth=reached, nodes=nodes)


def _record(best_sq: int, best: float, played: float, *, exact: bool, depth: int, nodes: int) -> dict[str, Any]:
    loss = round(max(0.0, best - played), 1)
    return {
        "best": SQUARE_NAMES[best_sq],
        "value": best,
        "played_value": played,
        "loss": loss,
        "grade": grade(loss),
        "exact": exact,
        "depth": depth,
        "nodes": nodes,
    }


def tasks(states: list[State], log: list[tuple[int, Action]]) -> list[Task]:
    """One task per move of the log: the position before it (boards from the mover's side). A
    takeback entry (games.record.takeback) is no decision: the moves it took back were, and stay analysed."""
    out = []
    for step, (seat, action) in enumerate(log):
        if takeback.is_takeback(action):
            continue
        p, o = states[step].discs(seat)
        out.append({"step": step, "seat": seat, "p": p, "o": o, "played": action["square"]})
    return out


def evaluate(task: Task) -> Record:
    """A task's record (see ``games.kit.analysis``); runs in the analysis worker process."""
    record = analyse_position(task["p"], task["o"], SQUARE_INDEX[task["played"]])
    return {"step": task["step"], "seat": task["seat"], "played": task["played"], **record}


def mark_best(board: dict[str, Any], record: Record) -> dict[str, Any]:
    """The replay's board with the best move of this step framed (the grid is built once per position)."""
    from games.reversi import present

    return {**board, "grid": present.Grid(board["grid"].position, best=record["best"])}


analyser = Analyser(
    tasks=tasks, evaluate=evaluate, mark_best=mark_best, unit=_("discs"), practice="reversi-practice:practice"
)
