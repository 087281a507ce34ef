"""The eight symmetries of the Reversi board on bitboards (square ``8 * row + column``, a1 = 0).

The opening book stores each position once, in the orientation with the smallest image, so one entry
serves all eight.
"""

from __future__ import annotations

FULL = (1 << 64) - 1
_REV8 = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


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
