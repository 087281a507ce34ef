"""Web Push delivery: apart from the background work, within a total deadline, to public addresses only.

The cast: bob is away with a browser subscribed, alice moves so that it is his turn; carol plays the
computer, whose reply is due. A ``Tarpit`` answers a byte at a time; a ``Listener`` is a port on
127.0.0.1 that must never be reached.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import runpy
import socket
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.mail.utils import DNS_NAME
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from py_vapid import Vapid

import config
from accounts import push, push_delivery
from accounts.models import PushSubscription
from games import services
from games.background import bot_worker, bots, clock, notify
from games.models import Match
from tests.push_service import BrowserKeys, Listener, PushService, SelfSignedTLS, Tarpit
from tests.support import client_for
from tests.workcount import calls_made, network_waits_made

pytestmark = pytest.mark.django_db

STAND_IN = override_settings(PUSH_TEST_LOOPBACK_HOSTS={"127.0.0.1"}, VAPID_PRIVATE_KEY="", VAPID_PUBLIC_KEY="")


def _subscription(user: Any, endpoint: str, keys: BrowserKeys | None = None) -> PushSubscription:
    """A stored subscription, as the subscribe view keeps it (or as one was kept before these rules)."""
    keys = keys or BrowserKeys()
    return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=keys.p256dh, auth=keys.auth_b64)


def _bobs_turn_while_away(alice: Any, bob: Any) -> Match:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    type(bob).objects.filter(pk=bob.pk).update(last_seen_at=timezone.now())
    match.refresh_from_db()
    services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "d3"}, version=match.version)
    return match


def _computer_reply_due(carol: Any) -> Match:
    match = services.create_match(user=carol, game="reversi", players=2, bot_seats={1})
    services.act(match_id=match.pk, user=carol, action={"type": "place", "square": "d3"}, version=0)
    match.refresh_from_db()
    assert match.bot_due_at is not None
    return match


def _runner_step(now: Any) -> int:
    """One turn of the runner's loop (``bots.run_forever``): the due computer moves, then the clock work."""
    moves = bots.run_due(now=now)
    clock.tick(now)
    return moves


def _job(endpoint: str, keys: BrowserKeys | None = None) -> push_delivery.Job:
    keys = keys or BrowserKeys()
    vapid = Vapid()
    vapid.generate_keys()
    return push_delivery.Job(
        subscription_id=1,
        endpoint=endpoint,
        p256dh=keys.p256dh,
        auth=keys.auth_b64,
        data='{"title": "Turnwise"}',
        private_pem=vapid.private_pem().decode(),
        subject="mailto:noreply@localhost",
        ttl=60,
        handed_at=timezone.now(),
    )


# --- the runner never waits on a push service ------------------------------------------------------


