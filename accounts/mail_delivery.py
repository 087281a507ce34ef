"""Sending email apart from the background work and the requests, within a total deadline.

Django's SMTP backend talks to the mail server on the caller's thread: the thread that runs computer
players and clocks (turn notices, reminders) or a request thread (links, password resets). A server
that accepts and never answers, or answers a byte every few seconds (a per-read timeout never fires
then), would hold that thread for minutes. This backend, the one production uses once ``EMAIL_HOST``
is set, only composes each message on the caller's thread and hands it to the delivery thread
(``accounts.courier``, shared with the pushes), which sends at most ``CONCURRENCY`` at once, keeps at
most ``MAX_PENDING`` waiting, and cuts every delivery off after ``deadline`` seconds, from connecting
to the server's last answer. A failure is one line in the log, not a traceback per notice.

Options (``MAILERS["default"]["OPTIONS"]``): those of Django's SMTP backend (host, port, username,
password, use_tls for STARTTLS, use_ssl, timeout for each exchange with the server, ssl_certfile,
ssl_keyfile), plus ``deadline``.
"""

from __future__ import annotations

import asyncio
import atexit
import email.policy
import enum
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiosmtplib
from django.core.mail import EmailMessage
from django.core.mail.backends.smtp import EmailBackend as SMTPEmailBackend
from django.core.mail.utils import DNS_NAME

from accounts.courier import Courier

log = logging.getLogger(__name__)

DEADLINE_SECONDS = 60.0  # the whole exchange with the mail server, for one message
CONCURRENCY = 4  # messages in flight at once, per process: a mail server limits connections per client
MAX_PENDING = 1000  # handed over and not sent; beyond it a message is dropped (logged), not queued


class Result(enum.StrEnum):
    SENT = "sent"
    FAILED = "failed"  # refused, or the connection failed
    TIMED_OUT = "timed out"  # the deadline passed


@dataclass(frozen=True)
class Letter:
    """One message, ready for the wire: the delivery thread needs nothing else (no Django objects)."""

    sender: str
    recipients: tuple[str, ...]
    data: bytes
    subject: str  # for the log only


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    username: str
    password: str
    starttls: bool
    ssl: bool
    timeout: float | None
    tls: Any  # an ssl.SSLContext, or None for plain connections


async def deliver(letter: Letter, server: Server, *, deadline: float | None = None) -> Result:
    """Send one message; never raises. ``deadline``: seconds for the whole exchange (default ``DEADLINE_SECONDS``)."""
    seconds = DEADLINE_SECONDS if deadline is None else deadline
    cut_off = asyncio.timeout(seconds)
    try:
        async with cut_off:
            # Django's cached name for this machine; looking it up may wait on DNS, so not on this loop.
            local_hostname = await asyncio.to_thread(DNS_NAME.get_fqdn)
            await aiosmtplib.send(
                letter.data,
                sender=letter.sender,
                recipients=list(letter.recipients),
                hostname=server.host,
                port=server.port,
                username=server.username or None,
                password=server.password or None,
                local_hostname=local_hostname,
                timeout=server.timeout,  # each exchange (EMAIL_TIMEOUT); its expiry is a failure like any other
                use_tls=server.ssl,
                start_tls=server.starttls,  # as Django: STARTTLS when asked to, never by chance
                tls_context=server.tls,
            )
    except Exception as exc:  # a refused recipient, a lost connection, a bad password: all one failed message
        if cut_off.expired():
            count = len(letter.recipients)
            log.warning("Email %r to %s recipient(s) cut off after %s s", letter.subject, count, seconds)
            return Result.TIMED_OUT
        log.warning("Email %r to %s recipient(s) failed: %r", letter.subject, len(letter.recipients), exc)
        return Result.FAILED
    return Result.SENT


_courier: Courier[Result] = Courier("email", CONCURRENCY, keep_outcomes=False)


def wait_idle(timeout: float | None = None) -> bool:
    """Wait until every message handed over has been sent or given up (``run_worker --once``, tests)."""
    return _courier.wait_idle(timeout)


@atexit.register
def _send_before_exit() -> None:
    # A command that sends mail and ends (sendtestemail, a shell) would otherwise drop it unsent.
    wait_idle(DEADLINE_SECONDS)


class EmailBackend(SMTPEmailBackend):
    """Django's SMTP backend, its options included, with the sending handed to the delivery thread."""

    def __init__(self, *args: Any, deadline: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline = deadline

    def open(self) -> bool:
        return False  # each delivery makes its own connection, on the delivery thread

    def close(self) -> None:
        return None

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        """Hand each message over; returns how many were (not how many the server has taken yet)."""
        use_tls = bool(self.use_tls or self.use_ssl)
        server = Server(
            host=self.host,
            port=int(self.port),
            username=self.username or "",
            password=self.password or "",
            starttls=bool(self.use_tls),
            ssl=bool(self.use_ssl),
            timeout=self.timeout,
            tls=self.ssl_context if use_tls else None,
        )
        handed = 0
        for message in email_messages:
            if not message.recipients():
                continue
            letter = Letter(
                sender=self.prep_address(message.from_email),
                recipients=tuple(self.prep_address(address) for address in message.recipients()),
                data=message.message(policy=email.policy.SMTP).as_bytes(),
                subject=str(message.subject),
            )
            if _courier.submit(
                lambda letter=letter: deliver(letter, server, deadline=self.deadline),
                max_pending=MAX_PENDING,
                if_crashed=Result.FAILED,
            ):
                handed += 1
            else:
                log.warning("Email %r dropped: %s messages are waiting already", letter.subject, MAX_PENDING)
        return handed
