"""The clock work: deadline warnings, timeouts, Play now pairing and notification emails, driven by ``now``.

Every step is a claim on a database row (a conditional update inside ``services``), so any number of
processes may run ``tick`` at once and each warning, timeout or email happens once.
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from games import services
from games.background import notify
from games.models import Match, Seat
from games.services import announcements, pairing


def _clock_due(now: datetime) -> Q:
    return Q(to_act=True, is_bot=False, match__status=Match.Status.ACTIVE) & (
        Q(user__vacation_until__isnull=True) | Q(user__vacation_until__lte=now)
    )


def tick(now: datetime) -> dict[str, int]:
    """Do whatever fell due by ``now``; returns how many of each thing this call did."""
    warned = sum(
        services.warn_deadline(seat_id=pk, now=now)
        for pk in Seat.objects.filter(_clock_due(now), deadline_warned=False, warn_at__lte=now).values_list(
            "pk", flat=True
        )
    )
    timed_out = sum(
        services.time_out(seat_id=pk, now=now)
        for pk in Seat.objects.filter(_clock_due(now), timed_out=False, deadline_at__lte=now).values_list(
            "pk", flat=True
        )
    )
    # Before the emails: a pairing's start notices go out in this same tick once their grace is over.
    paired = pairing.pair_waiting(now=now)
    emailed = notify.send_due(now)
    done = {"warned": warned, "timed_out": timed_out, "paired": paired, "emails": emailed}
    for _receiver, counts in announcements.clock_ticked.send(sender=None, now=now):
        done.update(counts)
    return done
