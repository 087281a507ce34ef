"""Leaving a match and running out of time: resigning, deadlines, claiming a win, taking a seat back."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.models import Match, Notice, Seat
from games.services import predicates
from games.services.base import (
    after_change,
    announce_on_commit,
    bump,
    current_to_act,
    finish,
    forfeit_result,
    humans,
    locked,
    seats_of,
)
from games.services.errors import ErrorCode, MatchError


def resign(*, match_id: int, user: User) -> Match:
    """Resign: in a two-player match the opponent wins; otherwise a computer substitute takes the seat,
    unless no person is left at the table, which ends the match."""
    with transaction.atomic():
        match = locked(match_id)
        seats = seats_of(match)
        seat = next((s for s in seats if s.user_id == user.pk and not s.resigned), None)
        if seat is None:
            raise MatchError(_("You do not have a seat in this match."), ErrorCode.FORBIDDEN)
        if match.status != Match.Status.ACTIVE:
            raise MatchError(_("Only a match in play can be resigned."), ErrorCode.NOT_LIVE)
        seat.left = Seat.Left.RESIGNED
        bump(match)
        others = [s for s in humans(seats) if s.pk != seat.pk]
        # With no other person at the table, computers playing on would only keep the match "in play" on
        # every page that lists it, with no one to read the result: it ends, as a two-player match does.
        if match.player_count == 2 or not others:
            finish(match, forfeit_result(match, loser=seat.number), seats)
        else:
            seat.is_bot = True
            seat.substitute = True
            seat.save(update_fields=["left", "is_bot", "substitute"])
            match.save(update_fields=["version", "turn_version", "updated_at"])
            after_change(match, current_to_act(match), None, seats=seats)
        announce_on_commit(match, seats=seats)
    return match


def warn_deadline(*, seat_id: int, now: datetime) -> bool:
    """Note once that a seat's time is 80% gone. True if this call did it."""
    with transaction.atomic():
        # The conditional update is the claim: with several clock workers only one sees a row change.
        done = Seat.objects.filter(
            pk=seat_id, deadline_warned=False, to_act=True, is_bot=False, warn_at__lte=now
        ).update(deadline_warned=True)
        if done:
            seat = Seat.objects.get(pk=seat_id)
            Notice.objects.create(
                user_id=seat.user_id, match_id=seat.match_id, kind=Notice.Kind.DEADLINE, created_at=now
            )
    return bool(done)


def time_out(*, seat_id: int, now: datetime) -> bool:
    """A seat's deadline passed: substitute it, or let the opponent claim the win. True if handled here."""
    match_id = Seat.objects.filter(pk=seat_id).values_list("match_id", flat=True).first()
    if match_id is None:
        return False
    with transaction.atomic():
        match = locked(match_id)
        seats = seats_of(match)
        seat = next(s for s in seats if s.pk == seat_id)
        due = (
            match.status == Match.Status.ACTIVE
            and seat.to_act
            and not seat.is_bot
            and not seat.timed_out
            and seat.deadline_at is not None
            and seat.deadline_at <= now
            and not (seat.user and seat.user.on_vacation(now))
        )
        if not due:
            return False
        seat.timed_out = True
        bump(match)
        spec = registry.get(match.game)
        if spec.timeout_policy == "substitute":
            seat.is_bot = True
            seat.substitute = True
            seat.save(update_fields=["timed_out", "is_bot", "substitute"])
            match.save(update_fields=["version", "turn_version", "updated_at"])
            after_change(match, current_to_act(match), None, seats=seats)
        else:
            seat.save(update_fields=["timed_out"])
            match.save(update_fields=["version", "turn_version", "updated_at"])
        Notice.objects.bulk_create(
            [Notice(user_id=s.user_id, match=match, kind=Notice.Kind.TIMEOUT, created_at=now) for s in humans(seats)]
        )
        announce_on_commit(match, seats=seats)
    return True


def claim_win(*, match_id: int, user: User) -> Match:
    """End a two-player match whose opponent ran out of time, in the claimer's favour."""
    with transaction.atomic():
        match = locked(match_id)
        seats = seats_of(match)
        seat = next((s for s in seats if s.user_id == user.pk and not s.is_bot), None)
        if seat is None:
            raise MatchError(_("You do not have a seat in this match."), ErrorCode.FORBIDDEN)
        if match.status != Match.Status.ACTIVE:
            raise MatchError(_("This match is not in play."), ErrorCode.NOT_LIVE)
        late = predicates.late_opponent(match, seats, seat)
        if late is None:
            raise MatchError(_("There is no win to claim: your opponent still has time."), ErrorCode.INVALID)
        late.left = Seat.Left.TIMED_OUT
        bump(match)
        finish(match, forfeit_result(match, loser=late.number), seats)
        announce_on_commit(match, seats=seats)
    return match


def reclaim_seat(*, match_id: int, user: User) -> Match:
    """Take back a seat a computer substitute was playing (not after resigning)."""
    with transaction.atomic():
        match = locked(match_id)
        seats = seats_of(match)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise MatchError(_("You do not have a seat in this match."), ErrorCode.FORBIDDEN)
        if not predicates.can_reclaim(match, seat):
            if match.status == Match.Status.ACTIVE and seat.substitute:
                raise MatchError(_("You resigned this match, so the substitute plays on."), ErrorCode.FORBIDDEN)
            raise MatchError(_("Nobody is playing your seat for you."), ErrorCode.INVALID)
        seat.is_bot = False
        seat.substitute = False
        seat.timed_out = False
        seat.save(update_fields=["is_bot", "substitute", "timed_out"])
        seat.to_act = False  # so the turn counts as new: the player's clock starts afresh
        bump(match)
        match.save(update_fields=["version", "turn_version", "updated_at"])
        after_change(match, current_to_act(match), None, seats=seats)
        announce_on_commit(match, seats=seats)
    return match
