"""The hard Reversi level's compiled core (numba): bitboards, evaluation, midgame search, exact solver.

Pure Python reaches about 75-80 k nodes per CPU-second; the same algorithms compiled to machine code
with numba run 50-100 times faster, and in Reversi depth is strength. Everything here works on
``np.uint64`` bitboards (bit ``i`` = square ``8 * row + column``, a1 = 0, as in ``bitboard.py``);
``bitboard.py`` stays the reference the rules engine and the other levels use, and the tests check
that the two agree.

Work is counted: ``ctr[0]`` counts nodes, ``ctr[1]`` is the limit, ``ctr[2]`` becomes 1 when the
limit is reached, and every search then unwinds at once (its values are discarded). Every
``CLOCK_EVERY`` nodes the search also reads the wall clock the caller set in ``WATCH`` (its decision's
deadline) and unwinds the same way once that has passed, so a busy host, where the nodes come
slower, does not stretch a move past its budget. With no deadline set, the node count alone decides.

Numba pitfall: an ``int64`` mixed with a ``uint64`` becomes a float, so every bitboard constant and
shift amount below is an ``np.uint64``.

Nothing is cached on disk: numba 0.68's on-disk cache (``cache=True``) segfaults when it loads these
recursive functions back (reproduced here: a null function pointer on the second run), so every
process compiles once, about 13 s of CPU: the bot worker starts that as it starts (``bot.warm_up``),
and a hard move that comes sooner waits for it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from llvmlite import ir
from numba import njit, objmode, types
from numba.extending import intrinsic

from games.reversi import endgame

U0 = np.uint64(0)
U1 = np.uint64(1)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
INNER = np.uint64(0x7E7E7E7E7E7E7E7E)
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)
CORNERS = np.uint64(0x8100000000000081)
X_SQUARES = np.uint64((1 << 9) | (1 << 14) | (1 << 49) | (1 << 54))
A_FILE = np.uint64(0x0101010101010101)
GATHER = np.uint64(0x0102040810204080)
S1, S7, S8, S9 = np.uint64(1), np.uint64(7), np.uint64(8), np.uint64(9)
S56 = np.uint64(56)

# Exact scores are margins * SCALE; a heuristic value stays strictly inside (-SCALE, SCALE), so a
# proven one-disc win outweighs any estimate (the convention of bot.py's pure-Python search).
SCALE = 10_000
HEURISTIC_CAP = SCALE - 1
INF = 1_000_000

TT_BITS = 19  # 512 k entries per table, about 44 MB for both tables: kept by the worker process
TT_SIZE = 1 << TT_BITS
TT_SHIFT = np.uint64(64 - TT_BITS)
HASH_P = np.uint64(0x9E3779B97F4A7C15)
HASH_O = np.uint64(0xC2B2AE3D27D4EB4F)

SHALLOW = 6  # at most this many empties: the square-by-square solver without a move generator
ENDGAME_TABLE_FROM = 10  # exact positions with at least this many empties go in the table
# The midgame search hands a node to the exact solver when it could search to the end anyway.
MIDGAME_SOLVE_EMPTIES = 10


@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of set bits of a uint64 (the CPU's popcnt)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_square(typingctx, x):  # type: ignore[no-untyped-def]
    """Index of the lowest set bit of a non-zero uint64."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@njit(inline="always")
def count(x: np.uint64) -> int:
    return np.int64(popcount(x))


@njit(inline="always")
def _fill_up(p: np.uint64, m: np.uint64, s: np.uint64) -> np.uint64:
    t = m & (p << s)
    t |= m & (t << s)
    t |= m & (t << s)
    t |= m & (t << s)
    t |= m & (t << s)
    t |= m & (t << s)
    return t << s


