"""Emails about turns, match starts and ends, and deadlines, at the rate each player chose.

A notice is emailed only if the player has not had the site open since it was raised (a live page
already showed it), after a short grace period; "each turn" sends at most one email per interval,
"daily digest" at most one a day, "never" none. One-click unsubscribe links need no login.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts import push
from games.models import Match, Notice, Seat

log = logging.getLogger(__name__)

GRACE = timedelta(seconds=60)
EACH_INTERVAL = timedelta(minutes=15)
DIGEST_INTERVAL = timedelta(hours=24)
CLAIM = timedelta(seconds=120)
UNSUBSCRIBE_SALT = "turnwise.unsubscribe"


def unsubscribe_token(user: Any) -> str:
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT)


def user_for_unsubscribe_token(token: str) -> Any | None:
    from accounts.models import User

    try:
        pk = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return User.objects.filter(pk=pk).first()


def send_due(now: datetime) -> int:
    """Email every player whose pending notices are due; returns the number of emails sent."""
    user_ids = (
        Notice.objects.filter(handled_at__isnull=True, created_at__lte=now - GRACE)
        .values_list("user_id", flat=True)
        .distinct()
    )
    return sum(_email_user(user_id, now) for user_id in list(user_ids))


def _still_news(notice: Notice, user: Any, seats: dict[int, Seat]) -> bool:
    if user.last_seen_at is not None and user.last_seen_at >= notice.created_at:
        return False  # the player has had the site open since: a live page showed it
    if notice.kind in (Notice.Kind.TURN, Notice.Kind.DEADLINE):
        seat = seats.get(notice.match_id)
        return bool(seat and seat.to_act and not seat.is_bot and notice.match.status == Match.Status.ACTIVE)
    return True


def _email_user(user_id: int, now: datetime) -> int:
    from accounts.models import User

    # Claim the player so two workers never email them at once; released below, or expires.
    claimed = (
        User.objects.filter(pk=user_id)
        .filter(Q(email_claim_until__isnull=True) | Q(email_claim_until__lt=now))
        .update(email_claim_until=now + CLAIM)
    )
    if not claimed:
        return 0
    try:
        user = User.objects.get(pk=user_id)
        pending = list(
            Notice.objects.filter(user=user, handled_at__isnull=True, created_at__lte=now - GRACE)
            .select_related("match")
            .order_by("created_at")
        )
        if not pending:
            return 0
        seats = {s.match_id: s for s in Seat.objects.filter(user=user, match_id__in={n.match_id for n in pending})}
        push.push_news(user, [n for n in pending if _still_news(n, user, seats)], now)
        if user.email_turns == User.EmailTurns.NEVER or not user.email:
            Notice.objects.filter(pk__in=[n.pk for n in pending]).update(handled_at=now)
            return 0
        interval = DIGEST_INTERVAL if user.email_turns == User.EmailTurns.DIGEST else EACH_INTERVAL
        if user.last_email_at is not None and now - user.last_email_at < interval:
            return 0  # the chosen rate: these wait for the next window
        news = [n for n in pending if _still_news(n, user, seats)]
        sent = 0
        if news:
            _send(user, news, digest=user.email_turns == User.EmailTurns.DIGEST)
            User.objects.filter(pk=user.pk).update(last_email_at=now)
            sent = 1
        Notice.objects.filter(pk__in=[n.pk for n in pending]).update(handled_at=now)
        Notice.objects.filter(pk__in=[n.pk for n in news]).update(emailed=True)
        return sent
    finally:
        User.objects.filter(pk=user_id).update(email_claim_until=None)


def _send(user: Any, notices: list[Notice], *, digest: bool) -> None:
    from games import registry

    base = settings.SITE_URL
    by_match: dict[int, dict[str, Any]] = {}
    for notice in notices:
        row = by_match.setdefault(
            notice.match_id,
            {
                "url": base + notice.match.get_absolute_url(),
                "title": f"{registry.get(notice.match.game).name} #{notice.match_id}",
                "kinds": [],
            },
        )
        if notice.get_kind_display() not in row["kinds"]:
            row["kinds"].append(notice.get_kind_display())
    if digest:
        # A digest also lists every match still waiting on the player, news or not.
        waiting = Seat.objects.filter(
            user=user, to_act=True, is_bot=False, match__status=Match.Status.ACTIVE
        ).select_related("match")
        for seat in waiting:
            row = by_match.setdefault(
                seat.match_id,
                {
                    "url": base + seat.match.get_absolute_url(),
                    "title": f"{registry.get(seat.match.game).name} #{seat.match_id}",
                    "kinds": [],
                },
            )
            if str(Notice.Kind.TURN.label) not in row["kinds"]:
                row["kinds"].append(str(Notice.Kind.TURN.label))
    unsubscribe = base + reverse("accounts:unsubscribe", args=[unsubscribe_token(user)])
    context = {
        "user": user,
        "rows": list(by_match.values()),
        "unsubscribe_url": unsubscribe,
        "digest": digest,
        "settings_url": base + reverse("accounts:settings"),
    }
    turns = sum(1 for n in notices if n.kind == Notice.Kind.TURN)
    if digest:
        subject = _("Your Turnwise digest")
    elif turns:
        subject = _("Your turn on Turnwise (%(n)d)") % {"n": len(by_match)}
    else:
        subject = _("News from your Turnwise matches")
    message = EmailMessage(
        subject=subject,
        body=render_to_string("games/email/notices.txt", context),
        to=[user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
    try:
        message.send()
    except Exception:  # The notices stay handled; a mail outage must not stop the clock work.
        log.exception("Could not email %s", user.pk)
