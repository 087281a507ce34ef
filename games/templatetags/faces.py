"""Filters for drawing card faces (docs/design.md, "Faces")."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def face_lines(name: str) -> list[str]:
    """A card's name printed on its face, a word a line after the first: "Big Blooper" -> ["Big", "Blooper"].
    The name is already in the page's language (a joker reads "ঠূলো ব্লুপর", never "BB")."""
    return str(name).split(" ", 1)
