"""The hard Reversi bot's opening book: WTHOR positions seen often, with the best-scoring reply.

``data/book.json`` is written by ``tools/build_reversi_book.py``. Positions are stored in a canonical
orientation (the smallest of the eight symmetric images), so one entry serves all eight.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from games.reversi.board import SQUARE_INDEX, SQUARE_NAMES
from games.reversi.symmetry import images

DATA = Path(__file__).resolve().parent / "data" / "book.json"

# SQUARE_IMAGE[k][s]: where square s lands in symmetric image k (symmetry.images order).
SQUARE_IMAGE = [[images(1 << s)[k].bit_length() - 1 for s in range(64)] for k in range(8)]


def canonical(p: int, o: int) -> tuple[str, int]:
    """(key, k): the key of the position's canonical image and which image ``k`` it is."""
    best = min(zip(images(p), images(o), range(8), strict=True))
    return f"{best[0]:016x}{best[1]:016x}", best[2]


@cache
def entries() -> dict[str, str]:
    """Canonical key -> reply square (in the canonical orientation), read on first use."""
    return json.loads(DATA.read_text())["moves"]


def lookup(p: int, o: int) -> int | None:
    """The book's reply square for the side owning ``p``, or None if the position is not in the book."""
    key, k = canonical(p, o)
    name = entries().get(key)
    if name is None:
        return None
    return SQUARE_IMAGE[k].index(SQUARE_INDEX[name])


def reply_name(p: int, o: int) -> str | None:
    sq = lookup(p, o)
    return None if sq is None else SQUARE_NAMES[sq]
