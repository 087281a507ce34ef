"""Views: pages render a seat's view; the act endpoint reports rejections clearly and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import registry, services
from games.models import Match
from tests.support import client_for

pytestmark = pytest.mark.django_db


def htmx(client: Client, url: str, data: dict[str, Any]) -> Any:
    return client.post(url, data, headers={"HX-Request": "true"})


def play_random_moves(match: Match, users: dict[int, Any], count: int) -> None:
    engine = registry.get("reversi").engine
    for _ in range(count):
        match.refresh_from_db()
        state = engine.load(match.state)
        seat = engine.to_act(state)[0]
        action = engine.legal_actions(state, seat)[0]
        services.act(match_id=match.pk, user=users[seat], action=action, version=match.version)
    match.refresh_from_db()


def test_home_lists_your_turn_first(reversi_match: Match, alice: Any) -> None:
    response = client_for(alice).get(reverse("games:home"))
    assert response.status_code == 200
    body = response.content.decode()
    assert body.index("Your turn") < body.index(f"#{reversi_match.pk}") < body.index("Waiting on others")


def test_a_player_sees_the_board_with_legal_moves(reversi_match: Match, alice: Any) -> None:
    response = client_for(alice).get(reversi_match.get_absolute_url())
    assert response.status_code == 200
    body = response.content.decode()
    assert 'aria-label="d3, empty, legal move"' in body
    assert "Your turn." in body
    assert str(reversi_match.seed) not in body


def test_a_move_by_plain_form_redirects_and_by_htmx_returns_the_fragment(
    reversi_match: Match, alice: Any, bob: Any
) -> None:
    url = reverse("games:act", args=[reversi_match.pk])
    response = client_for(alice).post(url, {"version": reversi_match.version, "type": "place", "square": "d3"})
    assert response.status_code == 302
    reversi_match.refresh_from_db()
    assert reversi_match.move_count == 1
    response = htmx(client_for(bob), url, {"version": reversi_match.version, "type": "place", "square": "c3"})
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="match-body"')
    reversi_match.refresh_from_db()
    assert reversi_match.move_count == 2


@pytest.mark.parametrize(
    ("who", "data", "status", "message"),
    [
        ("bob", {"type": "place", "square": "d3"}, 409, "It is not your turn."),
        ("alice", {"type": "place", "square": "a1"}, 422, "a1"),
        ("alice", {"type": "place", "square": "nowhere"}, 422, ""),
        ("alice", {"square": "d3"}, 422, "The action has no type."),
        ("alice", {"action": "{not json"}, 422, "not valid JSON"),
        ("alice", {"type": "place", "square": "d3", "version": "old"}, 422, "incomplete"),
        # A forged seat field is ignored: the seat comes from the session, so bob still is not to move.
        ("bob", {"type": "place", "square": "d3", "seat": "0"}, 409, "It is not your turn."),
    ],
    ids=["out-of-turn", "illegal", "malformed-square", "no-type", "bad-json", "bad-version", "forged-seat"],
)
def test_rejected_moves_rerender_the_board_with_a_notice_and_change_nothing(
    reversi_match: Match, who: str, data: dict[str, Any], status: int, message: str, request: pytest.FixtureRequest
) -> None:
    client = client_for(request.getfixturevalue(who))
    payload = {"version": reversi_match.version, **data}
    before = (reversi_match.version, reversi_match.state)
    for send in (htmx, lambda c, u, d: c.post(u, d)):
        response = send(client, reverse("games:act", args=[reversi_match.pk]), payload)
        assert response.status_code == status
        body = response.content.decode()
        assert 'role="alert"' in body and message in body
        assert 'id="match-body"' in body
        reversi_match.refresh_from_db()
        assert (reversi_match.version, reversi_match.state) == before


def test_a_stale_page_is_told_the_match_moved_on(reversi_match: Match, alice: Any) -> None:
    client = client_for(alice)
    url = reverse("games:act", args=[reversi_match.pk])
    seen = reversi_match.version
    assert htmx(client, url, {"version": seen, "type": "place", "square": "d3"}).status_code == 200
    response = htmx(client, url, {"version": seen, "type": "place", "square": "d3"})  # the double click
    assert response.status_code == 409
    assert "moved on" in response.content.decode()
    reversi_match.refresh_from_db()
    assert reversi_match.move_count == 1


def test_an_outsider_cannot_move_but_may_watch_a_public_match(reversi_match: Match, carol: Any) -> None:
    client = client_for(carol)
    page = client.get(reversi_match.get_absolute_url())
    assert page.status_code == 200
    assert "sq legal" not in page.content.decode()
    response = htmx(
        client,
        reverse("games:act", args=[reversi_match.pk]),
        {"version": reversi_match.version, "type": "place", "square": "d3"},
    )
    assert response.status_code == 403
    assert "You do not have a seat in this match." in response.content.decode()
    reversi_match.refresh_from_db()
    assert reversi_match.move_count == 0


def test_an_invite_only_match_is_hidden_from_outsiders(alice: Any, carol: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    client = client_for(carol)
    assert client.get(match.get_absolute_url()).status_code == 404
    assert client.post(reverse("games:act", args=[match.pk]), {"version": 0, "type": "place"}).status_code == 404
    invite = client.get(reverse("games:invite", args=[match.invite_token]))
    assert invite.status_code == 200
    client.post(reverse("games:join", args=[match.pk]), {"token": match.invite_token})
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_anonymous_visitors_are_sent_to_log_in(alice: Any) -> None:
    """From a private match's page (a public one they may watch: open spectating, below)."""
    private = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    response = Client().get(private.get_absolute_url())
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert response["Location"].endswith(f"?next=/m/{private.pk}/")


