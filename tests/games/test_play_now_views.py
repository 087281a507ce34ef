"""The Play now page: ask, wait visibly, cancel, and land in the match once paired."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Match, Seek
from games.services import pairing
from tests.support import client_for

pytestmark = pytest.mark.django_db

PLAY = "/play/"


def ask(client: Any, game: str = "reversi", **fields: str) -> Any:
    return client.post(PLAY, {"game": game, "players": "2", "pace": str(24 * 3600), **fields})


def test_the_page_offers_every_game_and_says_a_request_may_wait_days(alice: Any) -> None:
    page = client_for(alice).get(PLAY).content.decode()
    for name in ("Reversi", "DOS", "Tacocat Spelled Backwards", "Back Alley"):
        assert f"Play {name} now" in page
    assert "may wait hours or even days" in page and "up to 5 requests" in page
    assert 'id="play-dos-players"' in page  # DOS chooses its table size; Reversi's is fixed
    assert 'href="/play/"' in client_for(alice).get(reverse("games:home")).content.decode()


def test_anonymous_visitors_are_sent_to_log_in(client: Any) -> None:
    response = client.get(PLAY)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_asking_shows_the_wait_and_the_second_asker_lands_in_the_match(alice: Any, bob: Any) -> None:
    response = ask(client_for(alice))
    assert response.status_code == 302 and response["Location"] == PLAY
    page = client_for(alice).get(PLAY).content.decode()
    assert 'id="open-seeks"' in page and "Stop waiting" in page and "waiting" in page

    response = ask(client_for(bob))

    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    # Alice's requests (what her page fetches when her live badge changes) now lead to the match.
    fragment = client_for(alice).get(reverse("games:play-seeks")).content.decode()
    assert "Opponents found: open the match" in fragment and match.get_absolute_url() in fragment
    assert 'id="open-seeks"' not in fragment


def test_a_bad_request_is_shown_with_its_reason_and_stores_nothing(alice: Any) -> None:
    response = ask(client_for(alice), pace="17")
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    response = ask(client_for(alice), game="chess")
    assert response.status_code == 302
    assert not Seek.objects.exists()


def test_a_refusal_of_the_service_is_shown_on_the_form(alice: Any) -> None:
    ask(client_for(alice))
    response = ask(client_for(alice))
    assert response.status_code == 422
    assert "You are already waiting for a match like this one." in response.content.decode()
    assert Seek.objects.count() == 1


def test_stopping_to_wait_cancels_the_request_and_only_ones_own(alice: Any, bob: Any) -> None:
    ask(client_for(alice))
    mine = Seek.objects.get()
    response = client_for(bob).post(reverse("games:cancel-seek", args=[mine.pk]), follow=True)
    assert "There is no such request." in response.content.decode()
    assert Seek.objects.get().status == Seek.Status.OPEN

    response = client_for(alice).post(reverse("games:cancel-seek", args=[mine.pk]), follow=True)

    assert "You stopped waiting for that match." in response.content.decode()
    assert Seek.objects.get().status == Seek.Status.CANCELLED


def test_the_page_costs_the_same_queries_however_many_requests_are_open(alice: Any) -> None:
    client = client_for(alice)
    client.get(PLAY)
    with CaptureQueriesContext(connection) as few:
        client.get(PLAY)
    for game, players in [("reversi", 2), ("dos", 3), ("dos", 4), ("tacocat", 2)]:
        pairing.post_seek(user=alice, game=game, players=players, pace_seconds=None, rated=False)
    with CaptureQueriesContext(connection) as many:
        client.get(PLAY)
    assert len(many) == len(few)


def test_a_partner_asked_for_sees_the_ask_and_answers_it_in_one_click(make_user: Any) -> None:
    ann, ben, cat, dan = (make_user(name) for name in ("ann", "ben", "cat", "dan"))
    client_for(ann).post(PLAY, {"game": "backalley", "players": "4", "pace": "", "rated": "on", "partner": "ben"})
    pairing.post_seek(user=cat, game="backalley", players=4, pace_seconds=None, rated=True)
    pairing.post_seek(user=dan, game="backalley", players=4, pace_seconds=None, rated=True)
    page = client_for(ben).get(PLAY).content.decode()
    assert "ann asks you to be partners in Back Alley." in page
    assert 'id="play-backalley-partner"' in page and 'id="play-reversi-partner"' not in page

    response = client_for(ben).post(
        PLAY, {"game": "backalley", "players": "4", "pace": "", "rated": "on", "partner": "ann"}
    )

    match = Match.objects.get()
    assert response["Location"] == match.get_absolute_url() and match.rated
    assert [s.user.username for s in match.seats.order_by("number")][0::2] == ["ann", "ben"]
