"""Read-side queries of the pages, the live path and the views: what waits for a person (challenges to
answer, seeks open). They change nothing; ``games.services`` alone changes matches, seeks and challenges.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.models import Challenge, Match, Seek
from games.services.pairing import MAX_OPEN_SEEKS, Kind


def pending_for(user: User) -> list[Challenge]:
    """The challenges waiting on ``user``'s answer, oldest first (their inbox)."""
    return list(
        Challenge.objects.filter(
            challenged=user, status=Challenge.Status.PENDING, match__status=Match.Status.WAITING
        ).select_related("match", "challenger")
    )


def pending_count(user: User) -> int:
    return Challenge.objects.filter(
        challenged=user, status=Challenge.Status.PENDING, match__status=Match.Status.WAITING
    ).count()


def shown_on(match: Match | None, user: User | AnonymousUser | None) -> list[dict[str, Any]]:
    """The challenges of a match its page shows to ``user``: their own to answer, or how theirs went."""
    if match is None or user is None or not user.is_authenticated:
        return []
    rows = []
    for challenge in Challenge.objects.filter(match=match).select_related("challenger", "challenged"):
        mine = challenge.challenged_id == user.pk
        if mine and challenge.status != Challenge.Status.PENDING:
            continue
        if not mine and challenge.status == Challenge.Status.ACCEPTED:
            continue
        rows.append({"challenge": challenge, "mine": mine, "open": match.status == Match.Status.WAITING})
    return rows


def seeks_of(user: User, *, now: datetime | None = None) -> list[Seek]:
    """The player's open seeks, and those paired or cancelled in the last day (to show how they went)."""
    now = now or timezone.now()
    recent = Q(status=Seek.Status.OPEN) | Q(closed_at__gte=now - timedelta(days=1))
    return list(Seek.objects.filter(recent, user=user).order_by("-created_at", "-pk")[: MAX_OPEN_SEEKS * 4])


def partner_asks(user: User, mine: list[Seek]) -> list[Seek]:
    """Open seeks naming ``user`` as partner that ``user`` has not answered with a seek naming them back."""
    answered = {(s.partner_id, Kind.of(s)) for s in mine}
    return [
        s
        for s in Seek.objects.filter(partner=user, status=Seek.Status.OPEN).select_related("user").order_by("pk")
        if (s.user_id, Kind.of(s)) not in answered
    ]
