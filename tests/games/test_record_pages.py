"""Profiles, leaderboards and the record's read-only API: what grows with play, in constant queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Match
from games.record import ratings
from tests.support import client_for

pytestmark = pytest.mark.django_db


def rated_win(winner: Any, loser: Any, game: str = "reversi") -> Match:
    match = services.create_match(user=winner, game=game, players=2, rated=True)
    services.join_match(match_id=match.pk, user=loser)
    services.resign(match_id=match.pk, user=loser)
    return match


def test_the_result_screen_shows_each_players_rating_change(alice: Any, bob: Any) -> None:
    match = rated_win(alice, bob)
    page = client_for(bob).get(reverse("games:match", args=[match.pk])).content.decode()
    changes = ratings.changes_for(match)
    assert f"rating 1500 → {changes[0]['after']} (+{changes[0]['delta']})" in page
    assert f"rating 1500 → {changes[1]['after']} ({changes[1]['delta']})" in page
    assert "Rated match." in page


def test_the_profile_shows_ratings_and_a_rating_chart_with_a_text_alternative(alice: Any, bob: Any) -> None:
    for _ in range(3):
        rated_win(alice, bob)
    page = client_for(bob).get(reverse("accounts:profile", args=["alice"])).content.decode()
    after = [value for _at, value in ratings.history(alice, "reversi")]
    assert len(after) == 3 and after == sorted(after)
    assert '<svg viewBox="0 0 640 220" role="img"' in page
    assert page.count('class="point"') == 3
    for value in after:
        assert f"<td>{value}</td>" in page  # the table that says what the chart shows
    assert "provisional" in page


def test_the_profile_compares_two_players_head_to_head(alice: Any, bob: Any, carol: Any) -> None:
    rated_win(alice, bob)
    rated_win(bob, alice)
    rated_win(alice, bob)
    rated_win(alice, carol)
    page = client_for(carol).get(reverse("accounts:profile", args=["alice"]), {"vs": "bob"}).content.decode()
    assert "alice's results in finished matches with bob" in page
    assert '<th scope="row">Reversi</th><td>2</td><td>1</td><td>0</td>' in page


def private_win(winner: Any, loser: Any) -> Match:
    match = services.create_match(user=winner, game="reversi", players=2, is_public=False)
    services.join_match(match_id=match.pk, user=loser, token=match.invite_token)
    services.resign(match_id=match.pk, user=loser)
    return match


def test_the_head_to_head_counts_only_the_matches_the_viewer_may_see(alice: Any, bob: Any, carol: Any) -> None:
    """A private match between alice and bob counts for them, never for carol (an outsider)."""
    rated_win(alice, bob)
    private_win(alice, bob)
    private_win(bob, alice)
    url = reverse("accounts:profile", args=["alice"])
    outsider = client_for(carol).get(url, {"vs": "bob"}).content.decode()
    assert '<th scope="row">Reversi</th><td>1</td><td>0</td><td>0</td>' in outsider
    player = client_for(bob).get(url, {"vs": "bob"}).content.decode()
    assert '<th scope="row">Reversi</th><td>2</td><td>1</td><td>0</td>' in player
    # Only private matches together: carol is told they have none she may see.
    private_win(carol, bob)
    seen_by_alice = client_for(alice).get(reverse("accounts:profile", args=["carol"]), {"vs": "bob"}).content.decode()
    assert "carol and bob have not finished a match together yet." in seen_by_alice


@pytest.mark.parametrize("vs", ["\x00", "bob\x00", "\x00" * 3, "b" * 100_000, " " * 200])
def test_an_opponent_no_username_could_be_is_never_looked_up(alice: Any, bob: Any, vs: str) -> None:
    """NUL characters (PostgreSQL refuses them in a query: a 500) and oversized names never reach the database."""
    rated_win(alice, bob)
    sent: list[Any] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.extend(str(p) for p in params or ())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        response = client_for(bob).get(reverse("accounts:profile", args=["alice"]), {"vs": vs})
    assert response.status_code == 200
    assert sent and not any("\x00" in p or "b" * 151 in p or " " * 151 in p for p in sent)
    assert "results in finished matches with" not in response.content.decode()


def test_the_profile_costs_the_same_queries_however_much_was_played(alice: Any, bob: Any, carol: Any) -> None:
    client = client_for(carol)
    url = reverse("accounts:profile", args=["alice"])
    rated_win(alice, bob)
    with CaptureQueriesContext(connection) as few:
        client.get(url, {"vs": "bob"})
    for _ in range(4):
        rated_win(alice, bob)
        rated_win(bob, alice, game="reversi")
    with CaptureQueriesContext(connection) as many:
        client.get(url, {"vs": "bob"})
    assert len(many) == len(few)


def test_the_leaderboard_lists_established_active_players_best_first(alice: Any, bob: Any, carol: Any) -> None:
    for _ in range(ratings.PROVISIONAL_BELOW):
        rated_win(alice, bob)
    rated_win(carol, bob)  # carol is still provisional
    page = client_for(carol).get(reverse("games:leaderboard", args=["reversi"])).content.decode()
    table = page[page.index('<table class="record leaderboard">') : page.index("</table>")]
    assert table.index(">alice<") < table.index(">bob<")
    assert ">carol<" not in table
    assert client_for(carol).get(reverse("games:leaderboard", args=["chess"])).status_code == 404
    assert client_for(carol).get(reverse("games:leaderboards")).status_code == 200


def test_the_api_serves_history_profiles_and_leaderboards_paginated(alice: Any, bob: Any) -> None:
    for _ in range(ratings.PROVISIONAL_BELOW):
        match = rated_win(alice, bob)
    client = client_for(alice)
    history = client.get(reverse("games:api-history")).json()
    assert history["count"] == ratings.PROVISIONAL_BELOW and history["page"] == 1
    assert history["results"][0]["id"] == match.pk
    assert [p["outcome"] for p in history["results"][0]["players"]] == ["win", "loss"]
    profile = client.get(reverse("games:api-profile", args=["bob"])).json()
    assert profile["ratings"]["reversi"]["rating"] < 1500 and not profile["ratings"]["reversi"]["provisional"]
    assert profile["ratings"]["dos"] == {"rating": 1500, "deviation": 500, "rated_matches": 0, "provisional": True}
    board = client.get(reverse("games:api-leaderboard", args=["reversi"])).json()
    assert [row["username"] for row in board["results"]] == ["alice", "bob"]
    anonymous = client_for(alice)
    anonymous.logout()
    assert anonymous.get(reverse("games:api-history")).status_code == 401


def test_history_filters_by_game_opponent_and_result_and_keeps_them_across_pages(
    alice: Any, bob: Any, carol: Any
) -> None:
    won_vs_bob = rated_win(alice, bob)
    lost_vs_bob = rated_win(bob, alice)
    won_vs_carol = rated_win(alice, carol)
    client = client_for(alice)

    def listed(**params: str) -> list[int]:
        page = client.get(reverse("games:history"), params).content.decode()
        return [m.pk for m in (won_vs_bob, lost_vs_bob, won_vs_carol) if f'href="/m/{m.pk}/"' in page]

    assert listed() == [won_vs_bob.pk, lost_vs_bob.pk, won_vs_carol.pk]
    assert listed(opponent="bob") == [won_vs_bob.pk, lost_vs_bob.pk]
    assert listed(opponent="bob", result="win") == [won_vs_bob.pk]
    assert listed(result="loss") == [lost_vs_bob.pk]
    assert listed(game="dos") == []
    assert listed(game="chess") == [won_vs_bob.pk, lost_vs_bob.pk, won_vs_carol.pk]  # a bad filter is ignored
    assert listed(opponent="alice") == []  # never yourself


def test_history_pages_carry_the_filters(alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from games.web import views

    monkeypatch.setattr(views, "HISTORY_PAGE_SIZE", 1)
    rated_win(alice, bob)
    rated_win(alice, bob)
    page = client_for(alice).get(reverse("games:history"), {"opponent": "bob"}).content.decode()
    assert "?opponent=bob&amp;page=2" in page


def test_a_rated_match_is_chosen_when_creating_and_never_with_a_computer(alice: Any) -> None:
    client = client_for(alice)
    url = reverse("games:new")
    base = {"game": "reversi", "players": 2, "pace": "", "is_public": "on", "rated": "on"}
    refused = client.post(url, {**base, "seat_1": "bot"})
    assert refused.status_code == 200 and "always casual" in refused.content.decode()
    assert not Match.objects.exists()
    client.post(url, {**base, "seat_1": "human"})
    assert Match.objects.get().rated


def _established(user: Any, game: str, mu: float) -> None:
    from django.utils import timezone

    from games.models import Rating

    Rating.objects.create(
        user=user, game=game, mu=mu, sigma=2.0, rated_matches=ratings.PROVISIONAL_BELOW, last_played_at=timezone.now()
    )


def test_the_leaderboards_page_shows_every_games_top_ten_in_one_query(
    make_user: Any, django_assert_num_queries: Any
) -> None:
    from django.test import Client

    from games import registry
    from games.web.record_views import LEADERBOARDS_TOP

    players = [make_user(f"player{n:02}") for n in range(LEADERBOARDS_TOP + 2)]
    for n, user in enumerate(players):
        _established(user, "reversi", 20.0 + n)
    _established(players[0], "dos", 30.0)
    client = Client()
    with django_assert_num_queries(1):  # the ratings of every game at once; a guest has no session to read
        page = client.get(reverse("games:leaderboards")).content.decode()
    reversi = page[page.index('id="board-reversi"') : page.index("</section>", page.index('id="board-reversi"'))]
    shown = [p.username for p in reversed(players)][:LEADERBOARDS_TOP]
    assert [reversi.index(f">{name}<") for name in shown] == sorted(reversi.index(f">{name}<") for name in shown)
    assert ">player01<" not in reversi and ">player00<" not in reversi  # eleventh and twelfth
    assert 'href="/leaderboard/reversi/"' in reversi
    dos = page[page.index('id="board-dos"') : page.index("</section>", page.index('id="board-dos"'))]
    assert ">player00<" in dos
    for game in registry.all_games():
        assert f'href="/leaderboard/{game.slug}/"' in page
    # Growing the boards does not grow the queries.
    for n in range(5):
        _established(make_user(f"late{n}"), "tacocat", 25.0)
    with django_assert_num_queries(1):
        assert ">late0<" in client.get(reverse("games:leaderboards")).content.decode()


def test_the_navigation_opens_every_games_leaderboards(alice: Any) -> None:
    page = client_for(alice).get(reverse("games:home")).content.decode()
    assert f'href="{reverse("games:leaderboards")}"' in page and reverse("games:leaderboards") == "/leaderboards/"
    assert 'id="board-reversi"' in client_for(alice).get("/leaderboard/").content.decode()  # the old address


def test_the_history_opponent_filter_ignores_case_and_can_pick_a_computer_player(alice: Any, bob: Any) -> None:
    versus_bob = rated_win(alice, bob)
    versus_computer = services.create_match(user=alice, game="reversi", players=2, bot_seats=[1])
    services.resign(match_id=versus_computer.pk, user=alice)
    client = client_for(alice)

    def listed(**params: str) -> list[int]:
        page = client.get(reverse("games:history"), params).content.decode()
        return [m.pk for m in (versus_bob, versus_computer) if f'href="/m/{m.pk}/"' in page]

    assert listed() == [versus_bob.pk, versus_computer.pk] or listed() == [versus_computer.pk, versus_bob.pk]
    assert listed(opponent="BOB") == [versus_bob.pk]
    assert listed(opponent=" Bob ") == [versus_bob.pk]
    assert listed(computer="on") == [versus_computer.pk]
    assert listed(computer="on", opponent="bob") == []
    page = client.get(reverse("games:history"), {"computer": "on"}).content.decode()
    assert 'name="computer"' in page and "checked" in page and "Against a computer player" in page
