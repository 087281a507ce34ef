"""Emails about turns, match starts and ends, and deadlines, at the rate each player chose.

A notice is emailed only if the player has not had the site open since it was raised (a live page
already showed it), after a short grace period; "each turn" sends at most one email per interval,
"daily digest" at most one a day, "never" none. One-click unsubscribe links need no login.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import push, verification
from accounts.models import User
from games.models import Challenge, Match, Notice, Seat
from games.support.i18n import digits

log = logging.getLogger(__name__)

GRACE = timedelta(seconds=60)
EACH_INTERVAL = timedelta(minutes=15)
DIGEST_INTERVAL = timedelta(hours=24)
CLAIM = timedelta(seconds=120)
UNSUBSCRIBE_SALT = "turnwise.unsubscribe"


def unsubscribe_token(user: User) -> str:
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT)


def user_for_unsubscribe_token(token: str) -> User | None:
    try:
        pk = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return User.objects.filter(pk=pk).first()


BATCH = 500  # notices looked at per call; the rest wait for the next tick


def send_due(now: datetime) -> int:
    """Email every player whose pending notices are due; returns the number of emails sent.

    A constant number of queries for the whole batch, however many players it covers.
    """
    push.record_outcomes(now)  # how the pushes handed over earlier went (no query when there are none)
    due = list(
        Notice.objects.filter(handled_at__isnull=True, created_at__lte=now - GRACE)
        .select_related("match")
        .order_by("created_at", "pk")[:BATCH]
    )
    if not due:
        return 0
    # Claim the players so two workers never email them at once; released below, or expires. The
    # random microseconds tell this worker's claims apart from another's made at the same moment.
    claim = now + CLAIM + timedelta(microseconds=secrets.randbelow(1_000_000))
    user_ids = {n.user_id for n in due}
    User.objects.filter(pk__in=user_ids).filter(
        Q(email_claim_until__isnull=True) | Q(email_claim_until__lt=now)
    ).update(email_claim_until=claim)
    try:
        users = {u.pk: u for u in User.objects.filter(pk__in=user_ids, email_claim_until=claim)}
        return _email_users(users, [n for n in due if n.user_id in users], now)
    finally:
        User.objects.filter(pk__in=user_ids, email_claim_until=claim).update(email_claim_until=None)


def _still_news(
    notice: Notice, user: User, seats: dict[tuple[int, int], Seat], challenged: set[tuple[int, int]]
) -> bool:
    """Whether a notice still says something true and unseen: what it announces may be settled since
    (the turn was played, the challenge answered or its match called off); then it is dropped."""
    if user.last_seen_at is not None and user.last_seen_at >= notice.created_at:
        return False  # the player has had the site open since: a live page showed it
    if notice.kind in (Notice.Kind.TURN, Notice.Kind.DEADLINE):
        seat = seats.get((user.pk, notice.match_id))
        return bool(seat and seat.to_act and not seat.is_bot and notice.match.status == Match.Status.ACTIVE)
    if notice.kind == Notice.Kind.CHALLENGE:
        return (user.pk, notice.match_id) in challenged
    return True


def _unanswered(pending: list[Notice]) -> set[tuple[int, int]]:
    """(player, match) of the challenges among ``pending`` still waiting for that player's answer: one query."""
    asked = [n for n in pending if n.kind == Notice.Kind.CHALLENGE]
    if not asked:
        return set()
    return set(
        Challenge.objects.filter(
            challenged_id__in={n.user_id for n in asked},
            match_id__in={n.match_id for n in asked},
            status=Challenge.Status.PENDING,
            match__status=Match.Status.WAITING,
        ).values_list("challenged_id", "match_id")
    )


