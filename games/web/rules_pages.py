"""How to play: one rules page per game, with worked examples the game's definition draws."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from games import registry


@require_GET
def rules(request: HttpRequest, game: str) -> HttpResponse:
    try:
        spec = registry.get(game)
    except LookupError:
        raise Http404 from None
    examples = spec.rules_examples() if spec.rules_examples else {}
    # The rules written in the reader's language when there is such a page, else the English one.
    english = spec.rules_template
    names = [english.removesuffix(".html") + f".{get_language()}.html", english]
    return render(request, names, {"game": spec, "ex": examples})
