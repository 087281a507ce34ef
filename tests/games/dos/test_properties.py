"""Hypothesis playouts through legal_actions/apply: invariants that hold in every reachable state."""

from __future__ import annotations

import json
from collections import Counter
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dos.cards import CODES, COLOURS, DECK_COUNTS, WILD_DOS, hand_points, is_wild, sort_cards
from games.dos.moves import card_key
from games.dos.positions import scramble
from games.dos.rules import engine
from games.dos.state import Event, State
from games.engine import IllegalAction
from tests.games.dos.dos_support import bot_policy, playout, random_policy


def all_cards(state: State) -> Counter[str]:
    cards: Counter[str] = Counter(state.draw_pile)
    cards.update(state.discard)
    for hand in state.hands:
        cards.update(hand)
    for cr in state.center:
        cards[cr.card] += 1
        cards.update(p.card for p in cr.played)
    return cards


def check_state(state: State) -> None:
    assert all_cards(state) == DECK_COUNTS
    assert all(hand == sort_cards(hand) for hand in state.hands)
    assert list(state.scores) == [
        sum(r.points for r in state.history if r.winner == seat) for seat in range(state.players)
    ]
    for record in state.history:
        assert record.hands[record.winner] == ()
        assert record.points == sum(hand_points(h) for s, h in enumerate(record.hands) if s != record.winner)
    if engine.result(state) is None:
        assert engine.legal_actions(state, state.current)
        assert engine.to_act(state) == [state.current]
    else:
        assert max(state.scores) >= state.target
        assert engine.result(state)["ranks"].count(1) == 1  # type: ignore[index]


def round_trip(state: State) -> None:
    assert engine.load(json.loads(json.dumps(engine.dump(state)))) == state


players_st = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**31)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=6, deadline=None)
@given(seed=seeds)
def test_random_playouts_end_and_keep_every_invariant(players: int, seed: int) -> None:
    rng = Random(seed)
    for step, (before, seat, _action, after) in enumerate(playout(players, seed, random_policy)):
        check_state(after)
        legal = engine.legal_actions(before, seat)
        engine.apply(before, seat, rng.choice(legal))
        # The costlier checks on a sample of the states keep the suite quick.
        if step % 7 == 0:
            round_trip(after)
            for viewer in [None, *range(players)]:
                json.dumps(engine.view(after, viewer))
    assert engine.result(after) is not None
    round_trip(after)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=5, deadline=None)
@given(seed=seeds)
def test_bot_games_end_with_a_winner_over_the_target(players: int, seed: int) -> None:
    for step, (_before, _seat, _action, after) in enumerate(playout(players, seed, bot_policy)):
        check_state(after)
        if step % 3 == 0:
            round_trip(after)
    result = engine.result(after)
    assert result is not None
    assert result["scores"][result["ranks"].index(1)] >= 200


def random_well_formed(state: State, rng: Random) -> dict[str, Any]:
    """A well-formed action, often but not always legal."""
    hand = list(state.hands[state.current]) or ["R1"]
    kind = rng.choice(["match", "match", "match", "draw", "finish", "place", "bonus", "skip_bonus"])
    if kind in ("place", "bonus"):
        return {"type": kind, "card": rng.choice(hand) if rng.random() < 0.8 else rng.choice(CODES)}
    if kind != "match":
        return {"type": kind}
    cards = [rng.choice(hand) if rng.random() < 0.9 else rng.choice(CODES) for _ in range(rng.choice([1, 2]))]
    declared = [
        rng.choice(COLOURS) if c == WILD_DOS else rng.randint(1, 10) if c.endswith("#") else None for c in cards
    ]
    pairs = sorted(zip(cards, declared, strict=True), key=lambda p: card_key(*p))
    action: dict[str, Any] = {
        "type": "match",
        "target": rng.randrange(len(state.center) + 1),
        "cards": [c for c, _ in pairs],
    }
    if any(is_wild(c) for c in cards):
        action["declare"] = [d for _, d in pairs]
    if action["target"] < len(state.center):
        target = state.center[action["target"]].card
        if target == WILD_DOS:
            action["target_declare"] = rng.choice(COLOURS)
        elif target.endswith("#"):
            action["target_declare"] = rng.randint(1, 10)
    return action


@settings(max_examples=10, deadline=None)
@given(players=players_st, seed=seeds)
def test_apply_accepts_exactly_the_listed_actions_and_refusals_change_nothing(players: int, seed: int) -> None:
    rng = Random(seed)
    tried = 0
    for before, seat, _action, _after in playout(players, seed, random_policy):
        legal = engine.legal_actions(before, seat)
        listed = {json.dumps(a, sort_keys=True) for a in legal}
        dumped = engine.dump(before)
        for action in legal if len(legal) <= 12 else rng.sample(legal, 12):
            engine.apply(before, seat, action)
        for _ in range(4):
            action = random_well_formed(before, rng)
            if json.dumps(action, sort_keys=True) in listed:
                engine.apply(before, seat, action)
            else:
                with pytest.raises(IllegalAction):
                    engine.apply(before, seat, action)
            tried += 1
        other = (seat + 1) % players
        with pytest.raises(IllegalAction, match=r"^It is not your turn\.$"):
            engine.apply(before, other, legal[0])
        assert engine.dump(before) == dumped
    assert tried > 0


def same_view(a: State, b: State, seat: int | None) -> bool:
    return json.dumps(engine.view(a, seat), sort_keys=True) == json.dumps(engine.view(b, seat), sort_keys=True)


@settings(max_examples=40, deadline=None)
@given(players=players_st, seed=seeds, stop=st.integers(min_value=0, max_value=400), bots=st.booleans())
def test_views_depend_only_on_what_the_seat_may_know(players: int, seed: int, stop: int, bots: bool) -> None:
    rng = Random(seed)
    state = engine.new_game(players, seed)
    for step, (_before, _seat, _action, after) in enumerate(
        playout(players, seed, bot_policy if bots else random_policy)
    ):
        state = after
        if step >= stop:
            break
    assert any(isinstance(e, Event) for e in state.events)
    for seat in [None, *range(players)]:
        for _ in range(3):
            assert same_view(state, scramble(state, seat, rng), seat)
        view = engine.view(state, seat)
        assert "seed" not in json.dumps(view)
        if seat is None:
            assert view["hand"] is None
            assert view["drawn_card"] is None
        elif seat != state.current:
            assert view["drawn_card"] is None


def test_scramble_would_catch_a_leak() -> None:
    """The hidden-information test is not vacuous: a seat's own hand shows in its view and is reshuffled
    for any other viewer, so a view that showed other hands would differ."""
    state = engine.new_game(4, 3)
    rng = Random(0)
    leaked = [json.dumps(scramble(state, 0, rng).hands[1]) for _ in range(5)]
    assert len(set(leaked)) > 1
    assert not same_view(state, scramble(state, None, rng), 0)
