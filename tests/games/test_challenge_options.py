"""A challenge chooses its terms like a new match: game, players, pace, rated or casual, the game's
options; the challenged person sees them before answering (inbox, challenge page, email)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.background import notify
from games.models import Challenge, Match, Seat
from games.services import challenges
from tests.support import client_for

pytestmark = pytest.mark.django_db

DOS_TERMS = "3 players · 1 day per move · casual · Points to win: 100 points (short)"


def test_a_challenge_with_options_makes_a_private_match_on_those_terms(alice: Any, bob: Any) -> None:
    form = {"game": "dos", "players": "3", "seat_2": "bot", "level_2": "hard", "pace": "86400", "option_target": "100"}
    response = client_for(alice).post(reverse("games:challenge-player", args=["bob"]), form)
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    assert (match.game, match.player_count, match.pace_seconds, match.options) == ("dos", 3, 86400, {"target": 100})
    assert not match.is_public and not match.rated
    assert [(s.user, s.reserved_for, s.is_bot, s.bot_level) for s in match.seats.order_by("number")] == [
        (alice, None, False, Seat.BotLevel.MEDIUM),
        (None, bob, False, Seat.BotLevel.MEDIUM),
        (None, None, True, Seat.BotLevel.HARD),
    ]
    assert match.terms == DOS_TERMS
    # Bob sees the terms before answering: in his inbox, on the match page, in the email.
    assert DOS_TERMS in client_for(bob).get(reverse("games:home")).content.decode()
    page = client_for(bob).get(match.get_absolute_url()).content.decode()
    assert "alice challenges you to this match." in page and DOS_TERMS in page
    mail.outbox.clear()
    notify.send_due(timezone.now() + timedelta(minutes=2))
    [email] = mail.outbox
    assert email.to == ["bob@example.com"] and DOS_TERMS in email.body


def test_a_rated_challenge_between_two_people(alice: Any, bob: Any) -> None:
    form = {"game": "reversi", "players": "2", "pace": "", "rated": "on"}
    client_for(alice).post(reverse("games:challenge-player", args=["bob"]), form)
    match = Match.objects.get()
    assert match.rated and "rated" in match.terms.split(" · ")
    challenges.accept(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.rated


def test_a_rated_challenge_with_a_computer_seat_is_refused_and_changes_nothing(alice: Any, bob: Any) -> None:
    form = {"game": "dos", "players": "3", "seat_2": "bot", "rated": "on"}
    response = client_for(alice).post(reverse("games:challenge-player", args=["bob"]), form)
    assert response.status_code == 200
    assert "A match with computer players is always casual" in response.content.decode()
    assert not Match.objects.exists() and not Challenge.objects.exists()
    with pytest.raises(services.MatchError) as error:
        challenges.challenge_player(user=alice, username="bob", game="dos", players=3, bot_seats={2}, rated=True)
    assert error.value.code == "invalid" and not Match.objects.exists()


def test_a_rated_challenge_leaves_the_other_seats_to_people_the_challenger_invites(
    alice: Any, bob: Any, carol: Any
) -> None:
    form = {"game": "dos", "players": "3", "seat_2": "human", "rated": "on"}
    client_for(alice).post(reverse("games:challenge-player", args=["bob"]), form)
    match = Match.objects.get()
    assert match.rated and [s.is_bot for s in match.seats.order_by("number")] == [False, False, False]
    challenges.accept(match_id=match.pk, user=bob)
    services.join_match(match_id=match.pk, user=carol, token=match.invite_token)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_the_challenged_seat_cannot_be_given_to_a_computer(alice: Any, bob: Any) -> None:
    with pytest.raises(services.MatchError) as error:
        challenges.challenge_player(user=alice, username="bob", game="dos", players=3, bot_seats={1, 2})
    assert error.value.message == "Seat 2 is kept for the player you challenge."
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    "form",
    [
        {"game": "dos", "players": "7"},
        {"game": "reversi", "players": "3"},
        {"game": "dos", "pace": "12345"},
        {"game": "dos", "option_target": "250"},
        {"game": "tacocat", "option_tie_rule": "coin"},
        {"game": "dos", "players": "3", "seat_2": "robot"},
    ],
)
def test_terms_the_new_match_form_would_refuse_are_refused(alice: Any, bob: Any, form: dict[str, str]) -> None:
    response = client_for(alice).post(reverse("games:challenge-player", args=["bob"]), form)
    assert response.status_code == 200 and 'role="alert"' in response.content.decode()
    assert not Match.objects.exists() and not Challenge.objects.exists()


def test_the_challenge_page_offers_the_new_match_forms_choices_in_constant_queries(alice: Any, bob: Any) -> None:
    client = client_for(alice)
    url = reverse("games:challenge-player", args=["bob"])
    with CaptureQueriesContext(connection) as few:
        page = client.get(url, {"game": "dos"})
    text = page.content.decode()
    assert page.status_code == 200 and "Challenge bob" in text
    for field in ('name="players"', 'name="pace"', 'name="rated"', 'name="option_target"'):
        assert field in text
    assert 'name="is_public"' not in text and 'name="seat_1"' not in text  # private, and seat 2 is bob's
    for _ in range(3):
        challenges.challenge_player(user=alice, username="bob", game="reversi")
    with CaptureQueriesContext(connection) as many:
        client.get(url, {"game": "dos"})
    assert len(many) == len(few)
    # Another player count redraws the seats (htmx), creating nothing.
    redrawn = client.post(url, {"game": "dos", "players": "4", "refresh": "1"}, headers={"HX-Request": "true"})
    assert 'name="seat_3"' in redrawn.content.decode() and Match.objects.count() == 3