@njit(inline="always")
def _fill_down(p: np.uint64, m: np.uint64, s: np.uint64) -> np.uint64:
    t = m & (p >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    t |= m & (t >> s)
    return t >> s


@njit
def moves(p: np.uint64, o: np.uint64) -> np.uint64:
    """Squares where the owner of ``p`` may play: a run of opponent discs, then an empty square."""
    oh = o & INNER
    r = _fill_up(p, oh, S1) | _fill_down(p, oh, S1)
    r |= _fill_up(p, o, S8) | _fill_down(p, o, S8)
    r |= _fill_up(p, oh, S9) | _fill_down(p, oh, S9)
    r |= _fill_up(p, oh, S7) | _fill_down(p, oh, S7)
    return r & ~(p | o)


@njit(inline="always")
def _ray_up(x: np.uint64, p: np.uint64, m: np.uint64, s: np.uint64) -> np.uint64:
    f = U0
    t = (x << s) & m
    while t:
        f |= t
        t = (t << s) & m
    # The run's discs are opponent discs on inner columns, so the square after it cannot wrap.
    if f and ((f << s) & p):
        return f
    return U0


@njit(inline="always")
def _ray_down(x: np.uint64, p: np.uint64, m: np.uint64, s: np.uint64) -> np.uint64:
    f = U0
    t = (x >> s) & m
    while t:
        f |= t
        t = (t >> s) & m
    if f and ((f >> s) & p):
        return f
    return U0


@njit
def flips(sq: np.uint64, p: np.uint64, o: np.uint64) -> np.uint64:
    """Discs of ``o`` flipped when the owner of ``p`` plays on ``sq``; 0 means the move is illegal."""
    x = U1 << sq
    oh = o & INNER
    f = _ray_up(x, p, oh, S1) | _ray_down(x, p, oh, S1)
    f |= _ray_up(x, p, o, S8) | _ray_down(x, p, o, S8)
    f |= _ray_up(x, p, oh, S9) | _ray_down(x, p, oh, S9)
    f |= _ray_up(x, p, oh, S7) | _ray_down(x, p, oh, S7)
    return f


@njit(inline="always")
def final_margin(p: np.uint64, o: np.uint64) -> int:
    """Margin of a finished game for the owner of ``p``, empties to the winner."""
    diff = count(p) - count(o)
    empties = 64 - count(p | o)
    if diff > 0:
        return diff + empties
    if diff < 0:
        return diff - empties
    return 0


# Nodes between two clock reads: about a millisecond of search on a busy core, and a clock read
# (a call back into Python) costs about as much as one node.
CLOCK_EVERY = 1024
_CLOCK_MASK = CLOCK_EVERY - 1
# (clock, deadline) of the decision being searched, or None: set by the caller (bot.py) around a
# compiled search. Module state: a worker process searches one decision at a time.
WATCH: list[tuple[Callable[[], float], float] | None] = [None]


def past_deadline() -> int:
    """1 once the watched decision's deadline has passed (read from the compiled search)."""
    watch = WATCH[0]
    return int(watch is not None and watch[0]() > watch[1])


@njit
def _late() -> bool:
    with objmode(late="int64"):
        late = past_deadline()
    return late != 0


@njit(inline="always")
def _tick(ctr: np.ndarray) -> bool:
    """Count one node; True when the budget or the time is spent (the search must unwind)."""
    ctr[0] += 1
    if ctr[0] >= ctr[1] or (ctr[0] & _CLOCK_MASK == 0 and _late()):
        ctr[2] = 1
    return ctr[2] != 0


# ---------------------------------------------------------------------------------------------------
# Evaluation: base-3 patterns (Logistello style) with weights fitted to WTHOR games
# (tools/fit_reversi_patterns.py), one table per pattern and game phase.


@njit
def evaluate(p: np.uint64, o: np.uint64, views: np.ndarray, offsets: np.ndarray, weights: np.ndarray) -> int:
    """Heuristic value for the owner of ``p`` in 1/SCALE of a disc... capped inside (-SCALE, SCALE).

    ``views`` (:func:`pattern_views`) gives each placement's pattern, the symmetry that carries the
    pattern's base squares onto it, and its number; ``offsets[phase, number]`` is where its pattern's
    table starts in ``weights`` (int16, 1/32 disc). The estimate is in discs; squashed so a proven
    margin always outweighs it.
    """
    empties = 64 - count(p | o)
    phase = min(empties, 59) // 6
    total = 0
    n_place = views.shape[0]
    shown = -1
    vp = p
    vo = o
    for k in range(n_place):
        kind, view, number = views[k, 0], views[k, 1], views[k, 2]
        if view != shown:  # the placements come grouped by symmetry: each board image made once
            vp, vo, shown = board_view(p, view), board_view(o, view), view
        idx = TERNARY[_compact(vp, kind)] + 2 * TERNARY[_compact(vo, kind)]
        total += weights[offsets[phase, number] + idx]
    total += weights[offsets[phase, n_place]]  # the phase's bias
    # 1/32 disc -> 1/SCALE... kept in 1/32 disc units below SCALE: +-9999 covers +-312 discs.
    return max(-HEURISTIC_CAP, min(HEURISTIC_CAP, total))


@njit(inline="always")
def _flip_rows(x: np.uint64) -> np.uint64:
    """Row r to row 7 - r."""
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | ((x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8))
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16))
    return (x >> np.uint64(32)) | (x << np.uint64(32))


