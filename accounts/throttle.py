"""Login throttling: after repeated failures for one username, refuse further tries for a while."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core.cache import cache
from django.dispatch import receiver

MAX_FAILURES = 5
LOCKOUT_SECONDS = 300


def _key(username: str) -> str:
    return f"login-failures:{username.strip().lower()}"


def is_locked(username: str) -> bool:
    return cache.get(_key(username), 0) >= MAX_FAILURES


@receiver(user_login_failed)
def _count_failure(sender: Any, credentials: dict[str, Any], **kwargs: Any) -> None:
    username = credentials.get("username") or ""
    key = _key(username)
    cache.add(key, 0, LOCKOUT_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, LOCKOUT_SECONDS)


@receiver(user_logged_in)
def _reset_failures(sender: Any, user: Any, **kwargs: Any) -> None:
    cache.delete(_key(user.get_username()))
