"""Someone who may not see a match gets the same answer whether it exists or not (no existence oracle)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import Match
from tests.support import client_for

pytestmark = pytest.mark.django_db

MISSING = 987654

ACTION = json.dumps({"action": {"type": "place", "square": "d3"}, "version": 1})


def call(client: Client, kind: str, url: str, *, htmx: bool) -> Any:
    headers = {"HX-Request": "true"} if htmx else {}
    if kind == "get":
        return client.get(url, headers=headers)
    if kind == "json":
        return client.post(url, ACTION, content_type="application/json")
    return client.post(url, {"version": "1", "type": "place", "square": "d3", "text": "hi"}, headers=headers)


ENDPOINTS = [
    ("get", "/m/{id}/"),
    ("post", "/m/{id}/act/"),
    ("post", "/m/{id}/join/"),
    ("post", "/m/{id}/resign/"),
    ("post", "/m/{id}/abort/"),
    ("post", "/m/{id}/claim/"),
    ("post", "/m/{id}/reclaim/"),
    ("post", "/m/{id}/rematch/"),
    ("post", "/m/{id}/chat/"),
    ("post", "/m/{id}/challenge/"),
    ("post", "/m/{id}/challenge/accept/"),
    ("post", "/m/{id}/challenge/decline/"),
    ("get", "/m/{id}/replay/"),
    ("get", "/m/{id}/replay/0/"),
    ("get", "/api/matches/{id}/"),
    ("json", "/api/matches/{id}/act/"),
]


def answer(response: Any, match_id: int) -> tuple[int, str, str]:
    """What the client learns: status, where it is sent, and the body, with the number asked for blanked."""
    blank = f"/{match_id}/"
    location = response.get("Location", "").replace(blank, "/N/")
    return response.status_code, location, response.content.decode().replace(blank, "/N/")


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize(("kind", "url"), ENDPOINTS, ids=[u for _k, u in ENDPOINTS])
def test_a_private_match_answers_an_outsider_as_a_missing_one(
    alice: Any, bob: Any, carol: Any, kind: str, url: str, htmx: bool
) -> None:
    private = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    services.join_match(match_id=private.pk, user=bob, token=private.invite_token)
    assert not Match.objects.filter(pk=MISSING).exists()
    client = client_for(carol)
    hidden = answer(call(client, kind, url.format(id=private.pk), htmx=htmx), private.pk)
    missing = answer(call(client, kind, url.format(id=MISSING), htmx=htmx), MISSING)
    assert hidden == missing
    assert hidden[0] == 404
    private.refresh_from_db()
    assert private.version == 1 and private.status == Match.Status.ACTIVE and not private.chat.exists()


def test_a_finished_private_match_answers_an_outsider_as_a_missing_one(alice: Any, bob: Any, carol: Any) -> None:
    private = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    services.join_match(match_id=private.pk, user=bob, token=private.invite_token)
    services.resign(match_id=private.pk, user=bob)
    client = client_for(carol)
    for kind, url in ENDPOINTS:
        hidden = answer(call(client, kind, url.format(id=private.pk), htmx=False), private.pk)
        missing = answer(call(client, kind, url.format(id=MISSING), htmx=False), MISSING)
        assert hidden == missing, url
    assert not Match.objects.filter(rematch_of=private).exists()


def test_the_invitation_still_lets_a_guest_join_a_private_match(alice: Any, carol: Any) -> None:
    private = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    response = client_for(carol).post(f"/m/{private.pk}/join/", {"token": private.invite_token})
    assert response.status_code == 302 and response["Location"] == private.get_absolute_url()
    assert private.seats.filter(user=carol).exists()


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize(("kind", "url"), ENDPOINTS, ids=[u for _k, u in ENDPOINTS])
def test_a_private_match_answers_a_visitor_without_an_account_as_a_missing_one(
    alice: Any, bob: Any, kind: str, url: str, htmx: bool
) -> None:
    """Open spectating lets people without an account see public matches; a private one still answers
    them exactly as a missing one does (a log-in page for both, or the API's 401)."""
    private = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    services.join_match(match_id=private.pk, user=bob, token=private.invite_token)
    client = Client()
    hidden = answer(call(client, kind, url.format(id=private.pk), htmx=htmx), private.pk)
    missing = answer(call(client, kind, url.format(id=MISSING), htmx=htmx), MISSING)
    assert hidden == missing
    assert hidden[0] in (302, 200, 401) and "/N/" not in hidden[2]
    private.refresh_from_db()
    assert private.version == 1 and private.status == Match.Status.ACTIVE and not private.chat.exists()
