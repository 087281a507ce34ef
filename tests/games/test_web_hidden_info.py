"""Hidden information on the page, for every registered game: what a seat is shown (its engine view, its
page fragment and its WebSocket payload) depends only on what that seat may know.

In random mid-game states, everything the viewer cannot know is reshuffled by the game's
``positions.scramble`` (the one hook of tests/games/test_engine_contract.py) and written into the match
row; every seat and a spectator must be shown byte-identical output. Each game's own
``test_web_hidden_info.py`` adds the situations only it has (a joker swap, a half-committed duel).
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from games import registry, services
from games.models import Match
from games.read import pages
from tests.games.test_engine_contract import GAMES, random_steps, scramble_hook
from tests.support import seen_by, store_state

pytestmark = pytest.mark.django_db

SEEDS = (11, 12, 13, 14)
DEPTHS = (1, 7, 30, 90, 250)
SHUFFLES = 2


def seated_match(game: registry.Game, players: int, make_user: Any) -> tuple[Match, list[Any]]:
    """A started match of ``players`` people, and its viewers: the seats in order, then a spectator."""
    users = [make_user(f"player{n}") for n in range(players)]
    match = services.create_match(user=users[0], game=game.slug, players=players)
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    return match, [*users, make_user("spectator")]


@pytest.mark.parametrize(
    ("game", "players"),
    [(g, n) for g in GAMES for n in range(g.min_players, g.max_players + 1)],
    ids=lambda value: value.slug if isinstance(value, registry.Game) else f"{value}p",
)
def test_every_seat_and_a_spectator_are_shown_the_same_whatever_they_cannot_know(
    game: registry.Game, players: int, make_user: Any
) -> None:
    scramble = scramble_hook(game.engine)
    match, users = seated_match(game, players, make_user)
    # The spectators: one signed in, one without an account (open spectating).
    viewers: list[tuple[int | None, Any]] = [*enumerate(users[:players]), (None, users[-1]), (None, AnonymousUser())]
    rng = Random(players)
    checked = 0
    for seed in SEEDS:
        for depth in DEPTHS:
            state, _ = random_steps(game.engine, players, seed, Random(f"web-hidden:{seed}"), depth)
            for seat, user in viewers:
                store_state(match, state)
                before = seen_by(match.pk, user, seat)
                if not user.is_authenticated:
                    # A guest is shown exactly the spectators' push, which every spectator shares.
                    assert (
                        before[1]
                        == before[2]
                        == pages.render_fragment(pages.match_context(Match.objects.get(pk=match.pk), None))
                    )
                for _ in range(SHUFFLES):
                    shuffled = scramble(state, seat, rng)
                    assert shuffled != state
                    store_state(match, shuffled)
                    after = seen_by(match.pk, user, seat)
                    assert after[0] == before[0], (players, seed, depth, seat, "view")
                    assert after[1] == before[1], (players, seed, depth, seat, "page fragment")
                    assert after[2] == before[2], (players, seed, depth, seat, "websocket payload")
                    checked += 1
    assert checked == len(SEEDS) * len(DEPTHS) * (players + 2) * SHUFFLES
