"""How to play: one rules page per game, with worked examples drawn by the game's own presenters."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from games import registry
from games.backalley import present as backalley_present
from games.dos import present as dos_present
from games.reversi import present as reversi_present
from games.reversi.rules import engine as reversi_engine


def _reversi_examples() -> dict[str, Any]:
    """The opening and Black's f5, from the engine itself: what the board shows before and after."""
    start = reversi_engine.new_game(2, 0, {})
    after = reversi_engine.apply(start, 0, {"type": "place", "square": "f5"})
    return {
        "start": reversi_present.present(reversi_engine.view(start, None), None),
        "after": reversi_present.present(reversi_engine.view(after, None), None),
        "after_view": reversi_engine.view(after, None),
    }


def _dos_examples() -> dict[str, Any]:
    card = dos_present.card
    return {
        "single": {"target": card("R7"), "cards": [card("B7")]},
        "colour": {"target": card("G5"), "cards": [card("G5")]},
        "double": {"target": card("B9"), "cards": [card("B4"), card("B5")]},
        "wild": {"target": card("Y6"), "cards": [card("W2"), card("R4")]},
    }


def _backalley_examples() -> dict[str, Any]:
    card = backalley_present.card
    return {
        "trump_order": [card(c) for c in ("BB", "LB", "AS", "KS", "2S")],
        "trick": [card(c) for c in ("QH", "KH", "3S", "AH")],
    }


EXAMPLES = {"reversi": _reversi_examples, "dos": _dos_examples, "backalley": _backalley_examples}


@require_GET
def rules(request: HttpRequest, game: str) -> HttpResponse:
    try:
        spec = registry.get(game)
    except LookupError:
        raise Http404 from None
    examples = EXAMPLES[game]() if game in EXAMPLES else {}
    # The rules written in the reader's language when there is such a page, else the English one.
    names = [f"games/rules/{game}.{get_language()}.html", f"games/rules/{game}.html"]
    return render(request, names, {"game": spec, "ex": examples})
