"""The challenge rows that joining and rematching keep: who was offered a seat, and their answer.

Called inside the services' transactions; ``challenges`` holds the actions a player takes.
"""

from __future__ import annotations

from django.utils import timezone

from accounts.models import User
from games.models import Challenge, Match, Notice, Seat
from games.services import announcements
from games.services.base import announce_on_commit, bump, seats_of


def mark_accepted(match: Match, user: User) -> None:
    """Called by ``services.join_match`` in its transaction: a kept seat was taken."""
    Challenge.objects.filter(match=match, challenged=user, status=Challenge.Status.PENDING).update(
        status=Challenge.Status.ACCEPTED, answered_at=timezone.now()
    )
    if match.rematch_of_id is not None:
        announce_original(match.rematch_of_id)


def record_rematch_offers(rematch: Match, seats: list[Seat], *, by: User) -> None:
    """Called by ``services.offer_rematch`` in its transaction: each kept seat is a challenge."""
    for seat in seats:
        if seat.reserved_for_id is not None:
            record(rematch, seat, by=by, rematch=True)


def record(match: Match, seat: Seat, *, by: User, rematch: bool) -> Challenge:
    challenge = Challenge.objects.create(
        match=match, seat=seat.number, challenger=by, challenged_id=seat.reserved_for_id, is_rematch=rematch
    )
    Notice.objects.create(
        user_id=seat.reserved_for_id, match=match, kind=Notice.Kind.CHALLENGE, created_at=timezone.now()
    )
    announcements.on_commit(announcements.user_changed, user_id=seat.reserved_for_id)
    return challenge


def announce_original(match_id: int) -> None:
    """The finished match a rematch came from shows the offer's progress (and takes its players along)."""
    original = Match.objects.filter(pk=match_id).first()
    if original is None:
        return
    bump(original)
    Match.objects.filter(pk=original.pk).update(version=original.version, turn_version=original.turn_version)
    announce_on_commit(original, seats=seats_of(original))
