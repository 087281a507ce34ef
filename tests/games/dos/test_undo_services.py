"""An undo through the services: one more logged action, so replay, the record and its verifier agree."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.dos.actions import UNDO
from games.dos.rules import engine
from games.models import Move
from games.read.replay import replays_to_stored_state
from games.record import export, fairplay

pytestmark = pytest.mark.django_db

# Seat 0 (dealt first, dealer 1) holds B4 and B5 among others; the Center Row is G7, B9.
SOLO = {
    "deck": [
        *("R#", "Y1", "G3", "Y1", "G4", "Y1", "G8", "Y3", "B4", "Y3", "B5", "Y3", "B8", "Y4"),
        *("G7", "B9"),
    ],
    "dealer": 1,
}
B4_B5_ON_B9 = {"type": "match", "target": 1, "cards": ["B4", "B5"]}


def test_an_undo_is_logged_replayed_and_verified(alice: Any, django_capture_on_commit_callbacks: Any) -> None:
    match = services.create_match(user=alice, game="dos", players=2, bot_seats={1}, options=SOLO)
    match = services.act(match_id=match.pk, user=alice, action=B4_B5_ON_B9, version=match.version)
    assert UNDO in engine.legal_actions(engine.load(match.state), 0)
    with django_capture_on_commit_callbacks() as announced:
        match = services.act(match_id=match.pk, user=alice, action=UNDO, version=match.version)
    assert len(announced) == 1
    state = engine.load(match.state)
    assert state.hands[0].count("B4") == 1 and state.matches == 0
    assert list(Move.objects.filter(match=match).values_list("payload", flat=True)) == [B4_B5_ON_B9, UNDO]
    assert replays_to_stored_state(match)
    # A second undo has nothing left to take back: refused, nothing written.
    with pytest.raises(services.MatchError, match="nothing to take back"):
        services.act(match_id=match.pk, user=alice, action=UNDO, version=match.version)
    assert Move.objects.filter(match=match).count() == 2
    services.resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    # The verifier still replays and checks the chain of a stacked deal; its one complaint is the stacking.
    problems = fairplay.verify(export.record(match))
    assert len(problems) == 1 and problems[0].startswith("The options choose the deal instead of the seed")
