"""Login throttling on top of django-axes, and rate limits for other costly or mail-sending actions;
both keep their state in the database, so they hold across processes and restarts.

Two keys, each with its own limit within a cool-off window:
- an account from one client address (``LOGIN_FAILURES_PER_ACCOUNT_AND_CLIENT``): someone guessing a
  password is stopped, yet nobody can lock a player out of their own account from somewhere else;
- a client address alone (``LOGIN_FAILURES_PER_CLIENT``, higher): one client spraying many
  usernames is stopped too.

axes' backend and middleware guard every form that authenticates, the admin's included, and every form
that checks a password asks through authenticate() (accounts.forms.is_current_password).

Rate limits (``take``): a number of uses per sliding window and key, e.g. archive downloads per account
or password-reset requests per address and per client.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_lockout_parameters
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.models import ThrottleHit

# Which setting limits each of axes' lockout parameter sets (settings.AXES_LOCKOUT_PARAMETERS).
LIMIT_SETTINGS = {
    ("ip_address", "username"): "LOGIN_FAILURES_PER_ACCOUNT_AND_CLIENT",
    ("ip_address",): "LOGIN_FAILURES_PER_CLIENT",
}


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: the socket peer, or a proxy's header when the deployment names one.

    ``TRUSTED_PROXY_HEADER`` (e.g. ``X-Forwarded-For``) is honoured only when set, because any client
    can send that header. Each trusted proxy appends the address it saw, so with
    ``TRUSTED_PROXY_COUNT`` proxies the client is that many entries from the right; entries further
    left were written by the client and are ignored.
    """
    header = settings.TRUSTED_PROXY_HEADER
    if header:
        meta_key = "HTTP_" + header.upper().replace("-", "_")
        hops = [hop.strip() for hop in request.META.get(meta_key, "").split(",") if hop.strip()]
        count = settings.TRUSTED_PROXY_COUNT
        if count >= 1 and len(hops) >= count:
            try:
                return str(ipaddress.ip_address(hops[-count]))
            except ValueError:
                pass
    return request.META.get("REMOTE_ADDR")


@dataclass(frozen=True)
class Lock:
    """Why logins are refused and when they are allowed again."""

    whole_client: bool  # True: every account from this address; False: one account from this address
    until: datetime


class LoginThrottleHandler(AxesDatabaseHandler):
    """axes' database handler with a separate limit per lockout key."""

    def _limited_attempts(self, request: HttpRequest, credentials: dict | None) -> list[tuple[tuple, int, QuerySet]]:
        parameter_sets = get_lockout_parameters(request, credentials)
        attempts = self.get_user_attempts(request, credentials)
        limited = []
        for parameters, queryset in zip(parameter_sets, attempts, strict=True):
            key = tuple(sorted([parameters] if isinstance(parameters, str) else parameters))
            limited.append((key, getattr(settings, LIMIT_SETTINGS[key]), queryset))
        return limited

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        # axes compares one count with one limit (AXES_FAILURE_LIMIT). Report the key nearest its own
        # limit, shifted onto that scale, so axes locks exactly when any key reaches its limit.
        headroom = min(
            limit - (queryset.aggregate(n=Sum("failures_since_start"))["n"] or 0)
            for _key, limit, queryset in self._limited_attempts(request, credentials)
        )
        return settings.AXES_FAILURE_LIMIT - headroom

    def reset_user_attempts(self, request: HttpRequest, credentials: dict | None = None) -> int:
        # A good login clears that account's failures from this client only: resetting the whole
        # address would let a sprayer wipe its count by logging in to an account of its own.
        username = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(username=username, ip_address=request.axes_ip_address).delete()
        return count

    def lock(self, request: HttpRequest, credentials: dict | None = None) -> Lock | None:
        """The lock holding this request back, if any, with the moment it lifts."""
        cool_off = get_cool_off(request)
        locks = []
        for key, limit, queryset in self._limited_attempts(request, credentials):
            rows = list(queryset.order_by("attempt_time").values_list("attempt_time", "failures_since_start"))
            total = sum(failures for _time, failures in rows)
            if total < limit:
                continue
            # Each row leaves the window cool_off after its last failure; the lock lifts when enough
            # of the oldest have left that the rest are under the limit.
            for attempt_time, failures in rows:
                total -= failures
                if total < limit:
                    locks.append(Lock(whole_client=key == ("ip_address",), until=attempt_time + cool_off))
                    break
        if not locks:
            return None
        return Lock(whole_client=any(lock.whole_client for lock in locks), until=max(lock.until for lock in locks))


def lockout_response(request: HttpRequest, *_args: Any) -> HttpResponse:
    """The page shown instead of a login form's answer while a lock holds: why, and when to try again.

    axes passes (response, credentials) on its sync path but only (credentials) on its async path
    (8.3.1's middleware), so neither is read here: the request carries what is needed.
    """
    # axes keeps the credentials of the refused try; forms with no username field (the email change,
    # which asks for the password) are covered by them.
    credentials = getattr(request, "axes_credentials", None) or {}
    username = credentials.get("username") or request.POST.get("username", "")
    lock = LoginThrottleHandler().lock(request, {"username": username})
    now = timezone.now()
    until = lock.until if lock else now + get_cool_off(request)
    context = {
        "username": username,
        "whole_client": lock.whole_client if lock else False,
        "until": until,
        # Rounded up: "try again in 15 minutes" must not send someone back a minute early.
        "minutes": max(1, math.ceil((until - now).total_seconds() / 60)),
    }
    return render(request, "registration/locked_out.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)


@dataclass(frozen=True)
class Rate:
    """At most ``limit`` uses per ``window`` for each key of ``scope``."""

    scope: str
    limit: int
    window: timedelta


def take(rate: Rate, key: str, *, now: datetime | None = None) -> int | None:
    """Count one use by ``key``: None when allowed, else the seconds until a use would be.

    Written first and counted after, each in its own autocommit statement: of uses racing each other
    the last to be written sees all the others, so the limit is never exceeded (at worst, racing uses
    are all refused). A refused use is not kept: retrying does not push the wait further away.
    """
    now = now or timezone.now()
    since = now - rate.window
    # Uses that left their window are of no more use, whoever made them: the table stays small.
    ThrottleHit.objects.filter(scope=rate.scope, at__lte=since).delete()
    hit = ThrottleHit.objects.create(scope=rate.scope, key=key, at=now)
    others = list(
        ThrottleHit.objects.filter(scope=rate.scope, key=key, at__gt=since)
        .exclude(pk=hit.pk)
        .order_by("at")
        .values_list("at", flat=True)
    )
    if len(others) < rate.limit:
        return None
    hit.delete()
    # Allowed again once enough of the oldest uses have left the window to leave room for one more.
    frees_at = others[len(others) - rate.limit] + rate.window
    return max(1, math.ceil((frees_at - now).total_seconds()))


def too_many(request: HttpRequest, message: str, retry_after: int) -> HttpResponse:
    """The 429 page: what was refused and when to try again, in words and in ``Retry-After``."""
    until = timezone.now() + timedelta(seconds=retry_after)
    # Rounded up, as on the lockout page: "in 15 minutes" must not send someone back a minute early.
    context = {"message": message, "minutes": max(1, math.ceil(retry_after / 60)), "until": until}
    response = render(request, "too_many_requests.html", context, status=429)
    response["Retry-After"] = str(retry_after)
    return response
