"""Challenges: a seat kept for a named player, who accepts (takes it) or declines (frees it).

A challenge comes from a waiting match ("keep a seat for bob"), from a player's profile (a new match
with a seat kept for them) or from a rematch offer. Like ``services``, every write here locks the
match, runs in one transaction and announces after commit.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import realtime, registry, services
from games.models import Challenge, Match, Notice, Seat
from games.services import MatchError


def challenge_to_match(*, match_id: int, user: Any, username: str) -> Challenge:
    """Keep an open seat of a waiting match for ``username`` and tell them."""
    with transaction.atomic():
        # Lock the row so two challenges (or a join) cannot both take the last open seat.
        match = services._locked(match_id)
        seats = services._seats(match)
        if not any(s.user_id == user.pk for s in seats):
            raise MatchError(_("You do not have a seat in this match."), "forbidden")
        if match.status != Match.Status.WAITING:
            raise MatchError(_("This match is no longer open to join."), "not_live")
        target = _player(username, user)
        if any(target.pk in (s.user_id, s.reserved_for_id) for s in seats):
            raise MatchError(_("%(name)s already has a seat in this match.") % {"name": target.username}, "invalid")
        seat = next((s for s in seats if s.is_open and s.reserved_for_id is None), None)
        if seat is None:
            raise MatchError(_("There is no open seat left to offer."), "full")
        seat.reserved_for = target
        seat.save(update_fields=["reserved_for"])
        challenge = _record(match, seat, by=user, rematch=False)
        services._bump(match)
        match.save(update_fields=["version", "turn_version", "updated_at"])
        services._announce_on_commit(match, seats=seats)
    return challenge


def challenge_player(*, user: Any, username: str, game: str, pace_seconds: int | None = None) -> Match:
    """A new private match of ``game`` with a seat kept for ``username``; computer players fill the rest."""
    try:
        spec = registry.get(game)
    except LookupError:
        raise MatchError(_("There is no such game."), "invalid") from None
    _player(username, user)  # refuse before anything is created
    players = spec.min_players
    with transaction.atomic():
        match = services.create_match(
            user=user,
            game=game,
            players=players,
            bot_seats=range(2, players),
            is_public=False,
            pace_seconds=pace_seconds,
        )
        challenge_to_match(match_id=match.pk, user=user, username=username)
    match.refresh_from_db()
    return match


def accept(*, match_id: int, user: Any) -> Match:
    """Take the seat kept for ``user``: the match starts once every seat is filled."""
    with transaction.atomic():
        seats = list(Seat.objects.filter(match_id=match_id))
        if not any(s.reserved_for_id == user.pk and s.user_id is None for s in seats):
            raise MatchError(_("There is no challenge for you in this match."), "invalid")
        return services.join_match(match_id=match_id, user=user)


def decline(*, match_id: int, user: Any) -> Match:
    """Turn down a challenge: the seat opens for anyone the players invite, and the challenger is told."""
    with transaction.atomic():
        match = services._locked(match_id)
        seats = services._seats(match)
        seat = next((s for s in seats if s.reserved_for_id == user.pk and s.user_id is None), None)
        if seat is None:
            raise MatchError(_("There is no challenge for you in this match."), "invalid")
        if match.status != Match.Status.WAITING:
            raise MatchError(_("This match is no longer open to join."), "not_live")
        seat.reserved_for = None
        seat.save(update_fields=["reserved_for"])
        now = timezone.now()
        answered = list(Challenge.objects.filter(match=match, challenged=user, status=Challenge.Status.PENDING))
        Challenge.objects.filter(pk__in=[c.pk for c in answered]).update(
            status=Challenge.Status.DECLINED, answered_at=now
        )
        Notice.objects.bulk_create(
            [Notice(user_id=c.challenger_id, match=match, kind=Notice.Kind.DECLINED, created_at=now) for c in answered]
        )
        services._bump(match)
        match.save(update_fields=["version", "turn_version", "updated_at"])
        services._announce_on_commit(match, seats=seats)
        transaction.on_commit(partial(realtime.announce_user, user.pk))
        if match.rematch_of_id is not None:
            _announce_original(match.rematch_of_id)
    return match


def mark_accepted(match: Match, user: Any) -> None:
    """Called by ``services.join_match`` in its transaction: a kept seat was taken."""
    Challenge.objects.filter(match=match, challenged=user, status=Challenge.Status.PENDING).update(
        status=Challenge.Status.ACCEPTED, answered_at=timezone.now()
    )
    if match.rematch_of_id is not None:
        _announce_original(match.rematch_of_id)


def record_rematch_offers(rematch: Match, seats: list[Seat], *, by: Any) -> None:
    """Called by ``services.offer_rematch`` in its transaction: each kept seat is a challenge."""
    for seat in seats:
        if seat.reserved_for_id is not None:
            _record(rematch, seat, by=by, rematch=True)


def pending_for(user: Any) -> list[Challenge]:
    """The challenges waiting on ``user``'s answer, oldest first (their inbox)."""
    return list(
        Challenge.objects.filter(
            challenged=user, status=Challenge.Status.PENDING, match__status=Match.Status.WAITING
        ).select_related("match", "challenger")
    )


def pending_count(user: Any) -> int:
    return Challenge.objects.filter(
        challenged=user, status=Challenge.Status.PENDING, match__status=Match.Status.WAITING
    ).count()


def shown_on(match: Match | None, user: Any) -> list[dict[str, Any]]:
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


def _player(username: str, challenger: Any) -> Any:
    username = (username or "").strip()
    if not username:
        raise MatchError(_("Write the username of the player to challenge."), "invalid")
    target = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if target is None:
        raise MatchError(_("There is no player called %(name)s.") % {"name": username}, "invalid")
    if target.pk == challenger.pk:
        raise MatchError(_("You cannot challenge yourself."), "invalid")
    return target


def _record(match: Match, seat: Seat, *, by: Any, rematch: bool) -> Challenge:
    challenge = Challenge.objects.create(
        match=match, seat=seat.number, challenger=by, challenged_id=seat.reserved_for_id, is_rematch=rematch
    )
    Notice.objects.create(
        user_id=seat.reserved_for_id, match=match, kind=Notice.Kind.CHALLENGE, created_at=timezone.now()
    )
    transaction.on_commit(partial(realtime.announce_user, seat.reserved_for_id))
    return challenge


def _announce_original(match_id: int) -> None:
    """The finished match a rematch came from shows the offer's progress (and takes its players along)."""
    original = Match.objects.filter(pk=match_id).first()
    if original is None:
        return
    services._bump(original)
    Match.objects.filter(pk=original.pk).update(version=original.version, turn_version=original.turn_version)
    services._announce_on_commit(original, seats=services._seats(original))
