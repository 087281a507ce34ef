"""Every state-changing request needs the CSRF token; every page carries a strict CSP with a nonce."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.models import ChatMessage, Match

pytestmark = pytest.mark.django_db

POSTS = ["act/", "join/", "resign/", "abort/", "claim/", "reclaim/", "rematch/", "chat/"]


def test_every_match_post_without_the_csrf_token_is_refused_and_changes_nothing(
    reversi_match: Match, alice: Any
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    data = {"version": reversi_match.version, "type": "place", "square": "d3", "text": "hi"}
    for suffix in POSTS:
        response = client.post(f"/m/{reversi_match.pk}/{suffix}", data, headers={"HX-Request": "true"})
        assert response.status_code == 403, suffix
    api = client.post(
        f"/api/matches/{reversi_match.pk}/act/",
        '{"action": {"type": "place", "square": "d3"}, "version": 1}',
        content_type="application/json",
    )
    assert api.status_code == 403
    assert client.post("/new/", {"game": "reversi", "players": 2, "seat_1": "bot"}).status_code == 403
    reversi_match.refresh_from_db()
    assert reversi_match.version == 1 and not ChatMessage.objects.exists() and Match.objects.count() == 1


def test_pages_carry_a_strict_content_security_policy_and_only_nonced_scripts(reversi_match: Match, alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    response = client.get(reversi_match.get_absolute_url())
    policy = response["Content-Security-Policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce is not None
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    scripts = re.findall(r"<script\b[^>]*>", response.content.decode())
    assert scripts and all(f'nonce="{nonce.group(1)}"' in tag for tag in scripts), scripts
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