@STAND_IN
def test_a_tarpit_subscription_does_not_delay_a_computer_reply(
    alice: Any, bob: Any, carol: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner's step makes the computer's reply and hands bob's push over without a single network
    call of its own, so the tarpit cannot hold it; the delivery then runs on the push thread, is cut
    off at its deadline, and counts as a failure."""
    monkeypatch.setattr(push_delivery, "DEADLINE_SECONDS", 1.0)
    str(DNS_NAME)  # Django looks the machine's name up once per process, for the emails' Message-ID
    _bobs_turn_while_away(alice, bob)
    vs_computer = _computer_reply_due(carol)
    now = timezone.now() + notify.GRACE + timedelta(seconds=10)
    with Tarpit(every=0.05, limit=200) as tarpit:
        subscription = _subscription(bob, tarpit.endpoint("bob"))
        moves, network_waits = network_waits_made(lambda: _runner_step(now))
        vs_computer.refresh_from_db()
        assert (moves, vs_computer.version, network_waits) == (1, 2, 0)
        push.drain(now)
        # The delivery has given up; the tarpit's thread sees the hang-up at its next drip (every 0.05 s),
        # later than that on a busy machine: wait for it, do not read it at once.
        assert tarpit.accepted == 1 and tarpit.hung_up.wait(timeout=10)
        assert tarpit.dripped < tarpit.limit  # the tarpit would have gone on: the deadline cut it off
    subscription.refresh_from_db()
    assert subscription.failures == 1 and subscription.last_push_at is None
    assert subscription.next_try_at == now + push.BACKOFF[0]


@STAND_IN
def test_the_runners_work_for_a_push_does_not_depend_on_how_the_push_service_answers(
    alice: Any, bob: Any, carol: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same runner step, with bob's browser at a prompt push service and at a tarpit: the runner
    does the same number of function calls either way (the delivery is not its work). The computer
    plays its first legal move: a search's work depends on the time it is given, not on the push."""
    monkeypatch.setattr(push_delivery, "DEADLINE_SECONDS", 1.0)
    monkeypatch.setattr(bot_worker, "compute", lambda bot, view, legal, budget, level: legal[0])
    counts = []
    with PushService() as prompt, Tarpit(every=0.05, limit=200) as tarpit:
        for n, endpoint in enumerate([prompt.endpoint("warm-up"), prompt.endpoint("bob"), tarpit.endpoint("bob")]):
            # The same runner step each time: the same matches, notices and subscriptions.
            Match.objects.all().delete()
            PushSubscription.objects.all().delete()
            type(bob).objects.filter(pk__in=[alice.pk, bob.pk, carol.pk]).update(last_seen_at=None, last_email_at=None)
            _bobs_turn_while_away(alice, bob)
            vs_computer = _computer_reply_due(carol)
            now = timezone.now() + notify.GRACE + timedelta(minutes=n + 1)
            _subscription(bob, endpoint)
            # A collection would run other threads' finalizers (the push thread's sockets) on this one.
            gc.collect()
            gc.disable()
            try:
                moves, calls = calls_made(lambda: _runner_step(now))  # noqa: B023
            finally:
                gc.enable()
            vs_computer.refresh_from_db()
            assert moves == 1 and vs_computer.version == 2
            counts.append(calls)
            push.drain(now)
        assert len(prompt.received) == 2 and tarpit.accepted == 1
    _warm_up, at_prompt, at_tarpit = counts
    # The same work but for a few calls of chance (the mailer's claim draws a random number by
    # rejection sampling); handing a delivery to a thread is cheap, doing it would be thousands.
    assert abs(at_tarpit - at_prompt) <= 30, counts


def test_a_delivery_is_cut_off_at_the_deadline_however_slowly_the_service_trickles() -> None:
    """A per-read timeout never fires against one byte every 50 ms; the total deadline does."""
    with override_settings(PUSH_TEST_LOOPBACK_HOSTS={"127.0.0.1"}), Tarpit(every=0.05, limit=400) as tarpit:
        outcome = asyncio.run(push_delivery.deliver(_job(tarpit.endpoint("x")), deadline=0.5))
        assert tarpit.hung_up.wait(5)
    assert outcome.result == push_delivery.Result.TIMED_OUT
    assert 0 < tarpit.dripped < tarpit.limit


@STAND_IN
def test_the_push_thread_takes_a_bounded_number_of_deliveries(bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond ``MAX_PENDING`` waiting, a push is dropped (and its subscription left due) rather than queued."""
    push_delivery.take_outcomes()  # none left over from elsewhere
    monkeypatch.setattr(push_delivery, "MAX_PENDING", 2)
    monkeypatch.setattr(push_delivery, "DEADLINE_SECONDS", 1.0)
    with Tarpit(every=0.05, limit=200) as tarpit:
        assert [push_delivery.submit(_job(tarpit.endpoint(str(n)))) for n in range(3)] == [True, True, False]
        assert push_delivery.wait_idle(10)
    assert len(push_delivery.take_outcomes()) == 2


# --- failures back off, then delete; a gone subscription goes at once --------------------------------


@STAND_IN
@pytest.mark.parametrize("status", [500, 429, 403, 307])
def test_a_failing_endpoint_backs_off_then_is_deleted(alice: Any, bob: Any, status: int) -> None:
    with PushService() as service:
        service.status = status
        service.location = "https://fcm.googleapis.com/elsewhere" if status == 307 else ""
        subscription = _subscription(bob, service.endpoint("bob"))
        now = timezone.now()
        for failures, wait in enumerate(push.BACKOFF, start=1):
            PushSubscription.objects.filter(pk=subscription.pk).update(last_push_at=None)
            _bobs_turn_while_away(alice, bob)
            now += notify.GRACE + timedelta(seconds=1)
            notify.send_due(now)
            notify.send_due(now)  # handed over once: in flight until its outcome is recorded
            push.drain(now)
            subscription.refresh_from_db()
            assert (subscription.failures, subscription.next_try_at) == (failures, now + wait)
            assert len(service.received) == failures
            _bobs_turn_while_away(alice, bob)
            notify.send_due(now + wait - timedelta(seconds=1))  # backing off: not tried
            push.drain(now)
            assert len(service.received) == failures
            now += wait
        _bobs_turn_while_away(alice, bob)
        now += notify.GRACE + timedelta(seconds=1)
        notify.send_due(now)
        push.drain(now)
        assert len(service.received) == push.MAX_FAILURES
    assert not PushSubscription.objects.exists()


@STAND_IN
@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_no_longer_knows_is_deleted_at_once(alice: Any, bob: Any, status: int) -> None:
    with PushService() as service:
        service.status = status
        _subscription(bob, service.endpoint("bob"))
        _bobs_turn_while_away(alice, bob)
        now = timezone.now() + notify.GRACE + timedelta(seconds=1)
        notify.send_due(now)
        push.drain(now)
        assert len(service.received) == 1
    assert not PushSubscription.objects.exists()


@STAND_IN
def test_a_delivery_resets_the_failure_count(alice: Any, bob: Any) -> None:
    with PushService() as service:
        subscription = _subscription(bob, service.endpoint("bob"))
        PushSubscription.objects.filter(pk=subscription.pk).update(failures=3)
        _bobs_turn_while_away(alice, bob)
        now = timezone.now() + notify.GRACE + timedelta(seconds=1)
        notify.send_due(now)
        push.drain(now)
    subscription.refresh_from_db()
    assert (subscription.failures, subscription.next_try_at, subscription.last_push_at) == (0, None, now)


# --- blind SSRF: only public addresses of known push services, no redirects ------------------------

# The examples, aimed at the listener's port where a port is given.
EXAMPLES = [
    "https://127.0.0.1:{port}/",
    "https://localhost:{port}/admin/",
    "https://0x7f000001:{port}/",
    "https://2130706433:{port}/",
    "https://[::ffff:127.0.0.1]:{port}/",
    "https://10.0.0.1/",
    "https://169.254.169.254/latest/meta-data/iam/security-credentials/",
]


@pytest.mark.parametrize("example", EXAMPLES)
def test_an_endpoint_that_is_not_a_public_push_service_is_refused(bob: Any, example: str) -> None:
    keys = BrowserKeys()
    with Listener() as listener:
        body = {"endpoint": example.format(port=listener.port), "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64}}
        response = client_for(bob).post(reverse("accounts:push-subscribe"), body, content_type="application/json")
        assert response.status_code == 400
        assert response.json()["error"]["message"] == "That is not a push service address this site can use."
        assert not PushSubscription.objects.exists()
        assert not listener.contacted()


@pytest.mark.parametrize("example", [e for e in EXAMPLES if "2130706433" not in e and "[" not in e])
def test_a_private_address_is_never_contacted_even_when_the_host_is_allowed(
    example: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check when connecting holds by itself: with the form checks waved through (as for a row kept
    before these rules, an allow-list that is too wide, or a name that resolves elsewhere since it was
    accepted), every address is checked, after the name is resolved, before a byte is sent. (aiohttp
    itself refuses numbers like 2130706433 as a host, and py_vapid cannot sign for an IPv6 literal: the
    socket factory's own test covers the IPv4-mapped address.)"""
    monkeypatch.setattr(push_delivery, "usable_endpoint", lambda endpoint: True)
    with Listener() as listener:
        outcome = asyncio.run(push_delivery.deliver(_job(example.format(port=listener.port)), deadline=5))
        assert outcome.result == push_delivery.Result.REFUSED
        assert not listener.contacted()


def test_the_socket_factory_refuses_a_private_address_in_any_family() -> None:
    guard = push_delivery._AddressGuard(loopback_ok=False)
    for family, address in [(socket.AF_INET6, ("::ffff:127.0.0.1", 443, 0, 0)), (socket.AF_INET, ("10.0.0.1", 443))]:
        with pytest.raises(push_delivery.NotPublic):
            guard.socket_for((family, socket.SOCK_STREAM, 6, "", address))
        assert guard.refused == address[0]


def test_a_name_that_resolves_to_a_private_address_is_refused_when_connecting(bob: Any) -> None:
    """DNS rebinding: a host the operator allowed (here ``localhost``) is resolved at each delivery, and
    refused because one of its addresses is not public; the stored subscription then backs off."""
    with Listener() as listener, override_settings(WEB_PUSH_EXTRA_HOSTS=["localhost"]):
        subscription = _subscription(bob, f"https://localhost:{listener.port}/push/bob")
        outcome = asyncio.run(push_delivery.deliver(_job(subscription.endpoint), deadline=5))
        assert outcome.result == push_delivery.Result.REFUSED
        assert not listener.contacted()


def test_a_redirect_from_a_push_service_is_not_followed() -> None:
    with (
        override_settings(PUSH_TEST_LOOPBACK_HOSTS={"127.0.0.1"}),
        PushService() as service,
        Listener() as listener,
    ):
        for status in (301, 302, 307, 308):
            service.status = status
            service.location = f"http://127.0.0.1:{listener.port}/admin/"
            outcome = asyncio.run(push_delivery.deliver(_job(service.endpoint("bob")), deadline=5))
            assert (outcome.result, outcome.status) == (push_delivery.Result.FAILED, status)
        assert len(service.received) == 4
        assert not listener.contacted()


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/x",  # https only
        "https://fcm.googleapis.com.evil.example/fcm/send/x",
        "https://evilfcm.googleapis.com/fcm/send/x",
        "https://push.apple.com/x",  # *.push.apple.com is its subdomains
        "https://user:secret@fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com:99999/fcm/send/x",
        "https://fcm.googleapis.com/fcm/send/" + "x" * 1000,
        "https://push.example.org/x",  # not known, not added
    ],
)
def test_only_https_endpoints_of_known_push_services_are_usable(endpoint: str) -> None:
    assert not push_delivery.usable_endpoint(endpoint)


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc:APA91b",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGuQ",
        "https://wns2-by3p.notify.windows.com/w/?token=BQYAAA",
    ],
)
def test_the_browsers_push_services_are_usable(endpoint: str) -> None:
    assert push_delivery.usable_endpoint(endpoint)