def test_anonymous_visitors_may_watch_a_public_match_but_not_act(reversi_match: Match) -> None:
    client = Client()
    page = client.get(reversi_match.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="match-body"' in html and "sq legal" not in html
    assert "You are watching as a guest." in html
    assert f"/accounts/signup/?next=/m/{reversi_match.pk}/" in html.replace("%2F", "/")
    act = client.post(reverse("games:act", args=[reversi_match.pk]), {"version": 0, "type": "place", "square": "d3"})
    assert act.status_code == 302 and "/accounts/login/" in act["Location"]
    reversi_match.refresh_from_db()
    assert reversi_match.move_count == 0


def test_new_match_form_creates_a_match_against_the_computer(alice: Any) -> None:
    response = client_for(alice).post(
        reverse("games:new"), {"game": "reversi", "players": 2, "seat_1": "bot", "is_public": "on"}
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert match.status == Match.Status.ACTIVE
    assert match.seats.get(number=1).is_bot


def test_new_match_form_explains_a_wrong_player_count(alice: Any) -> None:
    response = client_for(alice).post(reverse("games:new"), {"game": "reversi", "players": 3})
    assert response.status_code == 200
    assert "Reversi is for exactly 2 players." in response.content.decode()
    assert not Match.objects.exists()


def test_lobby_lists_open_public_matches_and_joining_starts_them(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    client = client_for(bob)
    assert f"#{match.pk}" in client.get(reverse("games:lobby")).content.decode()
    client.post(reverse("games:join", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_match_page_and_move_queries_stay_constant_as_the_match_grows(
    reversi_match: Match, alice: Any, bob: Any, django_assert_max_num_queries: Any, django_assert_num_queries: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    users = {0: alice, 1: bob}
    counts = []
    for moves in (2, 20):
        play_random_moves(reversi_match, users, moves - reversi_match.move_count)
        engine = registry.get("reversi").engine
        state = engine.load(reversi_match.state)
        seat = engine.to_act(state)[0]
        client = client_for(users[seat])
        with CaptureQueriesContext(connection) as page_queries:
            client.get(reversi_match.get_absolute_url())
        action = engine.legal_actions(state, seat)[0]
        with CaptureQueriesContext(connection) as act_queries:
            response = htmx(
                client, reverse("games:act", args=[reversi_match.pk]), {"version": reversi_match.version, **action}
            )
        assert response.status_code == 200
        reversi_match.refresh_from_db()
        counts.append((len(page_queries), len(act_queries)))
    assert counts[0] == counts[1], counts


def test_history_lists_finished_matches_newest_first_with_constant_queries(
    alice: Any, bob: Any, django_assert_max_num_queries: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(alice)
    counts = []
    for total in (1, 6):
        while Match.objects.filter(status=Match.Status.FINISHED).count() < total:
            match = services.create_match(user=alice, game="reversi", players=2)
            services.join_match(match_id=match.pk, user=bob)
            services.resign(match_id=match.pk, user=bob)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("games:history"))
        counts.append(len(queries))
    assert counts[0] == counts[1]
    body = response.content.decode()
    ids = list(Match.objects.order_by("-finished_at", "-pk").values_list("pk", flat=True))
    assert body.index(f"#{ids[0]}<") < body.index(f"#{ids[-1]}<")


def test_replay_steps_through_a_finished_match_by_url(reversi_match: Match, alice: Any, bob: Any) -> None:
    play_random_moves(reversi_match, {0: alice, 1: bob}, 4)
    services.resign(match_id=reversi_match.pk, user=bob)
    client = client_for(alice)
    start = client.get(reverse("games:replay-step", args=[reversi_match.pk, 0]))
    assert start.status_code == 200
    assert 'aria-label="d4, white"' in start.content.decode()
    one = client.get(reverse("games:replay-step", args=[reversi_match.pk, 1])).content.decode()
    assert "Move 1 of 4" in one
    assert client.get(reverse("games:replay-step", args=[reversi_match.pk, 5])).status_code == 404
    partial = client.get(reverse("games:replay-step", args=[reversi_match.pk, 2]), headers={"HX-Request": "true"})
    assert partial.content.decode().lstrip().startswith('<section id="replay-body"')


def test_resign_by_htmx_returns_the_board_with_the_result(reversi_match: Match, alice: Any) -> None:
    response = htmx(client_for(alice), reverse("games:resign", args=[reversi_match.pk]), {})
    assert response.status_code == 200
    assert "You lost" in response.content.decode()


def test_api_returns_the_seat_view_and_accepts_moves(reversi_match: Match, alice: Any, carol: Any) -> None:
    import json

    client = Client(enforce_csrf_checks=False)
    client.force_login(alice)
    data = client.get(reverse("games:api-match", args=[reversi_match.pk])).json()
    assert data["seat"] == 0 and data["view"]["legal"] == ["c4", "d3", "e6", "f5"]
    assert "seed" not in json.dumps(data)
    response = client.post(
        reverse("games:api-act", args=[reversi_match.pk]),
        json.dumps({"action": {"type": "place", "square": "d3"}, "version": data["version"]}),
        content_type="application/json",
    )
    assert response.status_code == 200 and response.json()["version"] == data["version"] + 1
    bad = client.post(reverse("games:api-act", args=[reversi_match.pk]), "nope", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
