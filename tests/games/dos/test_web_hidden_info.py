"""Hidden information on the DOS page: what a seat is shown depends only on what that seat may know.

For every seat of 2, 3 and 4 player matches and for a spectator, in many random mid-game states, every
card the viewer cannot know (other hands, the draw pile, others' private event details, the seed) is
shuffled, keeping counts. The seat's engine view, its page fragment and its websocket payload (what the
MatchConsumer sends) must be byte-identical before and after.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games import registry, services
from games.dos.positions import scramble
from games.dos.state import State
from games.models import Match
from tests.support import seen_by, store_state

pytestmark = pytest.mark.django_db

ENGINE = registry.get("dos").engine
SEEDS = (11, 12, 13, 14)
DEPTHS = (1, 7, 30, 90, 250)
SHUFFLES = 2


def random_state(players: int, seed: int, depth: int) -> State:
    """The state after ``depth`` random legal actions (fewer if the game ends first)."""
    rng = Random(f"web-hidden:{seed}")
    state = ENGINE.new_game(players, seed)
    for _ in range(depth):
        if ENGINE.result(state) is not None:
            break
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    return state


@pytest.fixture
def cast(make_user: Any) -> list[Any]:
    """Four players and a spectator (the last)."""
    return [make_user(name) for name in ("ann", "bea", "cal", "dot", "eve")]


def seated_match(players: int, cast: list[Any]) -> Match:
    match = services.create_match(user=cast[0], game="dos", players=players)
    for user in cast[1:players]:
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    return match


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_and_a_spectator_see_the_same_page_whatever_they_cannot_know(players: int, cast: list[Any]) -> None:
    match = seated_match(players, cast)
    viewers: list[tuple[int | None, Any]] = [*((s, cast[s]) for s in range(players)), (None, cast[4])]
    rng = Random(players)
    checked = 0
    for seed in SEEDS:
        for depth in DEPTHS:
            state = random_state(players, seed, depth)
            for seat, user in viewers:
                store_state(match, state)
                before = seen_by(match.pk, user, seat)
                if seat is not None:
                    # Not vacuous: the seat's own hand is on its page, as form fields when it is to act.
                    assert f"Your hand ({len(state.hands[seat])} card" in before[1]
                for _ in range(SHUFFLES):
                    shuffled = scramble(state, seat, rng)
                    assert shuffled != state
                    store_state(match, shuffled)
                    after = seen_by(match.pk, user, seat)
                    assert after[0] == before[0], (players, seed, depth, seat, "view")
                    assert after[1] == before[1], (players, seed, depth, seat, "page fragment")
                    assert after[2] == before[2], (players, seed, depth, seat, "websocket payload")
                    checked += 1
    assert checked == len(SEEDS) * len(DEPTHS) * (players + 1) * SHUFFLES


def test_the_check_would_catch_a_page_that_showed_another_hand(cast: list[Any]) -> None:
    """Shuffling what seat 1 cannot know changes seat 0's hand, and so seat 0's page: a leak would show."""
    match = seated_match(2, cast)
    state = random_state(2, 5, 10)
    store_state(match, state)
    seat_zero_page = seen_by(match.pk, cast[0], 0)[1]
    rng = Random(0)
    changed = 0
    for _ in range(5):
        store_state(match, scramble(state, 1, rng))
        changed += seen_by(match.pk, cast[0], 0)[1] != seat_zero_page
    assert changed >= 4
