"""The turn inbox: your turn first, longest waiting first, with how long and until when; next match."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Match, Seat
from tests.support import client_for

pytestmark = pytest.mark.django_db


def started(alice: Any, bob: Any, **kwargs: Any) -> Match:
    match = services.create_match(user=alice, game="reversi", players=2, **kwargs)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match


def test_your_turn_matches_come_first_longest_waiting_first(alice: Any, bob: Any) -> None:
    older, newer = started(alice, bob, pace_seconds=3 * 24 * 3600), started(alice, bob)
    theirs = started(bob, alice)  # bob is Black there: waiting on bob
    now = timezone.now()
    Seat.objects.filter(match=older, number=0).update(waiting_since=now - timedelta(hours=5))
    Seat.objects.filter(match=newer, number=0).update(waiting_since=now - timedelta(hours=1))
    body = client_for(alice).get(reverse("games:home")).content.decode()
    yours = body.split('id="your-turn-list"')[1].split("</ul>")[0]
    assert yours.index(f"#{older.pk}<") < yours.index(f"#{newer.pk}<")
    assert f"#{theirs.pk}<" not in yours
    assert "waiting 5\xa0hours" in yours
    assert "left" in yours  # the older match has a deadline
    assert body.index("Waiting on others") < body.index(f"#{theirs.pk}<")


def test_after_moving_the_page_offers_the_next_match_waiting(alice: Any, bob: Any) -> None:
    first, second = started(alice, bob), started(alice, bob)
    client = client_for(alice)
    response = client.post(
        reverse("games:act", args=[first.pk]),
        {"version": first.version, "type": "place", "square": "d3"},
        headers={"HX-Request": "true"},
    )
    body = response.content.decode()
    assert "Next match waiting on you" in body and f'href="/m/{second.pk}/"' in body


def test_the_navigation_badge_counts_your_turns(alice: Any, bob: Any) -> None:
    started(alice, bob)
    started(alice, bob)
    body = client_for(alice).get(reverse("games:lobby")).content.decode()
    assert 'data-count="2"' in body and "<title>(2) " in body
