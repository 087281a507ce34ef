"""Web Push: subscriptions, VAPID, and an encrypted push naming the match when a turn arrives."""

from __future__ import annotations

import base64
import json
from datetime import timedelta
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from accounts import push
from accounts.models import PushSubscription, VapidKey
from games import services
from games.background import notify
from games.models import Match
from tests.push_service import BrowserKeys, PushService
from tests.support import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("_http_push_allowed")]


@pytest.fixture
def _http_push_allowed() -> Any:
    with override_settings(PUSH_TEST_LOOPBACK_HOSTS={"127.0.0.1"}, VAPID_PRIVATE_KEY="", VAPID_PUBLIC_KEY=""):
        yield


def _send_due(now: Any) -> None:
    """The clock's email and push work, then the push thread's deliveries to their end."""
    notify.send_due(now)
    push.drain(now)


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _subscribe(user: Any, service: PushService, keys: BrowserKeys, name: str = "bob") -> Any:
    body = {"endpoint": service.endpoint(name), "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64}}
    return client_for(user).post(reverse("accounts:push-subscribe"), body, content_type="application/json")


def _bobs_turn(alice: Any, bob: Any) -> Match:
    """Bob has had the site open, then left; alice moves, so it is bob's turn while he is away."""
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    type(bob).objects.filter(pk=bob.pk).update(last_seen_at=timezone.now())
    match.refresh_from_db()
    services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "d3"}, version=match.version)
    match.refresh_from_db()
    return match


def test_a_turn_arriving_while_away_is_pushed_encrypted_and_names_the_match(alice: Any, bob: Any) -> None:
    keys = BrowserKeys()
    with PushService() as service:
        assert _subscribe(bob, service, keys).status_code == 200
        match = _bobs_turn(alice, bob)
        _send_due(timezone.now() + notify.GRACE + timedelta(seconds=1))
    [received] = service.received
    assert received.path == "/push/bob"
    assert received.headers["content-encoding"] == "aes128gcm"
    message = json.loads(keys.decrypt(received.body))
    assert f"Reversi #{match.pk}" in message["body"] and message["url"] == match.get_absolute_url()
    # Signed with the site's VAPID key, which browsers were given to subscribe with.
    scheme, _sep, params = received.headers["authorization"].partition(" ")
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert scheme == "vapid" and fields["k"] == push.public_key() == VapidKey.objects.get().public_key
    head, claims, signature = fields["t"].split(".")
    raw = _unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(fields["k"]))
    public.verify(
        encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
        f"{head}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    assert json.loads(_unb64(claims))["aud"] == service.endpoint("").rsplit("/push/", 1)[0]


def test_no_push_while_the_player_is_on_the_site_and_at_most_one_per_interval(alice: Any, bob: Any) -> None:
    keys = BrowserKeys()
    with PushService() as service:
        _subscribe(bob, service, keys)
        match = _bobs_turn(alice, bob)
        later = timezone.now() + notify.GRACE + timedelta(seconds=1)
        type(bob).objects.filter(pk=bob.pk).update(last_seen_at=later)  # a live page showed it
        _send_due(later)
        assert service.received == []
        type(bob).objects.filter(pk=bob.pk).update(last_seen_at=None)
        services.act(match_id=match.pk, user=bob, action={"type": "place", "square": "c3"}, version=match.version)
        match.refresh_from_db()
        services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "c4"}, version=match.version)
        _send_due(timezone.now() + notify.GRACE + timedelta(seconds=1))
        assert len(service.received) == 1
        _send_due(timezone.now() + notify.GRACE + timedelta(minutes=2))  # within the interval
        assert len(service.received) == 1


def test_an_expired_subscription_is_forgotten(alice: Any, bob: Any) -> None:
    with PushService() as service:
        service.status = 410
        _subscribe(bob, service, BrowserKeys())
        _bobs_turn(alice, bob)
        _send_due(timezone.now() + notify.GRACE + timedelta(seconds=1))
        assert len(service.received) == 1
    assert not PushSubscription.objects.exists()


def test_a_failing_push_service_keeps_the_subscription(alice: Any, bob: Any) -> None:
    with PushService() as service:
        service.status = 500
        _subscribe(bob, service, BrowserKeys())
        _bobs_turn(alice, bob)
        _send_due(timezone.now() + notify.GRACE + timedelta(seconds=1))
    assert PushSubscription.objects.get().last_push_at is None


@pytest.mark.parametrize(
    ("endpoint", "p256dh", "auth"),
    [
        ("ftp://push.example/x", None, None),
        ("https://fcm.googleapis.com/fcm/send/x", "not-a-key", None),
        ("https://fcm.googleapis.com/fcm/send/x", None, "c2hvcnQ"),
    ],
)
def test_a_bad_subscription_is_refused(bob: Any, endpoint: str, p256dh: str | None, auth: str | None) -> None:
    keys = BrowserKeys()
    body = {"endpoint": endpoint, "keys": {"p256dh": p256dh or keys.p256dh, "auth": auth or keys.auth_b64}}
    response = client_for(bob).post(reverse("accounts:push-subscribe"), body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["message"]
    assert not PushSubscription.objects.exists()


@override_settings(PUSH_TEST_LOOPBACK_HOSTS=frozenset())
def test_plain_http_push_services_are_refused_unless_allowed(bob: Any) -> None:
    keys = BrowserKeys()
    body = {"endpoint": "http://10.0.0.1/x", "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64}}
    response = client_for(bob).post(reverse("accounts:push-subscribe"), body, content_type="application/json")
    assert response.status_code == 400 and not PushSubscription.objects.exists()


def test_unsubscribing_forgets_only_ones_own_subscription(alice: Any, bob: Any) -> None:
    keys = BrowserKeys()
    body = {"endpoint": "https://fcm.googleapis.com/fcm/send/b", "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64}}
    client_for(bob).post(reverse("accounts:push-subscribe"), body, content_type="application/json")
    url = reverse("accounts:push-unsubscribe")
    client_for(alice).post(url, {"endpoint": body["endpoint"]}, content_type="application/json")
    assert PushSubscription.objects.count() == 1
    client_for(bob).post(url, {"endpoint": body["endpoint"]}, content_type="application/json")
    assert not PushSubscription.objects.exists()


def test_the_vapid_key_is_made_once_and_kept(bob: Any) -> None:
    first = push.public_key()
    assert push.public_key() == first and VapidKey.objects.count() == 1
    assert len(_unb64(first)) == 65
    page = client_for(bob).get(reverse("accounts:settings")).content.decode()
    assert f'data-key="{first}"' in page and 'id="push-toggle"' in page


def test_the_service_worker_is_served_for_the_whole_site(client: Any) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("push"' in response.content
