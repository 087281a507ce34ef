"""The learned evaluation of the hard Reversi bot: fitted pattern weights, read once, no numpy.

``data/patterns.bin`` is written by ``tools/fit_reversi_patterns.py``: a magic line, a JSON header line,
then zlib-compressed little-endian int16 weights, phase by phase, pattern by pattern (in
``patterns.NAMES`` order), each phase ending with a bias. A value is the expected final disc margin for
the side to move in 1/``UNIT`` of a disc, so search results and exact endgame scores (discs * UNIT)
share one scale.
"""

from __future__ import annotations

import json
import sys
import zlib
from array import array
from functools import cache
from pathlib import Path

from games.reversi import patterns
from games.reversi.patterns import PLACEMENTS, TERNARY, images

DATA = Path(__file__).resolve().parent / "data" / "patterns.bin"
MAGIC = b"TWPAT1\n"
UNIT = 32

_D8, _D7, _D6, _D5, _D4 = (patterns._diag_mask(c) for c in range(5))
_G = 0x0101010101010101
_PL = tuple(PLACEMENTS[name] for name in patterns.NAMES)


class Weights:
    """Per phase: one array per pattern, then the bias."""

    def __init__(self, header: dict, tables: list[tuple[list[array], int]]) -> None:
        self.header = header
        self.tables = tables


def load(path: Path = DATA) -> Weights:
    raw = path.read_bytes()
    if not raw.startswith(MAGIC):
        raise ValueError(f"{path} is not a Turnwise pattern-weights file")
    head_end = raw.index(b"\n", len(MAGIC))
    header = json.loads(raw[len(MAGIC) : head_end])
    if header["patterns"] != list(patterns.NAMES) or header["sizes"] != list(patterns.SIZES):
        raise ValueError(f"{path} was fitted for other patterns; rerun tools/fit_reversi_patterns.py")
    if header["phases"] != patterns.N_PHASES or header["unit"] != UNIT:
        raise ValueError(f"{path} has other phases or units; rerun tools/fit_reversi_patterns.py")
    values = array("h")
    values.frombytes(zlib.decompress(raw[head_end + 1 :]))
    if sys.byteorder == "big":
        values.byteswap()
    per_phase = sum(patterns.SIZES) + 1
    if len(values) != per_phase * patterns.N_PHASES:
        raise ValueError(f"{path} holds {len(values)} weights, expected {per_phase * patterns.N_PHASES}")
    tables: list[tuple[list[array], int]] = []
    for ph in range(patterns.N_PHASES):
        at = ph * per_phase
        parts: list[array] = []
        for size in patterns.SIZES:
            parts.append(values[at : at + size])
            at += size
        tables.append((parts, values[at]))
    return Weights(header, tables)


@cache
def weights() -> Weights:
    """The shipped weights, read on first use (the worker process keeps them)."""
    return load()


def evaluate(p: int, o: int) -> int:
    """Expected final margin for the side owning ``p``, in 1/UNIT disc (pattern sum of its phase).

    The gathers are ``patterns.GATHERS`` written out inline: this runs at every leaf of the search.
    """
    parts, score = weights().tables[patterns.phase(64 - (p | o).bit_count())]
    ip, io = images(p), images(o)
    T = TERNARY
    e2x, c33, c25, r2, r3, r4, d8, d7, d6, d5, d4 = parts
    pl_e2x, pl_c33, pl_c25, pl_r2, pl_r3, pl_r4, pl_d8, pl_d7, pl_d6, pl_d5, pl_d4 = _PL
    for k in pl_e2x:
        a, b = ip[k], io[k]
        own = T[(a & 0xFF) | (a >> 1 & 0x100) | (a >> 5 & 0x200)]
        score += e2x[own + 2 * T[(b & 0xFF) | (b >> 1 & 0x100) | (b >> 5 & 0x200)]]
    for k in pl_c33:
        a, b = ip[k], io[k]
        own = T[(a & 7) | (a >> 5 & 0x38) | (a >> 10 & 0x1C0)]
        score += c33[own + 2 * T[(b & 7) | (b >> 5 & 0x38) | (b >> 10 & 0x1C0)]]
    for k in pl_c25:
        a, b = ip[k], io[k]
        score += c25[T[(a & 0x1F) | (a >> 3 & 0x3E0)] + 2 * T[(b & 0x1F) | (b >> 3 & 0x3E0)]]
    for k in pl_r2:
        score += r2[T[ip[k] >> 8 & 0xFF] + 2 * T[io[k] >> 8 & 0xFF]]
    for k in pl_r3:
        score += r3[T[ip[k] >> 16 & 0xFF] + 2 * T[io[k] >> 16 & 0xFF]]
    for k in pl_r4:
        score += r4[T[ip[k] >> 24 & 0xFF] + 2 * T[io[k] >> 24 & 0xFF]]
    for k in pl_d8:
        score += d8[T[((ip[k] & _D8) * _G) >> 56 & 0xFF] + 2 * T[((io[k] & _D8) * _G) >> 56 & 0xFF]]
    for k in pl_d7:
        score += d7[T[((ip[k] & _D7) * _G) >> 57 & 0x7F] + 2 * T[((io[k] & _D7) * _G) >> 57 & 0x7F]]
    for k in pl_d6:
        score += d6[T[((ip[k] & _D6) * _G) >> 58 & 0x3F] + 2 * T[((io[k] & _D6) * _G) >> 58 & 0x3F]]
    for k in pl_d5:
        score += d5[T[((ip[k] & _D5) * _G) >> 59 & 0x1F] + 2 * T[((io[k] & _D5) * _G) >> 59 & 0x1F]]
    for k in pl_d4:
        score += d4[T[((ip[k] & _D4) * _G) >> 60 & 0xF] + 2 * T[((io[k] & _D4) * _G) >> 60 & 0xF]]
    return score
