"""Web Push: notifications that reach a player whose Turnwise tabs are all closed.

Standard Web Push (RFC 8030) with VAPID (RFC 8292); payloads are encrypted for each subscription
(RFC 8291, aes128gcm) by pywebpush. Pushes follow the email rules (``games.notify`` calls
``push_news`` with the notices still worth telling) at the "each turn" rate, per browser.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from accounts.models import PushSubscription, VapidKey

log = logging.getLogger(__name__)

# The same pace as "an email for each turn": a browser is pushed at most once per interval.
INTERVAL = timedelta(minutes=15)
TIMEOUT_SECONDS = 10
GONE = {404, 410}  # the push service forgot the subscription: it will never deliver again


class PushError(Exception):
    """A subscription the site cannot use; ``message`` is for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
    """Keep a browser's subscription for ``user`` (a browser re-subscribing moves it to them)."""
    parts = urlsplit(endpoint or "")
    schemes = {"https", "http"} if settings.PUSH_ALLOW_HTTP_ENDPOINTS else {"https"}
    if parts.scheme not in schemes or not parts.netloc or len(endpoint) > 1000:
        raise PushError(_("That is not a push service address this site can use."))
    try:
        point, secret = _unb64url(p256dh or ""), _unb64url(auth or "")
    except (binascii.Error, ValueError):
        point, secret = b"", b""
    if len(point) != 65 or point[0] != 4 or len(secret) != 16:
        raise PushError(_("The browser sent keys this site cannot encrypt for."))
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
    )
    return subscription


def unsubscribe(*, user: Any, endpoint: str) -> int:
    deleted, _detail = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def subscriptions_of(user_ids: list[int]) -> dict[int, list[PushSubscription]]:
    """Every browser subscribed by these players, in one query."""
    found: dict[int, list[PushSubscription]] = {}
    for subscription in PushSubscription.objects.filter(user_id__in=user_ids):
        found.setdefault(subscription.user_id, []).append(subscription)
    return found


def push_news(user: Any, notices: list[Any], now: datetime, subscriptions: list[PushSubscription] | None = None) -> int:
    """Push the news in ``notices`` to each of the player's browsers not pushed within the interval.

    ``subscriptions``: the player's, when the caller fetched them for many players at once."""
    if not notices:
        return 0
    if subscriptions is None:
        subscriptions = list(PushSubscription.objects.filter(user=user))
    sent = 0
    for subscription in subscriptions:
        if subscription.last_push_at is not None and now - subscription.last_push_at < INTERVAL:
            continue
        fresh = [n for n in notices if subscription.last_push_at is None or n.created_at > subscription.last_push_at]
        if not fresh:
            continue
        # In the player's language, whoever's request or worker thread sends it.
        with translation.override(user.message_language):
            data = payload(fresh)
        if _deliver(subscription, data):
            PushSubscription.objects.filter(pk=subscription.pk).update(last_push_at=now)
            sent += 1
    return sent


def payload(notices: list[Any]) -> dict[str, Any]:
    """What the service worker shows: the matches named, and where a click leads."""
    from games import registry
    from games.i18n import digits

    matches: dict[int, Any] = {}
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


def _deliver(subscription: PushSubscription, data: dict[str, Any]) -> bool:
    private_pem, _public = _keys()
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(data),
            vapid_private_key=Vapid.from_pem(private_pem.encode()),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            timeout=TIMEOUT_SECONDS,
            ttl=24 * 3600,
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in GONE:
            subscription.delete()
        else:
            log.warning("Push to subscription %s failed: %s", subscription.pk, exc)
        return False
    except Exception:  # a push service outage must not stop the clock work
        log.exception("Push to subscription %s failed", subscription.pk)
        return False
    return True
