"""The whole match, move by move: every move by its real number with what it made happen, for players and
watchers alike, replayed from the seed; the match page's log links to it."""

from __future__ import annotations

import re
from typing import Any
from unittest.mock import patch

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.read.replay import _appended
from tests.support import client_for
from tools.screenshots import mid_match

pytestmark = pytest.mark.django_db


def entries(body: str) -> list[tuple[int, str]]:
    return [
        (int(n), re.sub(r"\s+", " ", text).strip())
        for n, text in re.findall(r'<li value="(\d+)">(.*?)</li>', body, re.S)
    ]


def test_each_move_has_its_real_number_and_its_own_events(alice: Any, bob: Any, carol: Any) -> None:
    match = mid_match("reversi", [alice, bob], moves=41)
    body = client_for(alice).get(reverse("games:log", args=[match.pk])).content.decode()
    moves = entries(body)
    assert [n for n, _ in moves] == list(range(1, match.move_count + 1)) and match.move_count >= 41
    played = list(match.moves.order_by("seq").values_list("seat", "payload"))
    names = ["alice", "bob"]
    for (number, text), (seat, payload) in zip(moves, played, strict=True):
        assert text.startswith(f"{names[seat]} played {payload['square']} and flipped"), (number, text)
    # The match page's log shows the latest events and links here.
    page = client_for(alice).get(match.get_absolute_url()).content.decode()
    assert f'href="{reverse("games:log", args=[match.pk])}"' in page


def test_a_watcher_sees_no_hidden_card_and_a_player_sees_their_own(alice: Any, bob: Any, carol: Any) -> None:
    """DOS draws are secret: the drawer's own log names the card, a watcher's does not."""
    match = mid_match("dos", [alice, bob], moves=0, players=2)  # alice, before she does anything
    with patch("games.live.realtime.announce"):
        match = services.act(match_id=match.pk, user=alice, action={"type": "draw"}, version=match.version)
    match.is_public = True
    match.save(update_fields=["is_public"])
    mine = " ".join(
        t for _, t in entries(client_for(alice).get(reverse("games:log", args=[match.pk])).content.decode())
    )
    watched = " ".join(
        t for _, t in entries(client_for(carol).get(reverse("games:log", args=[match.pk])).content.decode())
    )
    assert re.search(r"alice drew (red|green|blue|yellow|Wild)", mine) and "alice drew a card" in watched
    assert not re.search(r"drew (red|green|blue|yellow|Wild)", watched)


def test_an_outsider_of_a_private_match_gets_404(alice: Any, bob: Any, carol: Any) -> None:
    match = mid_match("reversi", [alice, bob], moves=2)
    assert client_for(carol).get(reverse("games:log", args=[match.pk])).status_code == 404


def test_the_page_costs_the_same_queries_at_any_length(alice: Any, bob: Any) -> None:
    counts = []
    for moves in (2, 30):
        match = mid_match("reversi", [alice, bob], moves=moves)
        client = client_for(alice)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("games:log", args=[match.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_new_events_are_found_when_the_window_of_latest_events_slides() -> None:
    assert _appended([1, 2], [1, 2, 3]) == [3]
    assert _appended([1, 2, 3], [2, 3, 4, 5]) == [4, 5]
    assert _appended([], [1]) == [1]
    assert _appended([1, 2, 3], [7, 8, 9]) == [7, 8, 9]
