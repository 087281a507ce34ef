"""Seeded randomness: every random choice of an engine comes from the match seed and a named purpose.

The parts of a key are joined with ":" into the string that seeds the generator, so
``shuffled(cards, seed, "deal", 3)`` is ``Random(f"{seed}:deal:3").shuffle``: stored matches replay the
same deals, and two purposes never share a stream.
"""

from __future__ import annotations

from collections.abc import Iterable
from random import Random


def rng(*key: object) -> Random:
    """The generator for ``key`` (e.g. the seed and "dealer")."""
    return Random(":".join(str(part) for part in key))


def shuffled[T](items: Iterable[T], *key: object) -> list[T]:
    """``items`` in an order fixed by ``key``."""
    order = list(items)
    rng(*key).shuffle(order)
    return order
