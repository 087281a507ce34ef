"""Reversi's board style lives in its app; the core's static files name no game (the arrow keys over a board of
squares are the core's, for any board marked data-grid, by its data-row/data-col cells)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from games.models import Match
from tests.support import client_for

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.django_db
def test_the_match_page_loads_the_core_script_and_reversi_s_style(reversi_match: Match, alice: Any) -> None:
    body = client_for(alice).get(reversi_match.get_absolute_url()).content.decode()
    assert 'src="/static/js/match-page.js"' in body
    assert 'href="/static/reversi/style.css"' in body
    assert "data-grid" in body and 'data-row="0"' in body


def test_the_core_s_stylesheets_and_match_page_script_name_no_reversi_board() -> None:
    """The board's squares and discs (.sq, .disc, .hint, .scoreline) are styled and driven by Reversi's own
    files. (js/confirm-move.js still names each game's move buttons: a marker of its own is to come.)"""
    offenders = {
        path.relative_to(ROOT).as_posix(): found
        for path in sorted([*(ROOT / "static" / "css").glob("*.css"), ROOT / "static" / "js" / "match-page.js"])
        if (found := sorted(set(re.findall(r"\.(?:sq|disc|hint|scoreline)\b", path.read_text()))))
    }
    assert offenders == {}
