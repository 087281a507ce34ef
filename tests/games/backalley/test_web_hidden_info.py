"""What a page shows is a function of what its seat may know (rules section 3.7, engine conventions).

Over random mid-match positions (several seeds and depths, and a deal with a joker swap), every card
a viewer cannot know -- the other three hands, the partner's included, and the undealt stock -- is
shuffled among those places, keeping the counts, and written into the match row. The viewer's engine
view, the rendered page fragment and the WebSocket payload must stay byte-identical; and no card the
view does not show may appear anywhere in the fragment.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from games import registry, services
from games.backalley.cards import deck_for
from games.backalley.positions import scramble
from games.backalley.present import card
from games.models import Match
from games.read import pages
from tests.support import seen_by, store_state

pytestmark = pytest.mark.django_db

ENGINE = registry.get("backalley").engine
CODE = re.compile(r'"((?:10|[2-9AKQJ])[SHDC]|BB|LB)"')
SHUFFLES = 3


@pytest.fixture
def cast(alice: Any, bob: Any, carol: Any, make_user: Any) -> dict[int | None, Any]:
    """Seats 0-3 and a spectator (None)."""
    return {0: alice, 1: bob, 2: carol, 3: make_user("dave"), None: make_user("erin")}


def start(cast: dict[int | None, Any], options: dict[str, Any] | None = None) -> Match:
    match = services.create_match(user=cast[0], game="backalley", players=4, options=options)
    for seat in (1, 2, 3):
        services.join_match(match_id=match.pk, user=cast[seat])
    return Match.objects.get(pk=match.pk)


def play_randomly(match: Match, cast: dict[int | None, Any], steps: int, rng: random.Random) -> Match:
    """``steps`` random legal actions through the service layer (the match may end sooner)."""
    for _ in range(steps):
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.ACTIVE:
            break
        state = ENGINE.load(match.state)
        (seat,) = ENGINE.to_act(state)
        action = rng.choice(ENGINE.legal_actions(state, seat))
        services.act(match_id=match.pk, user=cast[seat], action=action, version=match.version)
    return Match.objects.get(pk=match.pk)


def shuffle_unknown(dumped: dict[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any]:
    """The dumped state with everything ``seat`` cannot know dealt out again at random."""
    return ENGINE.dump(scramble(ENGINE.load(dumped), seat, rng))


def everything_undealt_or_in_hand(dumped: dict[str, Any]) -> list[str]:
    return sorted([c for hand in dumped["hands"] for c in hand] + list(dumped["stock"]))


def check_position(match: Match, cast: dict[int | None, Any], rng: random.Random) -> int:
    """Every viewer's three renderings survive shuffles of what it cannot know. Returns how many
    shuffles actually moved a card (so the test cannot pass by shuffling nothing)."""
    original = match.state
    moved = 0
    # Every seat, a signed-in spectator and one without an account (open spectating).
    for seat, user in [*cast.items(), (None, AnonymousUser())]:
        before = seen_by(match.pk, user, seat)
        assert before[2] is not None
        view, fragment, _live = before
        hidden = {c for s in range(4) if s != seat for c in original["hands"][s]} | set(original["stock"])
        public = set(CODE.findall(view))
        for code in sorted(hidden - public):
            face = card(code)
            for needle in (f'"{code}"', f"card-{code}", face["name"], face["short"]):
                assert needle not in fragment, (seat, code, needle)
        for _ in range(SHUFFLES):
            shuffled = shuffle_unknown(original, seat, rng)
            assert [len(h) for h in shuffled["hands"]] == [len(h) for h in original["hands"]]
            assert everything_undealt_or_in_hand(shuffled) == everything_undealt_or_in_hand(original)
            assert seat is None or shuffled["hands"][seat] == original["hands"][seat]
            moved += shuffled != original
            store_state(match, ENGINE.load(shuffled))
            assert seen_by(match.pk, user, seat) == before, f"seat {seat} learns something hidden"
        store_state(match, ENGINE.load(original))
    return moved


@pytest.mark.parametrize("seed", [11, 22, 33])
def test_pages_and_pushes_do_not_depend_on_cards_the_viewer_cannot_know(cast: dict[int | None, Any], seed: int) -> None:
    rng = random.Random(seed)
    match = start(cast, {"first_deal": rng.choice([1, 4, 11, 13, 20])})
    moved = 0
    for steps in (0, 3, 9, 25, 60):
        match = play_randomly(match, cast, steps, rng)
        moved += check_position(match, cast, rng)
    assert moved > 0


def test_a_joker_swap_stays_the_swappers_secret_on_the_page(cast: dict[int | None, Any]) -> None:
    # Upcard LB: no trump; bob holds BB, so he discards it face up and takes the top stock card (9D).
    hands = [
        ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"],
        ["BB", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"],
        ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C"],
        ["AD", "KD", "QD", "JD", "10D", "AH", "8D", "7D", "6D", "5D", "4D", "3D", "2D"],
    ]
    match = start(cast, {"dealer": 3, "deck": deck_for(hands, "LB", dealer=3, stock=["9D"])})
    assert match.state["swap"] == {"seat": 1, "joker": "BB", "took": "9D"}
    bob_page = pages.render_fragment(pages.match_context(match, cast[1]))
    assert "You discarded Big Blooper face up and took nine of diamonds from the stock." in bob_page
    for user in (cast[0], cast[2], cast[3], cast[None], AnonymousUser()):
        page = pages.render_fragment(pages.match_context(match, user))
        assert "bob discarded Big Blooper face up and took a card from the stock." in page
        assert "nine of diamonds" not in page and "9♦" not in page
    rng = random.Random(5)
    moved = check_position(match, cast, rng)
    match = play_randomly(match, cast, 7, rng)
    moved += check_position(match, cast, rng)
    assert moved > 0
