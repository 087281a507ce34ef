"""Shared setup for the Tacocat engine tests.

The rules file forbids conformance tests that depend on the placeholder deck or board (decision
register #1, #2), so the tests play on a board and deck of their own. Only the centre (7 cards, both
arrows) is a known fact and is the same everywhere.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from games.tacocat.positions import position
from games.tacocat.rules import engine
from games.tacocat.state import State

# Deliberately unlike the placeholder: extra 1s and 12s, irregular hand sizes, mixed arrows.
TEST_DISTRIBUTION = {str(v): 3 for v in range(1, 13)} | {"1": 4, "12": 4}
TEST_BOARD = [
    {"hand_size": 5, "arrow": "A"},  # -3
    {"hand_size": 4, "arrow": "B"},  # -2
    {"hand_size": 6, "arrow": "A"},  # -1
    {"hand_size": 7, "arrow": "both"},  # 0 (known)
    {"hand_size": 4, "arrow": "A"},  # +1
    {"hand_size": 9, "arrow": "B"},  # +2
    {"hand_size": 3, "arrow": "both"},  # +3
]
TEST_OPTIONS: dict[str, Any] = {"distribution": TEST_DISTRIBUTION, "board": TEST_BOARD}


@pytest.fixture(scope="session")
def options() -> Callable[..., dict[str, Any]]:
    """The test options, plus any extra ones (e.g. deck, tie_rule); a fresh copy each call."""

    def make(**extra: Any) -> dict[str, Any]:
        return copy.deepcopy(TEST_OPTIONS) | extra

    return make


@pytest.fixture(scope="session")
def pos() -> Callable[..., State]:
    """:func:`games.tacocat.positions.position` on the test board and deck."""

    def make(hands: tuple[Any, Any], *, tie_rule: str = "stay", **kwargs: Any) -> State:
        return position(hands, options=TEST_OPTIONS | {"tie_rule": tie_rule}, **kwargs)

    return make


@pytest.fixture(scope="session")
def start() -> Callable[..., State]:
    """A new game on the test board and deck; keyword arguments are extra options."""

    def make(seed: int = 0, **extra: Any) -> State:
        return engine.new_game(2, seed, copy.deepcopy(TEST_OPTIONS) | extra)

    return make
