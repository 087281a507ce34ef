"""A finished match says how it ended (resigned, out of time, called off, played to the end) and the
score it ended at, on the board, the match page and in history."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Match, Seat
from games.read import ending
from tests.support import client_for

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return re.sub(r"\s+([,.])", r"\1", re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_a_resigned_reversi_game_shows_the_score_the_board_stood_at(reversi_match: Match, alice: Any, bob: Any) -> None:
    services.act(
        match_id=reversi_match.pk, user=alice, action={"type": "place", "square": "d3"}, version=reversi_match.version
    )
    services.resign(match_id=reversi_match.pk, user=bob)

    page = client_for(alice).get(reversi_match.get_absolute_url()).content.decode()
    text = words(page)
    assert "to move" not in text
    assert "You won!" in text and "bob resigned." in text
    assert "Score at the end: alice 4, bob 1" in text
    assert re.search(r'<span class="ended">bob resigned\.</span>', page)

    history = words(client_for(alice).get(reverse("games:history")).content.decode())
    assert "alice (4), bob (1)" in history
    assert "bob resigned." in history


def test_a_timeout_claimed_says_who_ran_out_of_time(reversi_match: Match, alice: Any, bob: Any) -> None:
    services.act(
        match_id=reversi_match.pk, user=alice, action={"type": "place", "square": "d3"}, version=reversi_match.version
    )
    Seat.objects.filter(match=reversi_match, number=1).update(timed_out=True, deadline_at=timezone.now() - timedelta(1))
    services.claim_win(match_id=reversi_match.pk, user=alice)
    history = words(client_for(bob).get(reverse("games:history")).content.decode())
    assert "alice (4), bob (1)" in history
    assert "bob ran out of time." in history


def test_a_game_played_to_the_end_keeps_the_engine_scores() -> None:
    match = Match(game="reversi", status=Match.Status.FINISHED, result={"scores": [40, 24], "ranks": [1, 2]})
    described = ending.describe(match, [])
    assert described == ending.Ending(ending.How.NORMAL, "Played to the end.", [40, 24])


def test_a_called_off_match_says_so(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.abort(match_id=match.pk, user=alice)

    described = ending.describe(Match.objects.get(pk=match.pk), list(match.seats.all()))
    assert described is not None and described.how == ending.How.ABORTED
