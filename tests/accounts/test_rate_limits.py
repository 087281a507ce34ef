"""accounts.throttle.take: a number of uses per sliding window and key, kept in the database."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from accounts.models import ThrottleHit
from accounts.throttle import Rate, take

RATE = Rate("test", 3, timedelta(hours=1))


@pytest.mark.django_db
def test_the_wait_lasts_until_the_oldest_use_leaves_the_window() -> None:
    start = timezone.now()
    assert [take(RATE, "k", now=start + timedelta(minutes=m)) for m in (0, 10, 20)] == [None] * 3
    assert take(RATE, "k", now=start + timedelta(minutes=30)) == 30 * 60
    assert take(RATE, "other", now=start + timedelta(minutes=30)) is None  # keys are apart
    # A refused use is not kept: the wait does not grow by retrying.
    assert take(RATE, "k", now=start + timedelta(minutes=40)) == 20 * 60
    assert take(RATE, "k", now=start + timedelta(minutes=60, seconds=1)) is None
    # Uses that left their window are deleted, whoever made them.
    assert not ThrottleHit.objects.filter(at__lte=start + timedelta(minutes=1)).exists()


@pytest.mark.django_db(transaction=True)
def test_parallel_uses_never_exceed_the_limit() -> None:
    barrier = threading.Barrier(12)
    results: list[int | None] = []

    def use() -> None:
        try:
            barrier.wait()
            results.append(take(RATE, "k"))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=use) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    allowed = [r for r in results if r is None]
    assert len(results) == 12 and 1 <= len(allowed) <= RATE.limit
    assert ThrottleHit.objects.filter(scope="test", key="k").count() == len(allowed)
