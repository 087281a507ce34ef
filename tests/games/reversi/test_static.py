"""Reversi's board style lives in its app; the core's static files name no game (the arrow keys over a board of
squares are the core's, for any board marked data-grid, by its data-row/data-col cells; the confirm-moves
script finds the move buttons by their data-move marker)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders

from games import registry
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
    files."""
    offenders = {
        path.relative_to(ROOT).as_posix(): found
        for path in sorted([*(ROOT / "static" / "css").glob("*.css"), ROOT / "static" / "js" / "match-page.js"])
        if (found := sorted(set(re.findall(r"\.(?:sq|disc|hint|scoreline)\b", path.read_text()))))
    }
    assert offenders == {}


def _classes_styled_by(css: str) -> set[str]:
    """The class names in a stylesheet's selectors (not in its values: ``0.5rem`` is no class)."""
    selectors = re.sub(r"\{[^{}]*\}", "{}", re.sub(r"/\*.*?\*/", "", css, flags=re.S))
    return set(re.findall(r"\.(-?[A-Za-z_][\w-]*)", selectors))


def _games_own_classes() -> dict[str, set[str]]:
    """Each registered game's classes: those its own stylesheet styles, less any the core's templates write
    too (``board-area`` is the match page's)."""
    core = {
        name
        for page in (ROOT / "templates").rglob("*.html")
        for attr in re.findall(r'class="([^"]*)"', page.read_text())
        for name in attr.split()
    }
    found: dict[str, set[str]] = {}
    for game in registry.all_games():
        path = finders.find(game.stylesheet) if game.stylesheet else None
        if path:
            found[game.slug] = _classes_styled_by(Path(path).read_text()) - core
    return found


def _games_prefixes(own: dict[str, set[str]]) -> dict[str, set[str]]:
    """Each game's class prefixes: ``ba-`` where its stylesheet styles both ``ba`` (its partial's root) and
    ``ba-`` classes, so a class it writes but does not style (as ``ba-trump`` was) still counts as its own."""
    return {
        slug: {f"{c}-" for c in classes if any(o.startswith(f"{c}-") for o in classes)} for slug, classes in own.items()
    }


def test_the_core_s_stylesheets_name_no_game_s_class() -> None:
    """static/css/ is every page's: a game's look, its dark theme too, lives in its own stylesheet, which the
    pages that show the game load (after site.css, before table.css). So no class of a registered game's
    stylesheet (read, not listed), and no class with one of its prefixes, appears in a core selector."""
    own = _games_own_classes()
    prefixes = _games_prefixes(own)
    assert {"reversi", "dos", "tacocat", "backalley"} <= set(own)
    assert {"ba-", "taco-", "dos-"} <= set().union(*prefixes.values())
    offenders = {
        f"{path.name} names {slug}'s": found
        for path in sorted((ROOT / "static" / "css").glob("*.css"))
        for named in [_classes_styled_by(path.read_text())]
        for slug, classes in own.items()
        if (found := sorted(c for c in named if c in classes or c.startswith(tuple(prefixes[slug]))))
    }
    assert offenders == {}


def test_the_confirm_moves_script_names_no_game_s_class() -> None:
    """js/confirm-move.js finds a move by its data-move marker, so a new game needs no line in it: no class of
    any registered game's stylesheet (read, not listed) appears in it."""
    own = _games_own_classes()
    assert {"reversi", "backalley"} <= set(own) and {"sq", "legal", "ba-card-button", "ba-playable"} <= set().union(
        *own.values()
    )
    script = (ROOT / "static" / "js" / "confirm-move.js").read_text()
    named = set(re.findall(r"\.(-?[A-Za-z_][\w-]*)", script))
    assert {slug: sorted(named & classes) for slug, classes in own.items() if named & classes} == {}
    assert '"#match-body button[data-move]"' in script


@pytest.mark.django_db
def test_only_the_squares_the_player_may_take_now_are_marked_as_moves(reversi_match: Match, alice: Any) -> None:
    body = client_for(alice).get(reversi_match.get_absolute_url()).content.decode()
    marked = re.findall(r"<button [^>]*\bdata-move\b[^>]*>", body)
    assert sorted(re.search(r'value="(\w+)"', b).group(1) for b in marked) == ["c4", "d3", "e6", "f5"]
    assert all(" disabled" not in b for b in marked)
