"""Web Push: notifications that reach a player whose Turnwise tabs are all closed.

Standard Web Push (RFC 8030) with VAPID (RFC 8292); payloads are encrypted for each subscription
(RFC 8291, aes128gcm) by pywebpush. Pushes follow the email rules (``games.background.notify`` calls
``push_news`` with the notices still worth telling) at the "each turn" rate, per browser. They are
delivered apart from the background work, within a deadline, to public addresses only: see
``accounts.push_delivery``.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from py_vapid import Vapid

from accounts import push_delivery
from accounts.models import PushSubscription, User, VapidKey

log = logging.getLogger(__name__)

# The same pace as "an email for each turn": a browser is pushed at most once per interval.
INTERVAL = timedelta(minutes=15)
TTL_SECONDS = 24 * 3600  # how long the push service keeps a push for a browser that is offline
MAX_PER_ACCOUNT = 10  # browsers kept per account; subscribing an eleventh drops the oldest
# A failing endpoint is retried after each of these waits in turn; the failure after the last deletes it.
BACKOFF = (timedelta(minutes=1), timedelta(minutes=10), timedelta(hours=1), timedelta(hours=6))
MAX_FAILURES = len(BACKOFF) + 1
# A push handed over is not handed over again before this, unless its outcome came back first. Longer
# than a delivery's deadline plus a clock tick; it only matters if the process died meanwhile.
LEASE = timedelta(minutes=2)


class PushError(Exception):
    """A subscription the site cannot use; ``message`` is for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class EndpointTaken(PushError):
    """The endpoint is another account's: it stays theirs."""


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_key() -> str:
    """The applicationServerKey browsers subscribe with (base64url, uncompressed P-256 point)."""
    return _keys()[1]


def _keys() -> tuple[str, str]:
    if settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY:
        return settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY
    stored = VapidKey.objects.filter(name="default").first()
    if stored is None:
        vapid = Vapid()
        vapid.generate_keys()
        point = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        try:
            with transaction.atomic():
                stored = VapidKey.objects.create(
                    name="default", private_pem=vapid.private_pem().decode(), public_key=_b64url(point)
                )
        except IntegrityError:  # another process made it first: every process must use the same pair
            stored = VapidKey.objects.get(name="default")
    return stored.private_pem, stored.public_key