@override_settings(WEB_PUSH_EXTRA_HOSTS=["*.push.example.org", "push.example.net"])
def test_the_operator_adds_push_services_with_host_patterns() -> None:
    assert push_delivery.usable_endpoint("https://eu.push.example.org/x")
    assert push_delivery.usable_endpoint("https://push.example.net/x")
    assert not push_delivery.usable_endpoint("https://push.example.org/x")  # the pattern is its subdomains
    assert not push_delivery.usable_endpoint("https://eu.push.example.net/x")
    assert not push_delivery.usable_endpoint("http://eu.push.example.org/x")


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.0.0.1",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fe80::1",
        "fc00::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "::127.0.0.1",
        "64:ff9b::7f00:1",
        "2002:7f00:1::1",
        "not an address",
    ],
)
def test_addresses_that_are_not_public(address: str) -> None:
    assert not push_delivery.is_public(address)


@pytest.mark.parametrize("address", ["142.250.185.74", "2a00:1450:4001:80b::200a", "::ffff:142.250.185.74"])
def test_public_addresses(address: str) -> None:
    assert push_delivery.is_public(address)


def test_plain_http_and_loopback_are_for_the_tests_stand_in_only(bob: Any) -> None:
    """Production settings cannot turn the stand-in's allowance on: it is not read from the environment."""
    from django.conf import settings

    assert not settings.PUSH_TEST_LOOPBACK_HOSTS
    assert not hasattr(settings, "PUSH_ALLOW_HTTP_ENDPOINTS")
    assert not push_delivery.usable_endpoint("http://127.0.0.1:8000/push/x")
    with override_settings(PUSH_TEST_LOOPBACK_HOSTS={"127.0.0.1"}):
        assert push_delivery.usable_endpoint("http://127.0.0.1:8000/push/x")
        assert not push_delivery.usable_endpoint("http://localhost:8000/push/x")  # that host only