@njit(inline="always")
def _flip_columns(x: np.uint64) -> np.uint64:
    """Column c to column 7 - c."""
    x = ((x >> np.uint64(1)) & np.uint64(0x5555555555555555)) | ((x & np.uint64(0x5555555555555555)) << np.uint64(1))
    x = ((x >> np.uint64(2)) & np.uint64(0x3333333333333333)) | ((x & np.uint64(0x3333333333333333)) << np.uint64(2))
    return ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | ((x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4))


@njit(inline="always")
def _transpose(x: np.uint64) -> np.uint64:
    """Square (row r, column c) to (row c, column r)."""
    t = np.uint64(0x0F0F0F0F00000000) & (x ^ (x << np.uint64(28)))
    x ^= t ^ (t >> np.uint64(28))
    t = np.uint64(0x3333000033330000) & (x ^ (x << np.uint64(14)))
    x ^= t ^ (t >> np.uint64(14))
    t = np.uint64(0x5500550055005500) & (x ^ (x << np.uint64(7)))
    x ^= t ^ (t >> np.uint64(7))
    return x


@njit(inline="always")
def board_view(x: np.uint64, view: int) -> np.uint64:
    """The board seen through symmetry ``view`` of :func:`_square_images`: square s of the result holds
    what square ``_square_images(s)[view]`` of ``x`` holds, so a base pattern read off the result reads
    the placement that symmetry makes of it."""
    if view >= 4:
        x = _transpose(x)
        mirror, flip = view & 1, view & 2
    else:
        mirror, flip = view & 2, view & 1
    if mirror:
        x = _flip_columns(x)
    if flip:
        x = _flip_rows(x)
    return x


DIAGONAL = np.uint64(0x8040201008040201)
COLUMN_SPREAD = np.uint64(0x0101010101010101)


@njit(inline="always")
def _diagonal(x: np.uint64, shift: int) -> np.uint64:
    """The squares 9 * i + shift of ``x`` as bits i: a diagonal's squares lie in distinct columns, so
    one multiplication gathers them in the top row without carries."""
    # The long diagonal moved right by ``shift`` columns, cut at the rows whose squares would wrap.
    mask = (DIAGONAL << np.uint64(shift)) & (~np.uint64(0) >> np.uint64(8 * shift))
    return (((x & mask) * COLUMN_SPREAD) >> np.uint64(56 + shift)) & np.uint64(0xFF)


