"""How to play: one rules page per game, with worked examples the game's declaration draws."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import registry


@require_GET
def rules(request: HttpRequest, game: str) -> HttpResponse:
    try:
        spec = registry.get(game)
    except LookupError:
        raise Http404 from None
    examples = spec.rules_examples() if spec.rules_examples else {}
    return render(request, spec.rules_template, {"game": spec, "ex": examples})
