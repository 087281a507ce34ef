"""Delivering a Web Push: apart from the background work, within a total deadline, to public addresses only.

A push endpoint is an address a stranger gave the server to contact later, so it is treated as hostile:

- Apart: the thread that runs computer players, clocks and emails only hands a push over (``submit``)
  to the delivery thread (``accounts.courier``, shared with the emails), which makes at most
  ``CONCURRENCY`` pushes at once and keeps at most ``MAX_PENDING`` waiting; the outcomes are collected
  (``take_outcomes``) by whoever records them in the database, so that thread never touches it.
- A total deadline: each delivery, from resolving the name to the status line, is cancelled after
  ``DEADLINE_SECONDS`` however slowly the other side trickles its answer (a per-read timeout would
  let an endpoint answering one byte every few seconds hold on for ever), and its socket is closed.
- Public addresses only: every address the endpoint's name resolves to must be public, checked when
  connecting (so a name that changes its answer after the subscription was accepted, DNS rebinding,
  is still caught), and again on the very address each socket connects to (which also covers IP
  literals, in any spelling the resolver accepts).
- Known hosts only: the browsers' push services, plus the operator's ``WEB_PUSH_EXTRA_HOSTS``; https
  only; redirects never followed; no proxy from the environment (it would connect on our behalf).
"""

from __future__ import annotations

import asyncio
import enum
import functools
import ipaddress
import logging
import socket
import ssl
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import certifi
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import ThreadedResolver
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPusher

from accounts.courier import Courier

log = logging.getLogger(__name__)

# The push services of the browsers people use: Chrome, Edge's Chromium, Opera, Brave and Samsung
# Internet (Firebase Cloud Messaging), Firefox (Mozilla autopush), Safari (Apple), and the legacy
# Windows Notification Service. "*.x" is any subdomain of x, not x itself.
KNOWN_HOSTS = (
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "push.services.mozilla.com",
    "*.push.apple.com",
    "*.notify.windows.com",
)
MAX_ENDPOINT_LENGTH = 1000  # the column's length; real endpoints are a few hundred characters
DEADLINE_SECONDS = 10.0  # the whole exchange with one push service
CONCURRENCY = 8  # deliveries in flight at once, per process
MAX_PENDING = 256  # handed over and not finished; beyond it a push is dropped (logged), not queued

# Prefixes that carry an IPv4 address in their last 32 bits (NAT64, IPv4-compatible): ``is_global``
# judges the prefix, not the IPv4 address a gateway would turn it into.
_EMBEDS_IPV4 = (
    ipaddress.ip_network("64:ff9b::/96"),
    ipaddress.ip_network("64:ff9b:1::/48"),
    ipaddress.ip_network("::/96"),
)


class Result(enum.StrEnum):
    DELIVERED = "delivered"  # 2xx: the push service took it
    GONE = "gone"  # 404/410: the subscription no longer exists and never will again
    FAILED = "failed"  # any other status (a redirect included), or the connection failed
    TIMED_OUT = "timed out"  # the deadline passed
    REFUSED = "refused"  # not a known host, or an address that is not public: nothing was sent


@dataclass(frozen=True)
class Job:
    """One push to one subscription, with everything the delivery thread needs (it reads no database)."""

    subscription_id: int
    endpoint: str
    p256dh: str
    auth: str
    data: str  # the JSON the service worker shows
    private_pem: str  # the site's VAPID key
    subject: str
    ttl: int
    handed_at: datetime  # recorded as the last push time once delivered


@dataclass(frozen=True)
class Outcome:
    subscription_id: int
    result: Result
    handed_at: datetime
    status: int | None = None


def is_public(address: str) -> bool:
    """True if ``address`` (an IP address in text) may be reached from the internet at large.

    Refuses loopback, private, link-local, shared (CGNAT), multicast, reserved and unspecified
    addresses, and IPv6 addresses that carry one of those (IPv4-mapped, 6to4, Teredo, NAT64).
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if not ip.is_global or ip.is_multicast:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        carried: list[ipaddress.IPv4Address | None] = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
        if any(ip in network for network in _EMBEDS_IPV4):
            carried.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        return all(inner is None or (inner.is_global and not inner.is_multicast) for inner in carried)
    return True


def _matches(host: str, pattern: str) -> bool:
    if pattern.startswith("*."):
        return host.endswith(pattern[1:]) and len(host) > len(pattern) - 1
    return host == pattern


def _ip_literal(host: str) -> str | None:
    """The address ``host`` spells, if it is one: IPv6, or IPv4 in any form the C library reads
    (``0x7f000001``, ``2130706433``, ``127.1``, ``0177.0.0.1``); None for a name."""
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    try:
        return socket.inet_ntoa(socket.inet_aton(host))
    except OSError:
        return None


def usable_endpoint(endpoint: str) -> bool:
    """The endpoint's form is one this site may contact: https, a known push service's host, no
    credentials, a valid port, not too long. (Its addresses are checked when connecting.)"""
    if not endpoint or len(endpoint) > MAX_ENDPOINT_LENGTH or not endpoint.isascii():
        return False
    parts = urlsplit(endpoint)
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in range
    except ValueError:
        return False
    host = (parts.hostname or "").rstrip(".")
    if not host or parts.username is not None or parts.password is not None:
        return False
    if host in settings.PUSH_TEST_LOOPBACK_HOSTS:
        return parts.scheme in ("https", "http")
    if parts.scheme != "https":
        return False
    literal = _ip_literal(host)
    if literal is not None and not is_public(literal):
        return False
    return any(_matches(host, pattern) for pattern in (*KNOWN_HOSTS, *settings.WEB_PUSH_EXTRA_HOSTS))


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class NotPublic(OSError):
    """The endpoint's name resolved to, or a socket was about to connect to, an address that is not public."""


