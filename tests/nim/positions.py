"""Nim's positions for tests: the contract test's ``scramble`` hook."""

from __future__ import annotations

from dataclasses import replace
from random import Random

from tests.nim.rules import State


def scramble(state: State, seat: int | None, rng: Random) -> State:
    """Nim hides nothing but its seed (which it never uses): the heap and every take are public."""
    return replace(state, seed=rng.randrange(2**31))
