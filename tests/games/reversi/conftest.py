"""Shared helpers for the Reversi engine tests (no Django needed: run with ``-p no:django``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from games.reversi.board import SQUARE_INDEX

DATA = Path(__file__).resolve().parents[2] / "data" / "reversi"


def make_board(black: str = "", white: str = "") -> str:
    """A 64-character board string from space-separated square lists, e.g. ``black="a1 d5"``."""
    cells = ["."] * 64
    for name in black.split():
        cells[SQUARE_INDEX[name]] = "B"
    for name in white.split():
        assert cells[SQUARE_INDEX[name]] == ".", f"{name} given twice"
        cells[SQUARE_INDEX[name]] = "W"
    return "".join(cells)


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def board() -> Callable[..., str]:
    return make_board
