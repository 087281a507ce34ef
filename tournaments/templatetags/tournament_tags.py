"""``{% load tournament_tags %}``: a profile's finished tournaments (``{% finished_tournaments person %}``) and
the history's, with the person's places (``{% history_tournaments person filters %}``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Q

from tournaments import pages
from tournaments.models import Tournament

register = template.Library()

SHOWN = 5


@register.inclusion_tag("tournaments/_profile.html", takes_context=True)
def finished_tournaments(context: dict[str, Any], person: Any) -> dict[str, Any]:
    """The last few finished tournaments ``person`` played in that the viewer may see (one query)."""
    viewer = context.get("user")
    played = Q(entries__user=person) | Q(entries__partner=person)
    visible = Q(is_public=True)
    if viewer is not None and viewer.is_authenticated:
        visible |= Q(entries__user=viewer) | Q(entries__partner=viewer) | Q(organiser=viewer)
    tournaments = (
        Tournament.objects.filter(played, status=Tournament.Status.FINISHED)
        .filter(pk__in=Tournament.objects.filter(visible).values("pk"))
        .distinct()
        .order_by("-finished_at")[:SHOWN]
    )
    return {"tournaments": list(tournaments)}


# The history's section: the finished tournaments, a short list beside the matches, a page at a time.
IN_HISTORY = 10
# A page number past any real history (1,000 tournaments at 10 a page) reads as the first.
MAX_PAGE = 100


@register.inclusion_tag("tournaments/_history.html")
def history_tournaments(person: Any, filters: Any, page: Any = 1) -> dict[str, Any]:
    """The finished tournaments ``person`` played in, each with their final place (three queries), for
    their own history page, ``IN_HISTORY`` at a time: ``page`` is the history's ``tpage`` (anything
    but a whole number from 1 reads as the first). ``filters`` is the history's filter form: its game
    and opponent narrow the list as they narrow the matches; its result and computer-player filters
    are about a match, which no tournament has (no computer enters one), so with either set the
    section is left out."""
    game = opponent = ""
    if filters.is_bound and filters.is_valid():
        data = filters.cleaned_data
        if data.get("result") or data.get("computer"):
            return {"placings": []}
        game, opponent = data.get("game") or "", data.get("opponent") or ""
    number = int(page) if str(page).isascii() and str(page).isdecimal() and 0 < int(page) <= MAX_PAGE else 1
    placings, more = pages.finished_placings(person, game=game, opponent=opponent, shown=IN_HISTORY, page=number)
    # The pager's links keep the filters; a page past the last says so and links the newest.
    newest = f"?{filters.query()}"
    paged = f"{newest}&tpage=" if len(newest) > 1 else "?tpage="
    return {
        "placings": placings,
        "more": more,
        "page": number,
        "newer": f"{paged}{number - 1}",
        "older": f"{paged}{number + 1}",
        "newest": newest,
    }
