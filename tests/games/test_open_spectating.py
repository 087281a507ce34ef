"""Public matches can be watched without an account; the lobby is open to all and refreshes itself."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Match

pytestmark = pytest.mark.django_db


def test_watching_without_an_account_stores_nothing(reversi_match: Match) -> None:
    """No session row, no cookie of one, per page a guest views (a crawler would otherwise fill the table)."""
    client = Client()
    before = (Session.objects.count(), User.objects.count())
    for url in (reversi_match.get_absolute_url(), reverse("games:lobby"), reverse("games:leaderboards")):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "sessionid" not in response.cookies
    client.get(reverse("games:lobby"), headers={"HX-Request": "true"})
    assert (Session.objects.count(), User.objects.count()) == before


def test_the_lobby_shows_guests_what_they_may_watch_and_join(alice: Any, reversi_match: Match) -> None:
    waiting = services.create_match(user=alice, game="dos", players=2)
    private = services.create_match(user=alice, game="tacocat", players=2, is_public=False)
    html = Client().get(reverse("games:lobby")).content.decode()
    assert f"#{waiting.pk}<" in html and f"#{reversi_match.pk}<" in html and f"#{private.pk}<" not in html
    # "Join" for a guest: log in (or sign up from there), then back to that match's page.
    assert f'href="/accounts/login/?next=/m/{waiting.pk}/"' in html
    assert 'action="/lobby/challenge/"' not in html  # posting a challenge needs an account


def test_the_lobby_lists_refresh_themselves_as_a_fragment(alice: Any) -> None:
    page = Client().get(reverse("games:lobby")).content.decode()
    assert 'hx-get="/lobby/" hx-trigger="every 15s" hx-swap="outerHTML"' in page
    services.create_match(user=alice, game="dos", players=2)
    fragment = Client().get(reverse("games:lobby"), headers={"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith('<div id="lobby-lists"') and "<html" not in fragment
    assert "DOS" in fragment


@pytest.mark.parametrize("signed_in", [False, True], ids=["guest", "player"])
def test_the_lobby_costs_the_same_queries_however_many_matches(make_user: Any, carol: Any, signed_in: bool) -> None:
    client = Client()
    if signed_in:
        client.force_login(carol)
    counts = []
    for total in (1, 8):
        while Match.objects.filter(status=Match.Status.WAITING).count() < total:
            creator = make_user(f"maker{Match.objects.count()}")
            services.create_match(user=creator, game="dos", players=2)
            live = services.create_match(user=creator, game="reversi", players=2)
            services.join_match(match_id=live.pk, user=make_user(f"joiner{live.pk}"))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("games:lobby"), headers={"HX-Request": "true"}).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_join_from_a_guest_goes_to_log_in_and_back_to_the_match(alice: Any) -> None:
    waiting = services.create_match(user=alice, game="dos", players=2)
    response = Client().post(reverse("games:join", args=[waiting.pk]))
    assert response.status_code == 302 and response["Location"] == f"/accounts/login/?next=/m/{waiting.pk}/"
    htmx = Client().post(reverse("games:join", args=[waiting.pk]), headers={"HX-Request": "true"})
    assert htmx["HX-Redirect"] == f"/accounts/login/?next=/m/{waiting.pk}/"
    assert waiting.seats.filter(user__isnull=False).count() == 1


def test_every_rules_page_says_how_to_find_opponents() -> None:
    from games import registry

    for game in registry.all_games():
        page = Client().get(reverse("games:rules", args=[game.slug])).content.decode()
        section = page[page.index('id="finding-opponents"') :]
        assert "invitation link" in section and 'href="/lobby/"' in section, game.slug
        assert f'href="/leaderboard/{game.slug}/"' in section, game.slug


def test_a_guests_match_page_costs_the_same_queries_at_move_2_and_move_20(
    reversi_match: Match, alice: Any, bob: Any
) -> None:
    from tests.games.test_views import play_random_moves

    client = Client()
    counts = []
    for moves in (2, 20):
        play_random_moves(reversi_match, {0: alice, 1: bob}, moves - reversi_match.move_count)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reversi_match.get_absolute_url()).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
