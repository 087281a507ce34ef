"""``{% load tournament_tags %}{% finished_tournaments person %}``: a profile's finished tournaments."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Q

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
