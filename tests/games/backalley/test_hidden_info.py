"""A view is a function of what its seat may know (engine conventions; rules section 3.7).

Over many random positions, every card a seat cannot know (the other three hands, partner's included,
and the stock) is shuffled among those places, keeping the counts; the seat's view must not change by a
single byte. Spectators know no hand at all.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.backalley import bot
from games.backalley.cards import ALL_CARDS, code
from games.backalley.positions import scramble
from games.backalley.rules import engine
from games.backalley.state import State
from tests.games.backalley.backalley_support import canonical, random_policy


def _advance(seed: int, steps: int, use_bot: bool, first_deal: int) -> State:
    state = engine.new_game(4, seed, {"first_deal": first_deal})
    rng = random.Random(seed)
    for _ in range(steps):
        if engine.result(state) is not None:
            break
        (seat,) = engine.to_act(state)
        legal = engine.legal_actions(state, seat)
        if use_bot:
            action = bot.choose(engine.view(state, seat), legal, rng=rng, budget_s=0.1)
        else:
            action = random_policy(state, seat, rng)
        state = engine.apply(state, seat, action)
    return state


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    steps=st.integers(0, 700),
    use_bot=st.booleans(),
    first_deal=st.sampled_from([1, 5, 10, 12, 13, 14, 20, 25]),
    shuffle_seed=st.integers(0, 10**9),
)
def test_views_do_not_depend_on_cards_the_seat_cannot_know(
    seed: int, steps: int, use_bot: bool, first_deal: int, shuffle_seed: int
) -> None:
    state = _advance(seed, steps, use_bot, first_deal)
    rng = random.Random(shuffle_seed)
    for seat in (0, 1, 2, 3, None):
        before = canonical(engine.view(state, seat))
        for _ in range(2):
            assert canonical(engine.view(scramble(state, seat, rng), seat)) == before


@settings(max_examples=40, deadline=None)
@given(
    upcard=st.sampled_from(["BB", "LB"]),
    holder=st.sampled_from([0, 1, 2, 3, None]),
    steps=st.integers(0, 60),
    seed=st.integers(0, 10**6),
)
def test_a_joker_swap_reveals_the_replacement_card_only_to_its_holder(
    upcard: str, holder: int | None, steps: int, seed: int
) -> None:
    other = "BB" if upcard == "LB" else "LB"
    suit_cards = [code(c) for c in ALL_CARDS if c < 52]
    rng = random.Random(seed)
    rng.shuffle(suit_cards)
    dealer = seed % 4
    # Cards go to the dealer's left first: position k of the deal goes to seat (dealer + 1 + k) % 4.
    deck = suit_cards[:52]
    if holder is not None:
        slot = next(k for k in range(52) if (dealer + 1 + k) % 4 == holder)
        deck = [*deck[:slot], other, *deck[slot:51]]
        stock = [suit_cards[51]]
    else:
        deck = deck[:52]
        stock = [other]
    state = engine.new_game(4, seed, {"deck": [*deck, upcard, *stock], "dealer": dealer})
    assert (state.swap is not None) == (holder is not None)
    for _ in range(steps):
        (seat,) = engine.to_act(state)
        state = engine.apply(state, seat, random_policy(state, seat, rng))
    for seat in (0, 1, 2, 3, None):
        before = canonical(engine.view(state, seat))
        assert canonical(engine.view(scramble(state, seat, rng), seat)) == before


def test_a_shuffle_really_moves_cards_around() -> None:
    """Guards the test above against a shuffle that changes nothing."""
    state = engine.new_game(4, 1)
    moved = scramble(state, 0, random.Random(2))
    assert moved.hands[0] == state.hands[0] and moved.hands[2] != state.hands[2]
    assert canonical(engine.view(moved, 2)) != canonical(engine.view(state, 2))
