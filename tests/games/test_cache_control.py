"""Pages and API answers for a signed-in player are never stored by a browser or a shared cache."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.models import Match
from tests.support import client_for

pytestmark = pytest.mark.django_db


def no_store(response: Any) -> bool:
    directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= directives


def test_match_pages_fragments_replays_history_and_api_are_private_and_not_stored(
    reversi_match: Match, alice: Any, bob: Any
) -> None:
    client = client_for(alice)
    pk = reversi_match.pk
    pages = [
        client.get(reverse("games:home")),
        client.get(reverse("games:match", args=[pk])),
        client.get(reverse("games:match", args=[pk]), headers={"HX-Request": "true"}),
        client.get(reverse("games:api-match", args=[pk])),
        client.post(
            reverse("games:act", args=[pk]),
            {"version": reversi_match.version, "type": "place", "square": "d3"},
            headers={"HX-Request": "true"},
        ),
        client.post(reverse("games:api-act", args=[pk]), "{}", content_type="application/json"),
        client.get(reverse("games:history")),
        client.get(reverse("accounts:settings")),
    ]
    services.resign(match_id=pk, user=bob)
    pages += [client.get(reverse("games:replay", args=[pk])), client.get(reverse("games:replay-step", args=[pk, 0]))]
    for response in pages:
        assert response.status_code in (200, 400), response
        assert no_store(response), (response.request["PATH_INFO"], response.get("Cache-Control"))


def test_a_missing_match_answer_is_not_stored_either(alice: Any) -> None:
    response = client_for(alice).get("/m/987654/")
    assert response.status_code == 404 and no_store(response)
