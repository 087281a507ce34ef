"""Reversi positions for tests, tutorials and bug reports; and ``scramble`` for the hidden-information tests.

Any position is a new game from a board string: ``engine.new_game(2, seed, {"board": ..., "to_move": "W"})``.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random

from games.reversi.state import State


def scramble(state: State, seat: int | None, rng: Random) -> State:
    """Everything on a Reversi board is public; only the seed is unknown to every seat."""
    return replace(state, seed=rng.randrange(2**31))
