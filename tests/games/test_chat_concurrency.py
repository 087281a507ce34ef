"""The chat rate limit holds when a player's posts arrive all at once (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import ChatMessage
from tests.support import race

pytestmark = pytest.mark.django_db(transaction=True)

POSTS = 40


def test_forty_parallel_chat_posts_accept_only_the_burst(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    now = timezone.now()
    outcomes = race(
        [
            lambda n=n: services.post_chat(match_id=match.pk, user=alice, text=f"message {n}", now=now)
            for n in range(POSTS)
        ]
    )

    assert outcomes.count("ok") == services.CHAT_BURST, outcomes
    assert set(outcomes) == {"ok", "rate_limited"}
    assert ChatMessage.objects.filter(match=match, user=alice).count() == services.CHAT_BURST
