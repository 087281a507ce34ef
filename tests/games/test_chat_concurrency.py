"""The chat rate limit holds when a player's posts arrive all at once (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections
from django.utils import timezone

from games import services
from games.models import ChatMessage

pytestmark = pytest.mark.django_db(transaction=True)

POSTS = 40


def test_forty_parallel_chat_posts_accept_only_the_burst(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    now = timezone.now()
    barrier = threading.Barrier(POSTS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def post(n: int) -> None:
        try:
            barrier.wait()
            services.post_chat(match_id=match.pk, user=alice, text=f"message {n}", now=now)
            outcome = "ok"
        except services.MatchError as exc:
            outcome = exc.code
        finally:
            connections.close_all()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=post, args=(n,)) for n in range(POSTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert outcomes.count("ok") == services.CHAT_BURST, outcomes
    assert set(outcomes) == {"ok", "rate_limited"}
    assert ChatMessage.objects.filter(match=match, user=alice).count() == services.CHAT_BURST
