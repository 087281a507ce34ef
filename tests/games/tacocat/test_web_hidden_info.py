"""Hidden information on the page (rules section 1.6, 0.2): shuffle everything a viewer cannot know and
the view, the rendered page fragment and the WebSocket payload stay byte-identical, for both seats and
a spectator, including between the two commits of a duel or a two-arrow replacement."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from games import registry, services
from games.read import pages
from games.tacocat.positions import scramble
from tests.games.tacocat.test_view import random_state
from tests.games.tacocat.test_web_pages import SETUP
from tests.support import seen_by, store_state

pytestmark = pytest.mark.django_db

engine = registry.get("tacocat").engine
STATES = 60
DUEL_DECK = ["9", "4", "9", "4", "9", "4", "1", "6", "2", "6", "3", "6", "5", "7"]
SHUFFLES = 2


def states(rng: random.Random, test_options: dict[str, Any]) -> list[tuple[str, Any]]:
    """Random states of every phase, a third of them stopped between the two commits of a step; half on
    the placeholder board and deck, half on the engine tests' own."""
    out = []
    for i in range(STATES):
        options = None if i % 2 else test_options
        state = random_state(rng.randrange(2**40), rng, rng.randint(0, 120), options)
        label = state.phase
        if i % 3 == 0:
            # Play on to the next simultaneous step, then let one seat commit.
            while not state.over and len(engine.to_act(state)) != 2:
                seat = engine.to_act(state)[0]
                state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            if state.over:
                continue
            seat = rng.choice((0, 1))
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            label = f"{state.phase} half-committed"
        out.append((label, state))
    return out


def test_nothing_a_viewer_cannot_know_changes_their_view_page_or_push(
    alice: Any, bob: Any, carol: Any, options: Any
) -> None:
    match = services.create_match(user=alice, game="tacocat", players=2)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    viewers = ((alice, 0), (bob, 1), (carol, None), (AnonymousUser(), None))  # a spectator with no account too
    rng = random.Random(20260101)
    covered: Counter[str] = Counter()
    for label, state in states(rng, options()):
        covered[label] += 1
        store_state(match, state)
        seen = [seen_by(match.pk, user, seat) for user, seat in viewers]
        for n, (user, seat) in enumerate(viewers):
            for _ in range(SHUFFLES):
                shuffled = scramble(state, seat, rng)
                store_state(match, shuffled)
                view, fragment, pushed = seen_by(match.pk, user, seat)
                assert view == seen[n][0], (label, seat)
                assert fragment == seen[n][1], (label, seat)
                assert pushed == seen[n][2], (label, seat)
            store_state(match, state)
    # The random states reach every phase, and both kinds of half-made simultaneous step.
    assert {"replace", "duel", "attack", "defend", "duel half-committed", "replace half-committed"} <= set(covered)


def test_a_committed_duel_card_shows_on_its_owners_page_only(alice: Any, bob: Any, carol: Any) -> None:
    match = services.create_match(user=alice, game="tacocat", players=2, options={**SETUP, "deck": DUEL_DECK})
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    for user in (alice, bob):
        services.act(match_id=match.pk, user=user, action={"type": "replace", "cards": []}, version=match.version)
        match.refresh_from_db()
    services.act(match_id=match.pk, user=alice, action={"type": "duel", "card": "9"}, version=match.version)
    match.refresh_from_db()
    assert "You chose 9; waiting for bob to choose." in pages.render_live_fragments(match, alice)
    for user in (bob, carol, AnonymousUser()):
        pushed = pages.render_live_fragments(match, user)
        assert "You chose" not in pushed and "taco-chosen" in pushed