class _AddressGuard:
    """Checks every address before anything is sent to it; ``loopback_ok`` only for the tests' stand-in."""

    def __init__(self, loopback_ok: bool) -> None:
        self.loopback_ok = loopback_ok
        self.refused: str | None = None

    def check(self, address: str) -> None:
        if is_public(address):
            return
        if self.loopback_ok and _is_loopback(address):
            return
        self.refused = address
        raise NotPublic(f"{address} is not a public address")

    def socket_for(self, addr_info: tuple[Any, ...]) -> socket.socket:
        """aiohttp's socket factory: the last gate, on the very address about to be connected to."""
        family, kind, proto, _name, sockaddr = addr_info
        self.check(sockaddr[0])
        return socket.socket(family=family, type=kind, proto=proto)


class _PublicOnlyResolver(AbstractResolver):
    """Resolves as usual, then refuses the name if any one of its addresses is not public."""

    def __init__(self, guard: _AddressGuard) -> None:
        self._guard = guard
        self._resolver = ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await self._resolver.resolve(host, port, family)
        for entry in found:
            self._guard.check(entry["host"])
        return found

    async def close(self) -> None:
        await self._resolver.close()


def _request(job: Job) -> tuple[bytes, dict[str, str]]:
    """The encrypted body (RFC 8291, aes128gcm) and the headers, VAPID signature (RFC 8292) included."""
    subscription = {"endpoint": job.endpoint, "keys": {"p256dh": job.p256dh, "auth": job.auth}}
    body = WebPusher(subscription).encode(job.data.encode(), "aes128gcm")["body"]
    parts = urlsplit(job.endpoint)
    claims = {"sub": job.subject, "aud": f"{parts.scheme}://{parts.netloc}", "exp": int(time.time()) + 12 * 3600}
    headers = {"TTL": str(job.ttl), "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream"}
    headers.update(Vapid.from_pem(job.private_pem.encode()).sign(claims))
    return body, headers


@functools.cache
def _tls() -> ssl.SSLContext:
    """Certificates checked against Mozilla's roots (certifi), as requests did: not the system's store,
    which a slim container may lack (every push would fail, and every subscription be deleted)."""
    return ssl.create_default_context(cafile=certifi.where())


async def deliver(job: Job, *, deadline: float | None = None) -> Outcome:
    """Send one push; never raises. ``deadline``: seconds for the whole exchange (default ``DEADLINE_SECONDS``)."""

    def outcome(result: Result, status: int | None = None) -> Outcome:
        return Outcome(job.subscription_id, result, job.handed_at, status)

    if not usable_endpoint(job.endpoint):  # stored before these rules, or the allow-list shrank
        return outcome(Result.REFUSED)
    seconds = DEADLINE_SECONDS if deadline is None else deadline
    host = (urlsplit(job.endpoint).hostname or "").rstrip(".")
    guard = _AddressGuard(loopback_ok=host in settings.PUSH_TEST_LOOPBACK_HOSTS)
    try:
        body, headers = _request(job)
        async with asyncio.timeout(seconds):
            connector = aiohttp.TCPConnector(
                ssl=_tls(),
                resolver=_PublicOnlyResolver(guard),
                socket_factory=guard.socket_for,
                use_dns_cache=False,  # resolved afresh, and checked, for every delivery
                force_close=True,
                limit=1,
            )
            async with (
                aiohttp.ClientSession(
                    connector=connector, trust_env=False, timeout=aiohttp.ClientTimeout(total=seconds)
                ) as session,
                session.post(job.endpoint, data=body, headers=headers, allow_redirects=False) as response,
            ):
                status = response.status  # the body is never read: a push service says all in the status
    except TimeoutError:
        return outcome(Result.TIMED_OUT)
    except Exception as exc:  # a connection error, a bad key, a refused address: all one failed delivery
        if guard.refused is not None:
            log.warning("Push to subscription %s refused: %s is not public", job.subscription_id, guard.refused)
            return outcome(Result.REFUSED)
        log.warning("Push to subscription %s failed: %r", job.subscription_id, exc)
        return outcome(Result.FAILED)
    if 200 <= status < 300:
        return outcome(Result.DELIVERED, status)
    if status in (404, 410):
        return outcome(Result.GONE, status)
    log.warning("Push to subscription %s failed: HTTP %s", job.subscription_id, status)
    return outcome(Result.FAILED, status)


_courier: Courier[Outcome] = Courier("push", CONCURRENCY)


def submit(job: Job) -> bool:
    """Deliver ``job`` on the delivery thread; returns at once (False: dropped, too many waiting)."""
    return _courier.submit(
        lambda: deliver(job),
        max_pending=MAX_PENDING,
        if_crashed=Outcome(job.subscription_id, Result.FAILED, job.handed_at),
    )


def take_outcomes() -> list[Outcome]:
    """The outcomes of the deliveries finished since the last call (each is handed out once)."""
    return _courier.take_outcomes()


def wait_idle(timeout: float | None = None) -> bool:
    """Wait until every delivery handed over has finished (``run_worker --once``, tests). Each ends
    within its deadline, so without a timeout this waits at most MAX_PENDING / CONCURRENCY deadlines."""
    return _courier.wait_idle(timeout)
