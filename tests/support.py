"""Helpers the test modules share."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.test import Client


def client_for(user: Any) -> Client:
    """A test client logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def race(calls: list[Callable[[], Any]]) -> list[str]:
    """Run the calls in threads released at the same instant; each outcome is "ok" or the service's
    refusal code. Each thread closes its own database connections (they are per thread)."""
    from games import services

    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []
    lock = threading.Lock()

    def run(call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            call()
            outcome = "ok"
        except services.MatchError as exc:
            outcome = exc.code
        finally:
            connections.close_all()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes
