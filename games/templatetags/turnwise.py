"""Template helpers the game boards share."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def seat_name(names: list[str], seat: Any) -> str:
    """``{{ names|seat_name:seat }}``: the display name of a seat ("" for no such seat)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return ""


@register.filter
def index(items: list[Any], i: Any) -> Any:
    """``{{ list|index:0 }}``: an item of a list by position ("" when out of range)."""
    try:
        return items[i]
    except (IndexError, TypeError, KeyError):
        return ""
