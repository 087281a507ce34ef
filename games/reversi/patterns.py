"""Board patterns for the learned Reversi evaluation (Logistello/Edax style), pure Python.

A pattern is a fixed list of squares; its state (empty / side to move / opponent on each square) is a
base-3 number that indexes a table of weights, one table per pattern and game phase. Every pattern is
used in all its distinct symmetric placements (the four edges, the four corners, ...), sharing one
table, so the eight symmetries of the board need no extra data.

Each pattern is written once for its base placement (near a1) as a "gather": a few shifts and masks
that pack its squares into the low bits of an int, cell ``k`` into bit ``k``. The other placements
apply the same gather to a mirrored or transposed board. ``tools/fit_reversi_patterns.py`` (fitting)
and ``games/reversi/eval.py`` (playing) both index through this module, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable

FULL = (1 << 64) - 1
_REV8 = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))
_DIAG_GATHER = 0x0101010101010101


def mirror_h(b: int) -> int:
    """Swap columns a<->h, b<->g, ... (each row's byte bit-reversed)."""
    return int.from_bytes(b.to_bytes(8, "little").translate(_REV8), "little")


def flip_v(b: int) -> int:
    """Swap rows 1<->8, 2<->7, ... (byte order reversed)."""
    return int.from_bytes(b.to_bytes(8, "little"), "big")


def transpose(b: int) -> int:
    """Mirror in the a1-h8 diagonal: square (column c, row r) goes to (r, c). Three delta swaps."""
    t = 0x0F0F0F0F00000000 & (b ^ (b << 28))
    b ^= t ^ (t >> 28)
    t = 0x3333000033330000 & (b ^ (b << 14))
    b ^= t ^ (t >> 14)
    t = 0x5500550055005500 & (b ^ (b << 7))
    b ^= t ^ (t >> 7)
    return b & FULL


def images(b: int) -> tuple[int, int, int, int, int, int, int, int]:
    """The eight symmetric images of ``b``: identity, H, V, HV, then the same of its transpose."""
    h = mirror_h(b)
    t = transpose(b)
    th = mirror_h(t)
    return b, h, flip_v(b), flip_v(h), t, th, flip_v(t), flip_v(th)


def _diag_mask(first_col: int) -> int:
    """Squares (c, c - first_col) for c = first_col..7: the diagonal starting on row 1 at ``first_col``."""
    return sum(1 << ((c - first_col) * 8 + c) for c in range(first_col, 8))


_D8, _D7, _D6, _D5, _D4 = (_diag_mask(c) for c in range(5))

# name -> (number of cells, gather of the base placement). Base placements sit at a1 / row 1.
GATHERS: dict[str, tuple[int, Callable[[int], int]]] = {
    "edge2x": (10, lambda b: (b & 0xFF) | (b >> 1 & 0x100) | (b >> 5 & 0x200)),  # a1-h1 + b2 + g2
    "corner3x3": (9, lambda b: (b & 7) | (b >> 5 & 0x38) | (b >> 10 & 0x1C0)),  # a1-c3
    "corner2x5": (10, lambda b: (b & 0x1F) | (b >> 3 & 0x3E0)),  # a1-e1 + a2-e2
    "row2": (8, lambda b: b >> 8 & 0xFF),
    "row3": (8, lambda b: b >> 16 & 0xFF),
    "row4": (8, lambda b: b >> 24 & 0xFF),
    # A diagonal has one square per column, so multiplying by 0x0101... stacks them into the top byte.
    "diag8": (8, lambda b: ((b & _D8) * _DIAG_GATHER) >> 56 & 0xFF),
    "diag7": (7, lambda b: ((b & _D7) * _DIAG_GATHER) >> 57 & 0x7F),
    "diag6": (6, lambda b: ((b & _D6) * _DIAG_GATHER) >> 58 & 0x3F),
    "diag5": (5, lambda b: ((b & _D5) * _DIAG_GATHER) >> 59 & 0x1F),
    "diag4": (4, lambda b: ((b & _D4) * _DIAG_GATHER) >> 60 & 0xF),
}
NAMES = tuple(GATHERS)
SIZES = tuple(3 ** GATHERS[name][0] for name in NAMES)


def _placements() -> dict[str, tuple[int, ...]]:
    """Per pattern, the image indices that give distinct square sets (a placement counted once)."""
    out: dict[str, tuple[int, ...]] = {}
    for name, (_, gather) in GATHERS.items():
        seen: set[frozenset[int]] = set()
        keep: list[int] = []
        for k in range(8):
            cells = frozenset(sq for sq in range(64) if gather(images(1 << sq)[k]))
            if cells not in seen:
                seen.add(cells)
                keep.append(k)
        out[name] = tuple(keep)
    return out


PLACEMENTS = _placements()
TERNARY = [sum(3**i for i in range(10) if x >> i & 1) for x in range(1 << 10)]

# Game phases by empty squares: the weights of a pattern differ between the opening and the endgame.
PHASE_WIDTH = 6
N_PHASES = 10


def phase(empties: int) -> int:
    return min(empties, 59) // PHASE_WIDTH


def features(p: int, o: int) -> list[tuple[int, int]]:
    """(pattern number, base-3 index) of every placement, for the side owning ``p``: 1 = own, 2 = opponent."""
    ip, io = images(p), images(o)
    out: list[tuple[int, int]] = []
    for n, name in enumerate(NAMES):
        gather = GATHERS[name][1]
        for k in PLACEMENTS[name]:
            out.append((n, TERNARY[gather(ip[k])] + 2 * TERNARY[gather(io[k])]))
    return out