# --- subscriptions: a cap per account, an endpoint stays with its account, bounded JSON --------------


def _post_subscription(user: Any, endpoint: str, keys: BrowserKeys | None = None) -> Any:
    keys = keys or BrowserKeys()
    body = {"endpoint": endpoint, "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64}}
    return client_for(user).post(reverse("accounts:push-subscribe"), body, content_type="application/json")


def test_an_account_keeps_its_ten_newest_subscriptions(bob: Any, alice: Any) -> None:
    _post_subscription(alice, "https://fcm.googleapis.com/fcm/send/alice")
    for n in range(push.MAX_PER_ACCOUNT + 5):
        assert _post_subscription(bob, f"https://fcm.googleapis.com/fcm/send/bob-{n}").status_code == 200
    kept = set(PushSubscription.objects.filter(user=bob).values_list("endpoint", flat=True))
    assert kept == {f"https://fcm.googleapis.com/fcm/send/bob-{n}" for n in range(5, 15)}
    assert PushSubscription.objects.filter(user=alice).count() == 1  # someone else's are not touched


def test_re_subscribing_a_browser_makes_it_the_newest(bob: Any) -> None:
    for n in range(push.MAX_PER_ACCOUNT):
        _post_subscription(bob, f"https://fcm.googleapis.com/fcm/send/bob-{n}")
    _post_subscription(bob, "https://fcm.googleapis.com/fcm/send/bob-0")  # the same browser again
    _post_subscription(bob, "https://fcm.googleapis.com/fcm/send/bob-new")
    kept = set(PushSubscription.objects.filter(user=bob).values_list("endpoint", flat=True))
    assert "https://fcm.googleapis.com/fcm/send/bob-0" in kept
    assert "https://fcm.googleapis.com/fcm/send/bob-1" not in kept and len(kept) == push.MAX_PER_ACCOUNT


def test_another_accounts_endpoint_cannot_be_taken_over(alice: Any, bob: Any) -> None:
    endpoint = "https://fcm.googleapis.com/fcm/send/bobs-browser"
    bobs_keys = BrowserKeys()
    _post_subscription(bob, endpoint, bobs_keys)
    response = _post_subscription(alice, endpoint)
    assert response.status_code == 409
    assert response.json()["error"] == {
        "code": "taken",
        "message": "This browser's notifications are on for another account.",
    }
    subscription = PushSubscription.objects.get()
    assert (subscription.user, subscription.p256dh, subscription.auth) == (bob, bobs_keys.p256dh, bobs_keys.auth_b64)
    # The owner can still turn it off.
    url = reverse("accounts:push-unsubscribe")
    client_for(bob).post(url, {"endpoint": endpoint}, content_type="application/json")
    assert not PushSubscription.objects.exists()


def test_the_owner_may_renew_its_own_subscriptions_keys(bob: Any) -> None:
    endpoint = "https://fcm.googleapis.com/fcm/send/bobs-browser"
    _post_subscription(bob, endpoint)
    PushSubscription.objects.update(failures=2, next_try_at=timezone.now() + timedelta(hours=1))
    renewed = BrowserKeys()
    assert _post_subscription(bob, endpoint, renewed).status_code == 200
    subscription = PushSubscription.objects.get()
    assert (subscription.p256dh, subscription.failures, subscription.next_try_at) == (renewed.p256dh, 0, None)


@pytest.mark.parametrize("name", ["push-subscribe", "push-unsubscribe"])
@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "The request is too large."),
        ('{"endpoint": ' + "[" * 1000 + "]" * 1000 + "}", "The request is nested too deeply."),
        ("{not json", "The request is not valid JSON."),
    ],
)
def test_a_body_that_is_too_big_too_deep_or_not_json_is_refused_clearly(
    bob: Any, name: str, body: str, message: str
) -> None:
    _subscription(bob, "https://fcm.googleapis.com/fcm/send/bob")
    response = client_for(bob).post(reverse(f"accounts:{name}"), body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == {"code": "invalid", "message": message}
    assert PushSubscription.objects.count() == 1


def _settings_from(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(Path(config.__file__).parent / "settings.py"))


def test_the_operator_lists_extra_push_services_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = _settings_from(
        {"WEB_PUSH_EXTRA_HOSTS": " *.Push.Example.org, push.example.net. ,", "PUSH_ALLOW_HTTP_ENDPOINTS": "true"},
        monkeypatch,
    )
    assert loaded["WEB_PUSH_EXTRA_HOSTS"] == ["*.push.example.org", "push.example.net"]
    assert loaded["PUSH_TEST_LOOPBACK_HOSTS"] == frozenset()  # the old variable turns nothing on
    assert "PUSH_ALLOW_HTTP_ENDPOINTS" not in loaded


@pytest.mark.parametrize("pattern", ["*", "*.*.example.org", "push.example.org/x", "http://push.example.org"])
def test_a_host_pattern_that_is_not_one_stops_the_start(pattern: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RuntimeError, match="WEB_PUSH_EXTRA_HOSTS"):
        _settings_from({"WEB_PUSH_EXTRA_HOSTS": pattern}, monkeypatch)


def test_a_push_service_whose_certificate_nobody_vouches_for_is_sent_nothing() -> None:
    """TLS is checked against Mozilla's roots: the VAPID token and the push never reach an impostor."""
    with override_settings(PUSH_TEST_LOOPBACK_HOSTS={"127.0.0.1"}), SelfSignedTLS() as impostor:
        outcome = asyncio.run(push_delivery.deliver(_job(impostor.endpoint("bob")), deadline=5))
    assert outcome.result == push_delivery.Result.FAILED
    assert impostor.requests == [] and impostor.handshakes_failed == 1


def test_accounts_crowded_before_the_cap_keep_their_ten_newest(bob: Any, alice: Any) -> None:
    """The migration that brought the cap trims the subscriptions registered before it."""
    from django.apps import apps

    migration = importlib.import_module("accounts.migrations.0007_push_subscription_failures")
    for n in range(25):
        _subscription(bob, f"https://fcm.googleapis.com/fcm/send/bob-{n}")
    _subscription(alice, "https://fcm.googleapis.com/fcm/send/alice")
    migration.keep_the_newest_per_account(apps, None)
    kept = set(PushSubscription.objects.filter(user=bob).values_list("endpoint", flat=True))
    assert kept == {f"https://fcm.googleapis.com/fcm/send/bob-{n}" for n in range(15, 25)}
    assert PushSubscription.objects.filter(user=alice).count() == 1
    assert migration.MAX_PER_ACCOUNT == push.MAX_PER_ACCOUNT