@njit(inline="always")
def _compact(x: np.uint64, kind: int) -> np.uint64:
    """The base squares of pattern number ``kind`` (order of :data:`BASE_PATTERNS`) as bits 0, 1, ...
    in the order the pattern lists them."""
    if kind == 0:  # edge2x: row 1, then squares 9 and 14
        row = x & np.uint64(0xFF)
        return row | ((x >> np.uint64(1)) & np.uint64(0x100)) | ((x >> np.uint64(5)) & np.uint64(0x200))
    if kind == 1:  # corner3x3
        return (x & np.uint64(7)) | ((x >> np.uint64(5)) & np.uint64(0x38)) | ((x >> np.uint64(10)) & np.uint64(0x1C0))
    if kind == 2:  # corner2x5
        return (x & np.uint64(31)) | ((x >> np.uint64(3)) & np.uint64(0x3E0))
    if kind <= 5:  # rows 2, 3 and 4
        return (x >> np.uint64(8 * (kind - 2))) & np.uint64(0xFF)
    return _diagonal(x, kind - 6)  # diagonals of 8, 7, 6, 5 and 4 squares


# Patterns by their squares near a1 (column + 8 * row); every distinct symmetric image is a placement.
BASE_PATTERNS: dict[str, tuple[int, ...]] = {
    "edge2x": (0, 1, 2, 3, 4, 5, 6, 7, 9, 14),  # row 1 and both X-squares
    "corner3x3": (0, 1, 2, 8, 9, 10, 16, 17, 18),
    "corner2x5": (0, 1, 2, 3, 4, 8, 9, 10, 11, 12),
    "row2": tuple(range(8, 16)),
    "row3": tuple(range(16, 24)),
    "row4": tuple(range(24, 32)),
    "diag8": tuple(9 * i for i in range(8)),
    "diag7": tuple(9 * i + 1 for i in range(7)),
    "diag6": tuple(9 * i + 2 for i in range(6)),
    "diag5": tuple(9 * i + 3 for i in range(5)),
    "diag4": tuple(9 * i + 4 for i in range(4)),
}
N_PHASES = 10  # phase = min(empties, 59) // 6
# A pattern's base-3 digits from its bits: TERNARY[bits] = sum of 3 ** i over the set bits i.
TERNARY = np.array([sum(3**i for i in range(10) if b >> i & 1) for b in range(1 << 10)], dtype=np.int64)


def _square_images(sq: int) -> list[int]:
    """The eight symmetric images of square ``sq`` (identity, mirrors, transpose and their mixes)."""
    c, r = sq % 8, sq // 8
    out = []
    for t in (False, True):
        cc, rr = (r, c) if t else (c, r)
        for h in (False, True):
            for v in (False, True):
                out.append((7 - rr if v else rr) * 8 + (7 - cc if h else cc))
    return out


def placements() -> tuple[list[str], list[list[int]]]:
    """(pattern name of each placement, its squares in cell order): each distinct image once."""
    names: list[str] = []
    cells: list[list[int]] = []
    for name, base in BASE_PATTERNS.items():
        seen: set[frozenset[int]] = set()
        for k in range(8):
            image = [_square_images(s)[k] for s in base]
            if frozenset(image) not in seen:
                seen.add(frozenset(image))
                names.append(name)
                cells.append(image)
    return names, cells


def pattern_views() -> np.ndarray:
    """Per placement (grouped by symmetry, the order :func:`evaluate` reads them in): its pattern's
    number in :data:`BASE_PATTERNS`, the symmetry of :func:`_square_images` that makes it of the
    pattern's base squares, and its number in :func:`placements`."""
    names, cells = placements()
    kinds = list(BASE_PATTERNS)
    rows = []
    for number, (name, squares) in enumerate(zip(names, cells, strict=True)):
        base = BASE_PATTERNS[name]
        view = next(v for v in range(8) if [_square_images(sq)[v] for sq in base] == squares)
        rows.append((view, kinds.index(name), number))
    return np.array([(kind, view, number) for view, kind, number in sorted(rows)], dtype=np.int64)


