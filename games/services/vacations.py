"""A player's vacation: their clocks stop, within a yearly allowance of days."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User, Vacation
from games.models import Seat
from games.services.errors import ErrorCode, MatchError
from games.support.i18n import LocalNumber

# --- vacation ------------------------------------------------------------------------------------


def vacation_days_left(user: User, now: datetime) -> int:
    """Days of the yearly allowance not yet booked (a vacation ended early books only the days used)."""
    booked = sum(((v.ends_at - v.starts_at) for v in user.vacations.filter(starts_at__year=now.year)), timedelta())
    booked_days = -(-int(booked.total_seconds()) // 86400)  # a started day counts whole
    return max(0, settings.VACATION_DAYS_PER_YEAR - booked_days)


def start_vacation(*, user: User, days: int, now: datetime | None = None) -> None:
    """Stop the player's clocks for ``days`` days, within the yearly allowance."""
    now = now or timezone.now()
    if user.on_vacation(now):
        raise MatchError(_("You are already on vacation."), ErrorCode.INVALID)
    left = vacation_days_left(user, now)
    if not 1 <= days <= left:
        raise MatchError(
            _("You can take 1 to %(n)s days of vacation this year.") % {"n": LocalNumber(left)}, ErrorCode.INVALID
        )
    length = timedelta(days=days)
    with transaction.atomic():
        Vacation.objects.create(user=user, starts_at=now, ends_at=now + length)
        user.vacation_until = now + length
        user.save(update_fields=["vacation_until"])
        _shift_deadlines(user, length)


def end_vacation(*, user: User, now: datetime | None = None) -> None:
    """Come back early: the unused days are not counted and the clocks run again."""
    now = now or timezone.now()
    if not user.on_vacation(now):
        raise MatchError(_("You are not on vacation."), ErrorCode.INVALID)
    unused = user.vacation_until - now
    with transaction.atomic():
        user.vacations.filter(ends_at=user.vacation_until).update(ends_at=now)
        user.vacation_until = None
        user.save(update_fields=["vacation_until"])
        _shift_deadlines(user, -unused)


def _shift_deadlines(user: User, delta: timedelta) -> None:
    Seat.objects.filter(user=user, deadline_at__isnull=False).update(
        deadline_at=F("deadline_at") + delta, warn_at=F("warn_at") + delta
    )
