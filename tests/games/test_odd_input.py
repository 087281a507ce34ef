"""Odd input gets a clear 4xx and changes nothing: numbers JSON cannot hold, deep nesting, NUL bytes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from games.models import ChatMessage, Match, Move
from tests.support import client_for

pytestmark = pytest.mark.django_db

DEEP = 50_000


def api_act(client: Any, match: Match, body: str) -> Any:
    return client.post(reverse("games:api-act", args=[match.pk]), body, content_type="application/json")


def unchanged(match: Match) -> bool:
    before = match.version
    match.refresh_from_db()
    return match.version == before and not Move.objects.filter(match=match).exists()


@pytest.mark.parametrize(
    "version",
    ["Infinity", "-Infinity", "NaN", "1e400", "1.5", "true", "false", "null", '"1"', "[1]", "{}", "-1", "1" + "0" * 40],
)
def test_the_api_refuses_a_version_that_is_not_a_whole_number(reversi_match: Match, alice: Any, version: str) -> None:
    body = '{"action": {"type": "place", "square": "d3"}, "version": ' + version + "}"
    response = api_act(client_for(alice), reversi_match, body)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid"
    assert unchanged(reversi_match)


def test_the_api_refuses_json_nested_too_deep(reversi_match: Match, alice: Any) -> None:
    client = client_for(alice)
    for body in ("[" * DEEP + "]" * DEEP, '{"action": ' + '{"a": ' * DEEP + "1" + "}" * DEEP + ', "version": 1}'):
        response = api_act(client, reversi_match, body)
        assert response.status_code == 400, response.content
        assert response.json()["error"]["code"] == "invalid"
    assert unchanged(reversi_match)


# The site's forms answer a refusal shown in place with 422, never 400: with DEBUG on, django-htmx's
# debug script would replace the whole page with a 400 response (docs/api.md). The API keeps 400.


def test_the_form_refuses_an_action_field_nested_too_deep(reversi_match: Match, alice: Any) -> None:
    url = reverse("games:act", args=[reversi_match.pk])
    response = client_for(alice).post(
        url, {"version": reversi_match.version, "action": "[" * DEEP + "]" * DEEP}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    assert "too large" in response.content.decode()
    response = client_for(alice).post(
        url, {"version": reversi_match.version, "action": "[" * 1000 + "]" * 1000}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    assert "nested too deeply" in response.content.decode()
    assert unchanged(reversi_match)


def test_the_form_refuses_a_version_that_is_not_a_whole_number(reversi_match: Match, alice: Any) -> None:
    url = reverse("games:act", args=[reversi_match.pk])
    for version in ("Infinity", "1e400", "NaN", "1" + "0" * 5000, "-1"):
        response = client_for(alice).post(
            url, {"version": version, "type": "place", "square": "d3"}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 422, version
    assert unchanged(reversi_match)


def test_a_nul_byte_in_a_chat_message_is_refused_with_a_reason(reversi_match: Match, alice: Any) -> None:
    response = client_for(alice).post(
        reverse("games:chat", args=[reversi_match.pk]), {"text": "hello\x00there"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    assert "cannot contain" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_a_nul_byte_in_a_username_or_invitation_in_the_address_is_not_found(alice: Any) -> None:
    client = client_for(alice)
    assert client.get("/accounts/u/%00/").status_code == 404
    assert client.get("/accounts/u/al%00ice/").status_code == 404
    assert client.get("/invite/%00/").status_code == 404
    assert client.get("/invite/abc%00def/").status_code == 404
    # Every route that takes a name, by the one converter (the fuzz test found these two on PostgreSQL).
    assert client.post("/challenge/%00/", {"game": "reversi"}).status_code == 404
    assert client.get("/api/users/al%00ice/").status_code == 404


def test_a_match_number_too_large_for_the_database_is_not_found(alice: Any) -> None:
    client = client_for(alice)
    huge = "9" * 30
    assert client.get(f"/m/{huge}/").status_code == 404
    assert client.get(f"/m/{huge}/replay/{huge}/").status_code == 404
    assert client.post(f"/m/{huge}/resign/").status_code == 404
    assert client.get(f"/api/matches/{huge}/").status_code == 404
    body = json.dumps({"action": {"type": "place", "square": "d3"}, "version": 1})
    assert client.post(f"/api/matches/{huge}/act/", body, content_type="application/json").status_code == 404
