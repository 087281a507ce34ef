"""What production does with email when no server is configured: drop it, and say so once."""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.core.mail.backends.dummy import EmailBackend as DummyEmailBackend

log = logging.getLogger("turnwise.email")

_warned = threading.Event()


def warn_once() -> None:
    """One warning per process (at its start, and again never): not one traceback per notice."""
    if not _warned.is_set():
        _warned.set()
        log.warning(
            "Email is not configured (DEBUG is off and EMAIL_HOST is not set): notices and links by email "
            "are dropped. Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, "
            "EMAIL_USE_TLS) to send them; see docs/deployment.md."
        )


def warn_if_unconfigured() -> None:
    """The warning above, at a process's start, if this process drops its mail."""
    from django.conf import settings

    if settings.MAILERS["default"]["BACKEND"] == "config.mail.UnconfiguredEmailBackend":
        warn_once()


class UnconfiguredEmailBackend(DummyEmailBackend):
    """Django's dummy backend (every message dropped, reported as sent), with the warning above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warn_once()
        super().__init__(*args, **kwargs)