def _email_users(users: dict[int, User], pending: list[Notice], now: datetime) -> int:
    by_user: dict[int, list[Notice]] = {}
    for notice in pending:
        by_user.setdefault(notice.user_id, []).append(notice)
    seats = {
        (s.user_id, s.match_id): s
        for s in Seat.objects.filter(user_id__in=list(by_user), match_id__in={n.match_id for n in pending})
    }
    challenged = _unanswered(pending)
    # Web Push follows its own rate (per browser), whatever the player chose for email. Handed over to
    # the push thread: a slow push service must not hold up the emails, the clock or a computer move.
    news = [
        (users[uid], [n for n in notices if _still_news(n, users[uid], seats, challenged)])
        for uid, notices in by_user.items()
    ]
    push.push_news(news, now, push_payload)
    handled: list[int] = []
    emailed: list[int] = []
    sent_to: list[int] = []
    to_send: list[tuple[Any, list[Notice]]] = []
    for user_id, notices in by_user.items():
        user = users[user_id]
        if user.email_turns == User.EmailTurns.NEVER or not user.email:
            handled += [n.pk for n in notices]
            continue
        # Only to an address its owner proved (accounts.verification): it may be anyone's otherwise.
        # The news goes unsent; the address is sent its link instead (once a month at most), so that
        # an account from before verification existed learns why its notices stopped.
        if not user.email_verified:
            handled += [n.pk for n in notices]
            if any(_still_news(n, user, seats, challenged) for n in notices):
                _remind_to_verify(user, now)
            continue
        interval = DIGEST_INTERVAL if user.email_turns == User.EmailTurns.DIGEST else EACH_INTERVAL
        if user.last_email_at is not None and now - user.last_email_at < interval:
            continue  # the chosen rate: these wait for the next window
        to_send.append((user, notices))
    waiting = _waiting_for_digests([u for u, _n in to_send if u.email_turns == User.EmailTurns.DIGEST])
    for user, notices in to_send:
        news = [n for n in notices if _still_news(n, user, seats, challenged)]
        if news:
            digest = user.email_turns == User.EmailTurns.DIGEST
            _send(user, news, digest=digest, waiting=waiting.get(user.pk, []))
            sent_to.append(user.pk)
            emailed += [n.pk for n in news]
        handled += [n.pk for n in notices]
    if sent_to:
        User.objects.filter(pk__in=sent_to).update(last_email_at=now)
    if handled:
        Notice.objects.filter(pk__in=handled).update(handled_at=now)
    if emailed:
        Notice.objects.filter(pk__in=emailed).update(emailed=True)
    return len(sent_to)


def _remind_to_verify(user: User, now: datetime) -> None:
    try:
        verification.remind(user, now=now)
    except Exception:  # as for notices: a mail outage must not stop the clock work
        log.exception("Verification reminder to user %s failed", user.pk)


def _waiting_for_digests(users: list[Any]) -> dict[int, list[Seat]]:
    """Every match waiting on each digest reader (a digest lists them, news or not): one query."""
    waiting: dict[int, list[Seat]] = {}
    if not users:
        return waiting
    for seat in Seat.objects.filter(
        user_id__in=[u.pk for u in users], to_act=True, is_bot=False, match__status=Match.Status.ACTIVE
    ).select_related("match"):
        waiting.setdefault(seat.user_id, []).append(seat)
    return waiting


def _send(user: User, notices: list[Notice], *, digest: bool, waiting: list[Seat]) -> None:
    # In the player's language, whoever's request or worker thread sends it.
    with translation.override(user.message_language):
        _compose_and_send(user, notices, digest=digest, waiting=waiting)


def _compose_and_send(user: User, notices: list[Notice], *, digest: bool, waiting: list[Seat]) -> None:
    from games import registry

    base = settings.SITE_URL
    by_match: dict[int, dict[str, Any]] = {}
    for notice in notices:
        row = by_match.setdefault(
            notice.match_id,
            {
                "url": base + notice.match.get_absolute_url(),
                "title": f"{registry.get(notice.match.game).name} #{digits(notice.match_id)}",
                "kinds": [],
            },
        )
        if notice.get_kind_display() not in row["kinds"]:
            row["kinds"].append(notice.get_kind_display())
        if notice.kind == Notice.Kind.CHALLENGE:
            row["terms"] = notice.match.terms  # what accepting agrees to
    if digest:
        # A digest also lists every match still waiting on the player, news or not.
        for seat in waiting:
            row = by_match.setdefault(
                seat.match_id,
                {
                    "url": base + seat.match.get_absolute_url(),
                    "title": f"{registry.get(seat.match.game).name} #{digits(seat.match_id)}",
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
        subject = _("Your turn on Turnwise (%(n)s)") % {"n": digits(len(by_match))}
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


def push_payload(notices: list[Notice]) -> dict[str, Any]:
    """What the service worker shows of a push: the matches named, and where a click leads."""
    from games import registry

    matches: dict[int, Notice] = {}
    for notice in notices:
        matches.setdefault(notice.match_id, notice)
    lines = [
        f"{n.get_kind_display()}: {registry.get(n.match.game).name} #{digits(n.match_id)}" for n in matches.values()
    ]
    first = next(iter(matches.values()))
    return {
        "title": "Turnwise",
        "body": "\n".join(lines),
        "url": first.match.get_absolute_url() if len(matches) == 1 else "/",
        "tag": f"turnwise-{first.match_id}" if len(matches) == 1 else "turnwise",
    }