def pattern_tables() -> tuple[np.ndarray, np.ndarray, int]:
    """(cells array padded with -1, offsets[phase, placement or bias], total number of weights)."""
    names, cells = placements()
    width = max(len(c) for c in cells)
    arr = np.full((len(cells), width), -1, dtype=np.int64)
    for k, c in enumerate(cells):
        arr[k, : len(c)] = c
    start: dict[str, int] = {}
    at = 0
    for name, base in BASE_PATTERNS.items():
        start[name] = at
        at += 3 ** len(base)
    per_phase = at + 1
    offsets = np.zeros((N_PHASES, len(cells) + 1), dtype=np.int64)
    for ph in range(N_PHASES):
        for k, name in enumerate(names):
            offsets[ph, k] = ph * per_phase + start[name]
        offsets[ph, len(cells)] = ph * per_phase + at
    return arr, offsets, per_phase * N_PHASES


# ---------------------------------------------------------------------------------------------------
# Exact endgame solver: margins for the side to move, empties to the winner.

# Parity regions: the four quadrants. In a region with an odd number of empties, playing first
# usually means also playing last there.
QUADRANTS = np.array(
    [sum(1 << sq for sq in range(64) if (sq % 8 >= 4) + 2 * (sq // 8 >= 4) == q) for q in range(4)], dtype=np.uint64
)


# The pure-Python solver's tables (endgame.py), as arrays the compiled code can index.
EDGE_STABLE = np.array(endgame.EDGE_STABLE, dtype=np.uint64)
SCATTER = np.array(endgame.SCATTER, dtype=np.uint64)
B8 = np.uint64(0xFF)


@njit(inline="always")
def _file_byte(b: np.uint64) -> np.uint64:
    return (((b & A_FILE) * GATHER) >> S56) & B8


@njit
def stable_count(p: np.uint64, o: np.uint64) -> int:
    """A lower bound on the discs of ``p`` that can never flip: corner-anchored edge runs, full edges."""
    top = EDGE_STABLE[np.int64(((p & B8) << S8) | (o & B8))]
    bottom = EDGE_STABLE[np.int64(((p >> S56) << S8) | (o >> S56))]
    left = EDGE_STABLE[np.int64((_file_byte(p) << S8) | _file_byte(o))]
    right = EDGE_STABLE[np.int64((_file_byte(p >> S7) << S8) | _file_byte(o >> S7))]
    return count(top | (bottom << S56) | SCATTER[np.int64(left)] | (SCATTER[np.int64(right)] << S7))


@njit
def _last(p: np.uint64, o: np.uint64, sq: np.uint64) -> int:
    """Exact margin with one empty square ``sq``."""
    f = flips(sq, p, o)
    if f:
        return 2 * (count(p) + count(f)) - 62
    f = flips(sq, o, p)
    if f:
        return 62 - 2 * (count(o) + count(f))
    return final_margin(p, o)


@njit
def _shallow(p: np.uint64, o: np.uint64, alpha: int, beta: int, empty: np.uint64, n: int, ctr: np.ndarray) -> int:
    """Exact margin for few empties: each empty square tried in parity order, no move generator."""
    if _tick(ctr):
        return 0
    if n == 1:
        return _last(p, o, lowest_square(empty))
    odd = U0
    for q in range(4):
        if count(empty & QUADRANTS[q]) & 1:
            odd |= QUADRANTS[q]
    best = -65
    for pass_no in range(2):
        todo = empty & odd if pass_no == 0 else empty & ~odd
        while todo:
            sq = lowest_square(todo)
            bit = U1 << sq
            todo ^= bit
            f = flips(sq, p, o)
            if not f:
                continue
            value = -_shallow(o ^ f, p | f | bit, -beta, -alpha, empty ^ bit, n - 1, ctr)
            if ctr[2]:
                return 0
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        return best
    if best == -65:  # no move: a pass, or the end of the game
        if not moves(o, p):
            return final_margin(p, o)
        return -_shallow(o, p, -beta, -alpha, empty, n, ctr)
    return best


@njit
def _tt_index(p: np.uint64, o: np.uint64) -> int:
    return np.int64((p * HASH_P + o * HASH_O) >> TT_SHIFT)


@njit
def solve(p: np.uint64, o: np.uint64, alpha: int, beta: int, ctr: np.ndarray, tk: np.ndarray, tv: np.ndarray) -> int:
    """Exact margin for the owner of ``p`` if it lies in (alpha, beta); else a bound on the same side.

    ``tk``/``tv`` are the exact solver's table (keys; lower, upper, best square), kept between moves:
    proven bounds do not depend on any evaluation.
    """
    empty = ~(p | o)
    n = count(empty)
    if n <= SHALLOW:
        if n == 0:
            return final_margin(p, o)
        return _shallow(p, o, alpha, beta, empty, n, ctr)
    if _tick(ctr):
        return 0
    mv = moves(p, o)
    if not mv:
        if not moves(o, p):
            return final_margin(p, o)
        return -solve(o, p, -beta, -alpha, ctr, tk, tv)

    # Stability cutoff: the opponent's stable discs are lost to us whatever happens.
    if alpha >= 8:
        ceiling = 64 - 2 * stable_count(o, p)
        if ceiling <= alpha:
            return ceiling
        if ceiling < beta:
            beta = ceiling

    hint = -1
    slot = -1
    if n >= ENDGAME_TABLE_FROM:
        slot = _tt_index(p, o)
        if tk[slot, 0] == p and tk[slot, 1] == o:
            lower, upper, hint = tv[slot, 0], tv[slot, 1], tv[slot, 2]
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha = max(alpha, lower)
            beta = min(beta, upper)

    # Fastest first: fewest replies for the opponent (weighted by its corner moves); the table's best.
    sqs = np.empty(32, dtype=np.int64)
    keys = np.empty(32, dtype=np.int64)
    k = 0
    todo = mv
    while todo:
        sq = lowest_square(todo)
        bit = U1 << sq
        todo ^= bit
        f = flips(sq, p, o)
        reply = moves(o ^ f, p | f | bit)
        key = count(reply) * 16 + count(reply & CORNERS) * 8
        if bit & CORNERS:
            key -= 12
        if np.int64(sq) == hint:
            key = -1000
        # Insertion sort: a handful of moves.
        j = k
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            sqs[j] = sqs[j - 1]
            j -= 1
        keys[j] = key
        sqs[j] = np.int64(sq)
        k += 1

    alpha0 = alpha
    best = -65
    best_sq = -1
    for i in range(k):
        sq = np.uint64(sqs[i])
        bit = U1 << sq
        f = flips(sq, p, o)
        np_, no = o ^ f, p | f | bit
        if i == 0:
            value = -solve(np_, no, -beta, -alpha, ctr, tk, tv)
        else:
            # Principal variation search: prove the move no better with a null window first.
            value = -solve(np_, no, -alpha - 1, -alpha, ctr, tk, tv)
            if alpha < value < beta and not ctr[2]:
                value = -solve(np_, no, -beta, -value, ctr, tk, tv)
        if ctr[2]:
            return 0
        if value > best:
            best = value
            best_sq = sqs[i]
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    if slot >= 0:
        tk[slot, 0] = p
        tk[slot, 1] = o
        if best >= beta:
            tv[slot, 0], tv[slot, 1] = best, 64
        elif best <= alpha0:
            tv[slot, 0], tv[slot, 1] = -64, best
        else:
            tv[slot, 0], tv[slot, 1] = best, best
        tv[slot, 2] = best_sq
    return best


# ---------------------------------------------------------------------------------------------------
# Midgame search: negamax alpha-beta with principal-variation null windows, a transposition table and
# Multi-ProbCut (Buro): a shallow search predicts a deep one, so a node whose shallow value lies far
# outside the window is cut without the deep search.

# ProbCut's table ``cut[phase, depth]``: shallow depth (0: no cut), slope in 1/1024, intercept and the
# margin (confidence times the residual's deviation), both in evaluation units. Fitted by
# tools/fit_reversi_probcut.py; an all-zero table is the plain full-width search.
MPC_PHASES = 6  # phase = min(empties, 59) // 10
MPC_MAX_DEPTH = 16
MPC_SLOPE_ONE = 1024

# What every midgame search call carries: the midgame table (mk keys; mv depth, lower, upper, best
# square), the exact solver's table (ek, ev), the evaluation's cells, offsets and weights, and the
# ProbCut table.
Tables = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@njit
def _exact_scaled(
    p: np.uint64, o: np.uint64, alpha: int, beta: int, ctr: np.ndarray, ek: np.ndarray, ev: np.ndarray
) -> int:
    """The exact solver inside a scaled window: bounds stay bounds, an exact margin stays exact."""
    a = max(-65, min(65, alpha // SCALE))
    b = max(-65, min(65, -((-beta) // SCALE)))
    return solve(p, o, a, b, ctr, ek, ev) * SCALE


@njit(inline="always")
def _tt_store(
    mk: np.ndarray, mv: np.ndarray, slot: int, p: np.uint64, o: np.uint64, depth: int, best: int, alpha0: int,
    beta: int, best_sq: int,
) -> None:  # fmt: skip
    """Record a searched node: its value is a lower bound after a cutoff, an upper one if nothing beat alpha."""
    mk[slot, 0] = p
    mk[slot, 1] = o
    mv[slot, 0] = depth
    if best >= beta:
        mv[slot, 1], mv[slot, 2] = best, INF
    elif best <= alpha0:
        mv[slot, 1], mv[slot, 2] = -INF, best
    else:
        mv[slot, 1], mv[slot, 2] = best, best
    mv[slot, 3] = best_sq


@njit(inline="always")
def _probcut(
    p: np.uint64,
    o: np.uint64,
    depth: int,
    empties: int,
    alpha: int,
    beta: int,
    ctr: np.ndarray,
    tables: Tables,
) -> int:
    """1 if a shallow search predicts the deep one fails high, -1 if low, 0 if it must be searched.

    Only for windows inside the heuristic range: a proven margin is never guessed.
    """
    if depth > MPC_MAX_DEPTH:
        return 0
    row = tables[7][min(empties, 59) // 10, depth]
    shallow = row[0]
    if shallow <= 0 or beta > HEURISTIC_CAP or alpha < -HEURISTIC_CAP:
        return 0
    slope, intercept, margin = row[1], row[2], row[3]
    # deep ~ slope * shallow + intercept; the shallow value that makes beta + margin the prediction.
    high = -((-(beta + margin - intercept) * MPC_SLOPE_ONE) // slope)
    if high < HEURISTIC_CAP:
        v = search(p, o, shallow, high - 1, high, ctr, tables)
        if ctr[2]:
            return 0
        if v >= high:
            return 1
    low = ((alpha - margin - intercept) * MPC_SLOPE_ONE) // slope
    if low > -HEURISTIC_CAP:
        v = search(p, o, shallow, low, low + 1, ctr, tables)
        if ctr[2]:
            return 0
        if v <= low:
            return -1
    return 0


@njit(inline="always")
def _child(
    p: np.uint64,
    o: np.uint64,
    sq: np.uint64,
    depth: int,
    alpha: int,
    beta: int,
    first: bool,
    ctr: np.ndarray,
    tables: Tables,
) -> int:
    """Value of the move ``sq`` searched ``depth - 1`` plies below; after the first move, principal
    variation search proves it no better with a null window and re-searches only if it is."""
    bit = U1 << sq
    f = flips(sq, p, o)
    np_, no = o ^ f, p | f | bit
    if first:
        return -search(np_, no, depth - 1, -beta, -alpha, ctr, tables)
    value = -search(np_, no, depth - 1, -alpha - 1, -alpha, ctr, tables)
    if alpha < value < beta and not ctr[2]:
        value = -search(np_, no, depth - 1, -beta, -value, ctr, tables)
    return value


@njit
def search(
    p: np.uint64,
    o: np.uint64,
    depth: int,
    alpha: int,
    beta: int,
    ctr: np.ndarray,
    tables: Tables,
) -> int:
    """Value of the position for the owner of ``p`` searched ``depth`` plies (a pass is free).

    The midgame table's entries depend only on the position, the fixed evaluation and the ProbCut
    table, so it is kept between moves. Where the search could reach the end anyway (few empties),
    the exact solver answers; a search as deep as the empties is never cut by ProbCut, so it stays
    exact.
    """
    mk, mv, ek, ev, views, offsets, weights, _ = tables
    empties = 64 - count(p | o)
    if depth >= empties and empties <= MIDGAME_SOLVE_EMPTIES:
        return _exact_scaled(p, o, alpha, beta, ctr, ek, ev)
    if _tick(ctr):
        return 0
    moves_p = moves(p, o)
    if not moves_p:
        if not moves(o, p):
            return final_margin(p, o) * SCALE
        return -search(o, p, depth, -beta, -alpha, ctr, tables)
    if depth <= 0:
        return evaluate(p, o, views, offsets, weights)

    slot = _tt_index(p, o)
    hint = -1
    if mk[slot, 0] == p and mk[slot, 1] == o:
        hint = mv[slot, 3]
        if mv[slot, 0] >= depth:
            lower, upper = mv[slot, 1], mv[slot, 2]
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha = max(alpha, lower)
            beta = min(beta, upper)

    if depth < empties:
        verdict = _probcut(p, o, depth, empties, alpha, beta, ctr, tables)
        if ctr[2]:
            return 0
        if verdict > 0:
            return beta
        if verdict < 0:
            return alpha

    sqs = np.empty(32, dtype=np.int64)
    keys = np.empty(32, dtype=np.int64)
    k = 0
    todo = moves_p
    while todo:
        sq = lowest_square(todo)
        bit = U1 << sq
        todo ^= bit
        if np.int64(sq) == hint:
            key = -(1 << 40)
        elif depth >= 3:
            # Fastest first, refined by the evaluation: replies that leave the opponent few moves
            # and a poor position prune the most.
            f = flips(sq, p, o)
            np_, no = o ^ f, p | f | bit
            key = count(moves(np_, no)) * 64 + evaluate(np_, no, views, offsets, weights)
        else:
            f = flips(sq, p, o)
            key = count(moves(o ^ f, p | f | bit)) * 16
            if bit & CORNERS:
                key -= 32
            elif bit & X_SQUARES:
                key += 24
        j = k
        while j > 0 and keys[j - 1] > key:
            keys[j] = keys[j - 1]
            sqs[j] = sqs[j - 1]
            j -= 1
        keys[j] = key
        sqs[j] = np.int64(sq)
        k += 1

    alpha0 = alpha
    best = -INF
    best_sq = -1
    for i in range(k):
        value = _child(p, o, np.uint64(sqs[i]), depth, alpha, beta, i == 0, ctr, tables)
        if ctr[2]:
            return 0
        if value > best:
            best = value
            best_sq = sqs[i]
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    _tt_store(mk, mv, slot, p, o, min(depth, empties), best, alpha0, beta, best_sq)
    return best


@njit
def search_root(
    p: np.uint64,
    o: np.uint64,
    order: np.ndarray,
    depth: int,
    values: np.ndarray,
    ctr: np.ndarray,
    tables: Tables,
) -> int:
    """Values of the root moves ``order`` at ``depth`` into ``values``; returns how many were finished.

    After the first move a null window only asks whether a move beats the best so far, so ``values``
    holds exact values for improvements and upper bounds for the rest.
    """
    alpha = -INF
    for i in range(order.shape[0]):
        value = _child(p, o, np.uint64(order[i]), depth, alpha, INF, i == 0, ctr, tables)
        if ctr[2]:
            return i
        values[i] = value
        alpha = max(alpha, value)
    return order.shape[0]
