from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.read.pages import your_turn_count


def turns(request: HttpRequest) -> dict[str, Any]:
    """The "your turn" count for the navigation badge and the tab title, on every page."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    from games.read.queries import pending_count

    return {"turn_count": your_turn_count(user), "challenge_count": pending_count(user)}