def subscribe(*, user: Any, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Keep a browser's subscription for ``user``; their oldest beyond ``MAX_PER_ACCOUNT`` are dropped.

    An endpoint belongs to the account that registered it: another account posting it is refused and
    nothing changes. A browser that really changed hands makes a new subscription (the page unsubscribes
    the old one first), which gets a new endpoint; the old one then dies at its push service (404/410).
    """
    if not push_delivery.usable_endpoint(endpoint or ""):
        raise PushError(_("That is not a push service address this site can use."))
    try:
        point, secret = _unb64url(p256dh or ""), _unb64url(auth or "")
    except (binascii.Error, ValueError):
        point, secret = b"", b""
    if len(point) != 65 or point[0] != 4 or len(secret) != 16:
        raise PushError(_("The browser sent keys this site cannot encrypt for."))
    taken = EndpointTaken(_("This browser's notifications are on for another account."))
    now = timezone.now()
    with transaction.atomic():
        # Lock the account: two subscribes at once would each count its subscriptions and keep one too many.
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).get()
        existing = PushSubscription.objects.filter(endpoint=endpoint).first()
        if existing is not None and existing.user_id != user.pk:
            raise taken
        fresh = {"p256dh": p256dh, "auth": auth, "created_at": now, "failures": 0, "next_try_at": None}
        if existing is not None:
            PushSubscription.objects.filter(pk=existing.pk).update(**fresh)
        else:
            try:
                with transaction.atomic():  # another account may register the same endpoint this instant
                    PushSubscription.objects.create(user=user, endpoint=endpoint, **fresh)
            except IntegrityError:
                raise taken from None
        oldest = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")[MAX_PER_ACCOUNT:]
        PushSubscription.objects.filter(pk__in=list(oldest.values_list("pk", flat=True))).delete()
    return PushSubscription.objects.get(endpoint=endpoint)


def unsubscribe(*, user: Any, endpoint: str) -> int:
    deleted, _detail = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def _due_subscriptions(user_ids: list[int], now: datetime) -> dict[int, list[PushSubscription]]:
    """Every browser of these players that may be pushed now (not in flight, not backing off): one query."""
    found: dict[int, list[PushSubscription]] = {}
    for subscription in PushSubscription.objects.filter(
        Q(next_try_at__isnull=True) | Q(next_try_at__lte=now), user_id__in=user_ids
    ).order_by("pk"):
        found.setdefault(subscription.user_id, []).append(subscription)
    return found


def push_news(news: list[tuple[Any, list[Any]]], now: datetime, payload: Callable[[list[Any]], dict[str, Any]]) -> int:
    """Hand over a push of the news to each of these players' browsers not pushed within the interval.

    ``news``: (player, the notices still worth telling them); ``payload`` makes the pushed message from
    the notices new to a browser (the games' side says what a notice means: ``games.background.notify``, so this
    module names no game code). Returns at once: the deliveries run on the
    push thread (``accounts.push_delivery``), and ``record_outcomes`` stores how they went. A constant
    number of queries for the whole batch."""
    wanted = [user.pk for user, notices in news if notices]
    if not wanted:
        return 0
    subscriptions = _due_subscriptions(wanted, now)
    if not subscriptions:
        return 0
    signing = _keys()
    handed: list[int] = []
    for user, notices in news:
        for subscription in subscriptions.get(user.pk, []):
            if subscription.last_push_at is not None and now - subscription.last_push_at < INTERVAL:
                continue
            fresh = [
                n for n in notices if subscription.last_push_at is None or n.created_at > subscription.last_push_at
            ]
            if not fresh:
                continue
            # In the player's language, whoever's request or worker thread sends it.
            with translation.override(user.message_language):
                data = payload(fresh)
            if _deliver(subscription, data, signing, now):
                handed.append(subscription.pk)
    if handed:
        # In flight: not handed over again until its outcome is recorded (or the lease runs out,
        # if this process died meanwhile).
        PushSubscription.objects.filter(pk__in=handed).update(next_try_at=now + LEASE)
    return len(handed)


def record_outcomes(now: datetime) -> int:
    """Store how the deliveries finished since the last call went: at most five queries, however many.

    Delivered: the interval starts, failures are forgotten. Gone (404/410): deleted at once. Anything
    else (an error status, a redirect, the deadline, a refused address): one more failure, backing off
    further each time, and deleted at the ``MAX_FAILURES``-th in a row."""
    outcomes = push_delivery.take_outcomes()
    by_result: dict[push_delivery.Result, list[push_delivery.Outcome]] = {}
    for outcome in outcomes:
        by_result.setdefault(outcome.result, []).append(outcome)
    delivered = by_result.pop(push_delivery.Result.DELIVERED, [])
    if delivered:
        PushSubscription.objects.filter(pk__in=[o.subscription_id for o in delivered]).update(
            last_push_at=Case(*(When(pk=o.subscription_id, then=Value(o.handed_at)) for o in delivered)),
            failures=0,
            next_try_at=None,
        )
    gone = by_result.pop(push_delivery.Result.GONE, [])
    if gone:
        PushSubscription.objects.filter(pk__in=[o.subscription_id for o in gone]).delete()
    failed = [o.subscription_id for found in by_result.values() for o in found]
    if failed:
        PushSubscription.objects.filter(pk__in=failed).update(failures=F("failures") + 1)
        PushSubscription.objects.filter(pk__in=failed, failures__gte=MAX_FAILURES).delete()
        PushSubscription.objects.filter(pk__in=failed).update(
            next_try_at=Case(
                *(When(failures=n, then=Value(now + wait)) for n, wait in enumerate(BACKOFF, start=1)),
                default=Value(now + BACKOFF[-1]),
            )
        )
    return len(outcomes)


def drain(now: datetime) -> int:
    """Wait for every push handed over to finish (each within its deadline), then record how they went
    (``run_worker --once``, tests)."""
    push_delivery.wait_idle()
    return record_outcomes(now)


def _deliver(subscription: PushSubscription, data: dict[str, Any], signing: tuple[str, str], now: datetime) -> bool:
    """Hand one push over to the push thread; False if it is too busy to take it (the push is dropped)."""
    job = push_delivery.Job(
        subscription_id=subscription.pk,
        endpoint=subscription.endpoint,
        p256dh=subscription.p256dh,
        auth=subscription.auth,
        data=json.dumps(data),
        private_pem=signing[0],
        subject=settings.VAPID_SUBJECT,
        ttl=TTL_SECONDS,
        handed_at=now,
    )
    if push_delivery.submit(job):
        return True
    log.warning("Push to subscription %s dropped: too many pushes waiting", subscription.pk)
    return False
