"""Hidden information on the DOS page, beside tests/games/test_web_hidden_info.py (which shuffles, for
every seat of 2, 3 and 4 player matches and a spectator, everything the viewer cannot know and finds the
view, page fragment and websocket payload byte-identical): that check is not vacuous.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games import registry
from games.dos.positions import scramble
from tests.games.test_engine_contract import random_steps
from tests.games.test_web_hidden_info import DEPTHS, SEEDS, seated_match
from tests.support import seen_by, store_state

pytestmark = pytest.mark.django_db

DOS = registry.get("dos")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_sees_its_own_hand_on_its_page(players: int, make_user: Any) -> None:
    """Each seat's own hand is on its page (as form fields when it is to act), in the very states the
    shared test shuffles."""
    match, users = seated_match(DOS, players, make_user)
    for seed in SEEDS:
        for depth in DEPTHS:
            state, _ = random_steps(DOS.engine, players, seed, Random(f"web-hidden:{seed}"), depth)
            store_state(match, state)
            for seat in range(players):
                assert f"Your hand ({len(state.hands[seat])} card" in seen_by(match.pk, users[seat], seat)[1]


def test_the_check_would_catch_a_page_that_showed_another_hand(make_user: Any) -> None:
    """Shuffling what seat 1 cannot know changes seat 0's hand, and so seat 0's page: a leak would show."""
    match, users = seated_match(DOS, 2, make_user)
    state, _ = random_steps(DOS.engine, 2, 5, Random(5), 10)
    store_state(match, state)
    seat_zero_page = seen_by(match.pk, users[0], 0)[1]
    rng = Random(0)
    changed = 0
    for _ in range(5):
        store_state(match, scramble(state, 1, rng))
        changed += seen_by(match.pk, users[0], 0)[1] != seat_zero_page
    assert changed >= 4
