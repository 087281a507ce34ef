"""Match chat (players write, spectators read) and rematches with seats rotated."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import ChatMessage, Match
from tests.support import client_for

pytestmark = pytest.mark.django_db


def test_players_chat_and_the_text_is_escaped(reversi_match: Match, alice: Any, bob: Any) -> None:
    url = reverse("games:chat", args=[reversi_match.pk])
    response = client_for(alice).post(
        url, {"text": "<script>alert(1)</script> good luck"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; good luck" in body and "<script>alert" not in body
    page = client_for(bob).get(reversi_match.get_absolute_url()).content.decode()
    assert "good luck" in page and 'id="chat-form"' in page


def test_spectators_read_the_chat_but_cannot_write(reversi_match: Match, alice: Any, carol: Any) -> None:
    services.post_chat(match_id=reversi_match.pk, user=alice, text="hello")
    client = client_for(carol)
    page = client.get(reversi_match.get_absolute_url()).content.decode()
    assert "hello" in page and 'id="chat-form"' not in page
    response = client.post(
        reverse("games:chat", args=[reversi_match.pk]), {"text": "hi"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 403
    assert ChatMessage.objects.count() == 1


def test_chat_messages_are_length_limited(reversi_match: Match, alice: Any) -> None:
    with pytest.raises(services.MatchError) as error:
        services.post_chat(match_id=reversi_match.pk, user=alice, text="x" * 501)
    assert "at most 500" in error.value.message
    with pytest.raises(services.MatchError):
        services.post_chat(match_id=reversi_match.pk, user=alice, text="   ")
    assert not ChatMessage.objects.exists()


def test_chat_is_rate_limited(reversi_match: Match, alice: Any) -> None:
    now = timezone.now()
    for i in range(5):
        services.post_chat(match_id=reversi_match.pk, user=alice, text=f"m{i}", now=now + timedelta(seconds=i))
    with pytest.raises(services.MatchError) as error:
        services.post_chat(match_id=reversi_match.pk, user=alice, text="too fast", now=now + timedelta(seconds=6))
    assert error.value.code == "rate_limited"
    services.post_chat(match_id=reversi_match.pk, user=alice, text="later", now=now + timedelta(seconds=40))
    assert ChatMessage.objects.count() == 6


def test_a_rematch_rotates_the_seats_and_starts_when_the_other_accepts(
    reversi_match: Match, alice: Any, bob: Any, carol: Any
) -> None:
    services.resign(match_id=reversi_match.pk, user=bob)
    rematch = services.offer_rematch(match_id=reversi_match.pk, user=bob)
    assert services.offer_rematch(match_id=reversi_match.pk, user=alice) == rematch  # offered once
    seats = list(rematch.seats.all())
    # Each seat moves one along: alice (Black, seat 0) gets White, bob (White, seat 1) gets Black.
    assert (seats[0].user, seats[1].reserved_for) == (bob, alice)
    with pytest.raises(services.MatchError):
        services.join_match(match_id=rematch.pk, user=carol)  # the seat is kept for alice
    services.join_match(match_id=rematch.pk, user=alice)
    rematch.refresh_from_db()
    assert rematch.status == Match.Status.ACTIVE
    assert [s.user for s in rematch.seats.all()] == [bob, alice]


def test_a_rematch_against_the_computer_starts_at_once(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1})
    services.resign(match_id=match.pk, user=alice)
    rematch = services.offer_rematch(match_id=match.pk, user=alice)
    assert rematch.status == Match.Status.ACTIVE
    assert [(s.number, s.is_bot, s.user) for s in rematch.seats.all()] == [(0, True, None), (1, False, alice)]


def test_rematch_is_offered_on_the_result_screen(reversi_match: Match, alice: Any, bob: Any) -> None:
    services.resign(match_id=reversi_match.pk, user=bob)
    page = client_for(alice).get(reversi_match.get_absolute_url()).content.decode()
    assert "Offer a rematch" in page
    # The records to keep: a replay, the JSON, and Reversi's move list (the game has a transcript).
    for link in ("/replay/", "/export.json", "/export.txt"):
        assert link in page, link
    response = client_for(alice).post(reverse("games:rematch", args=[reversi_match.pk]))
    new = Match.objects.get(rematch_of=reversi_match)
    assert response["Location"] == new.get_absolute_url()
    assert "Go to the rematch" in client_for(bob).get(reversi_match.get_absolute_url()).content.decode()
