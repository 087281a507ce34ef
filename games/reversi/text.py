"""Player-facing sentences for the events of a Reversi view (Django side: translated strings)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.support.i18n import LocalNumber


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One sentence for an event of ``view["events"]``; ``names[seat]`` is that seat's display name.

    Seat 0 plays Black and seat 1 White, so the end line can name the winner from the counts alone.
    """
    kind = event.get("type")
    if kind == "place":
        count = LocalNumber(len(event["flipped"]))
        return ngettext(
            "%(name)s played %(square)s and flipped %(count)s disc.",
            "%(name)s played %(square)s and flipped %(count)s discs.",
            count,
        ) % {"name": names[event["seat"]], "square": event["square"], "count": count}
    if kind == "pass":
        return _("%(name)s has no move and passes.") % {"name": names[event["seat"]]}
    if kind == "end":
        black, white = event["counts"]["B"], event["counts"]["W"]
        if black == white:
            return _("Game over: a draw, %(black)s discs each.") % {"black": black}
        winner = 0 if black > white else 1
        return _("Game over: %(name)s wins %(won)s to %(lost)s.") % {
            "name": names[winner],
            "won": max(black, white),
            "lost": min(black, white),
        }
    raise ValueError(f"Unknown Reversi event type {kind!r}.")
