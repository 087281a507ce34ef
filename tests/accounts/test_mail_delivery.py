"""Email delivery: apart from the background work and the requests, within a total deadline.

The cast, as for the pushes (tests/accounts/test_push_delivery.py): bob is away and it becomes his
turn, so the runner's clock work emails him; carol plays the computer, whose reply is due. The mail
server is a prompt stand-in (``SMTPService``), a ``Tarpit`` that drips its greeting a byte at a time,
or a port that takes the connection and never says a word.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
from datetime import timedelta
from typing import Any

import pytest
from django.core.mail import EmailMessage
from django.core.mail.utils import DNS_NAME
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from accounts import mail_delivery
from games.background import bot_worker, notify
from games.models import Match
from tests.accounts.test_push_delivery import _bobs_turn_while_away, _computer_reply_due, _runner_step
from tests.push_service import Tarpit
from tests.smtp_service import SMTPService
from tests.workcount import calls_made, network_waits_made

pytestmark = pytest.mark.django_db


def _mailer(port: int, *, deadline: float = 1.0, timeout: float = 10.0) -> override_settings:
    """Production's mail backend (config.settings, once EMAIL_HOST is set), at a server on 127.0.0.1."""
    options = {"host": "127.0.0.1", "port": port, "timeout": timeout, "deadline": deadline}
    mailer = {"BACKEND": "accounts.mail_delivery.EmailBackend", "OPTIONS": options}
    return override_settings(MAILERS={"default": mailer})


def _port(tarpit: Tarpit) -> int:
    return tarpit.listener.getsockname()[1]


def _server(host: str = "127.0.0.1", port: int = 25, timeout: float | None = 10.0) -> mail_delivery.Server:
    return mail_delivery.Server(host, port, "", "", starttls=False, ssl=False, timeout=timeout, tls=None)


def _letter() -> mail_delivery.Letter:
    return mail_delivery.Letter("noreply@localhost", ("bob@example.com",), b"Subject: Hi\r\n\r\nHello\r\n", "Hi")


# --- the runner never waits on a mail server ----------------------------------------------------------


def test_a_tarpit_mail_server_does_not_delay_a_computer_reply(
    alice: Any, bob: Any, carol: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The runner's step makes the computer's reply and hands the due emails over (bob's turn, the
    others' news) without a single network call of its own, so the tarpit cannot hold it; each
    delivery then runs on the delivery thread and is cut off at its deadline."""
    str(DNS_NAME)  # Django looks the machine's name up once per process, for the emails' Message-ID
    _bobs_turn_while_away(alice, bob)
    vs_computer = _computer_reply_due(carol)
    now = timezone.now() + notify.GRACE + timedelta(seconds=10)
    with (
        Tarpit(every=0.05, limit=400) as tarpit,
        _mailer(_port(tarpit), deadline=1.0),
        caplog.at_level(logging.WARNING, logger="accounts.mail_delivery"),
    ):
        moves, network_waits = network_waits_made(lambda: _runner_step(now))
        vs_computer.refresh_from_db()
        assert (moves, vs_computer.version, network_waits) == (1, 2, 0)
        assert mail_delivery.wait_idle(10)
        assert tarpit.hung_up.wait(5)
        assert tarpit.dripped < tarpit.accepted * tarpit.limit  # it would have gone on: the deadline cut it off
    timed_out = [r.getMessage() for r in caplog.records if "cut off" in r.getMessage()]
    assert tarpit.accepted >= 1 and len(timed_out) == tarpit.accepted, timed_out
    assert any("Your turn" in line for line in timed_out)
    bob.refresh_from_db()
    assert bob.last_email_at == now  # handed over: the notice is not mailed again at the next tick


def test_the_runners_work_for_an_email_does_not_depend_on_how_the_mail_server_answers(
    alice: Any, bob: Any, carol: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same runner step, bob's turn email going to a prompt mail server and to a tarpit: the
    runner does the same number of function calls either way (sending is not its work)."""
    monkeypatch.setattr(bot_worker, "compute", lambda bot, view, legal, budget, level: legal[0])
    # The unsubscribe link's signature differs each time, and so the work of folding its header: fixed.
    monkeypatch.setattr(notify, "unsubscribe_token", lambda user: f"token-{user.pk}")
    str(DNS_NAME)
    counts = []
    with SMTPService() as prompt, Tarpit(every=0.05, limit=400) as tarpit:
        for n, port in enumerate([prompt.port, prompt.port, _port(tarpit)]):
            Match.objects.all().delete()
            type(bob).objects.filter(pk__in=[alice.pk, bob.pk, carol.pk]).update(last_seen_at=None, last_email_at=None)
            _bobs_turn_while_away(alice, bob)
            vs_computer = _computer_reply_due(carol)
            now = timezone.now() + notify.GRACE + timedelta(minutes=n + 1)
            with _mailer(port, deadline=1.0):
                gc.collect()  # a collection would run the delivery thread's finalizers on this one
                gc.disable()
                try:
                    moves, calls = calls_made(lambda: _runner_step(now))  # noqa: B023
                finally:
                    gc.enable()
            vs_computer.refresh_from_db()
            assert moves == 1 and vs_computer.version == 2
            counts.append(calls)
            assert mail_delivery.wait_idle(10)
        assert tarpit.accepted >= 1
    # The prompt server was sent bob's turn email, both times: the step did hand a real message over.
    to_bob = [d for d in prompt.delivered if d.recipients == [bob.email]]
    assert len(to_bob) == 2 and all("Your turn" in str(d.message["Subject"]) for d in to_bob)
    _warm_up, at_prompt, at_tarpit = counts
    # The same work but for a few calls of chance (the mailer's claim draws a random number by
    # rejection sampling); sending through a tarpit on this thread would be thousands more.
    assert abs(at_tarpit - at_prompt) <= 30, counts


def test_a_password_reset_request_hands_its_email_over_without_waiting(bob: Any) -> None:
    """A request thread is not held either: the reset page answers while the server still drips."""
    str(DNS_NAME)
    client = Client()
    with Tarpit(every=0.05, limit=400) as tarpit, _mailer(_port(tarpit), deadline=1.0):
        response, network_waits = network_waits_made(
            lambda: client.post(reverse("accounts:password_reset"), {"email": bob.email})
        )
        assert response.status_code == 302 and network_waits == 0
        assert mail_delivery.wait_idle(10)
        assert tarpit.accepted == 1


# --- each delivery within a total deadline; a failure is one line in the log ----------------------------


def test_a_message_is_cut_off_at_the_deadline_however_slowly_the_server_trickles(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """EMAIL_TIMEOUT (per exchange) never fires against one byte every 50 ms; the total deadline does."""
    with Tarpit(every=0.05, limit=400) as tarpit, caplog.at_level(logging.WARNING, logger="accounts.mail_delivery"):
        result = asyncio.run(mail_delivery.deliver(_letter(), _server(port=_port(tarpit)), deadline=0.5))
        assert tarpit.hung_up.wait(5)
    assert result == mail_delivery.Result.TIMED_OUT
    assert 0 < tarpit.dripped < tarpit.limit
    assert [(r.levelno, r.exc_info) for r in caplog.records] == [(logging.WARNING, None)]


def test_a_server_that_never_answers_is_given_up_after_the_timeout(caplog: pytest.LogCaptureFixture) -> None:
    """A port that takes the connection and never greets: EMAIL_TIMEOUT ends it, long before the deadline."""
    silent = socket.create_server(("127.0.0.1", 0))  # the kernel completes the handshake; nobody answers
    try:
        with caplog.at_level(logging.WARNING, logger="accounts.mail_delivery"):
            server = _server(port=silent.getsockname()[1], timeout=0.3)
            result = asyncio.run(mail_delivery.deliver(_letter(), server, deadline=60))
    finally:
        silent.close()
    assert result == mail_delivery.Result.FAILED
    assert [(r.levelno, r.exc_info) for r in caplog.records] == [(logging.WARNING, None)]
    assert "Timed out waiting for server ready message" in caplog.records[0].getMessage()


def test_mail_to_a_server_that_is_not_there_is_one_warning_per_message_not_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now: every connection is refused
    with _mailer(port), caplog.at_level(logging.WARNING):
        sent = [EmailMessage("Your turn", "It is your turn.", to=["bob@example.com"]).send() for _n in range(3)]
        assert mail_delivery.wait_idle(10)
    assert sent == [1, 1, 1]  # handed over; what became of each is logged
    records = [r for r in caplog.records if r.name == "accounts.mail_delivery"]
    assert len(records) == 3 and all(r.exc_info is None and "failed" in r.getMessage() for r in records)


def test_the_delivery_thread_takes_a_bounded_number_of_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond ``MAX_PENDING`` waiting, a message is dropped (and logged) rather than queued."""
    monkeypatch.setattr(mail_delivery, "MAX_PENDING", 2)
    with Tarpit(every=0.05, limit=400) as tarpit, _mailer(_port(tarpit), deadline=0.5):
        sent = [EmailMessage("Hi", "Hello", to=["bob@example.com"]).send() for _n in range(3)]
        assert mail_delivery.wait_idle(10)
    assert sent == [1, 1, 0]
