"""Random playouts through legal_actions/apply: the invariants that must hold at every step."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction, InvalidAction
from games.tacocat.cards import GOALS, POSITIONS
from games.tacocat.rules import engine
from games.tacocat.state import DEFEND, OVER, State

Options = Callable[..., dict[str, Any]]
MAX_STEPS = 3000  # a real game takes well under 200 decisions; this only catches a loop


def check_invariants(state: State) -> None:
    h0, h1 = state.hands
    # Cards are conserved: every card of the configured deck is in exactly one place.
    assert Counter((*h0, *h1, *state.draw, *state.discard, *state.attack)) == Counter(state.config.deck())
    assert list(h0) == sorted(h0) and list(h1) == sorted(h1)
    # TAC-INV1: equal hands except while an attack waits for its answer.
    if state.phase == DEFEND:
        assert state.attacker is not None
        assert len(state.hands[state.attacker]) + len(state.attack) == len(state.hands[1 - state.attacker])
    else:
        assert len(h0) == len(h1)
        assert state.attack == ()
    assert set(state.covered) <= set(POSITIONS) and len(state.covered) <= 7  # TAC-E14
    assert state.cat not in state.covered
    assert (state.phase == OVER) == (state.winner is not None) == (state.cat in GOALS)
    if state.phase == OVER:
        assert state.cat == GOALS[state.winner]
        assert engine.to_act(state) == []
    else:
        assert len(h0) >= 1
        assert engine.to_act(state)
        for seat in engine.to_act(state):
            assert engine.legal_actions(state, seat)
    for seat in (0, 1):
        if seat not in engine.to_act(state):
            assert engine.legal_actions(state, seat) == []


def random_action(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(["replace", "duel", "attack", "defend"])
    cards = [str(rng.randint(1, 12)) for _ in range(rng.randint(0, 4))]
    if kind == "duel":
        return {"type": kind, "card": str(rng.randint(1, 12))}
    return {"type": kind, ("answers" if kind == "defend" else "cards"): cards}


def probe_illegal(state: State, seat: int, legal: list[dict[str, Any]], rng: random.Random) -> None:
    """Wrong seats, malformed and random actions either raise or equal a legal one; the state is untouched."""
    before = engine.dump(state)
    for bad in (None, {"type": "pass"}, {"type": ["duel"]}, {"type": "duel"}, {"type": "duel", "card": 7},
                {"type": "attack", "cards": ["0"]}, {"type": "attack", "cards": ["1"], "x": 1},
                {"type": "replace", "cards": "7"}, {"type": "defend", "answers": [None]}):  # fmt: skip
        with pytest.raises(InvalidAction):
            engine.apply(state, seat, bad)
    for other in (0, 1):
        if other not in engine.to_act(state):
            with pytest.raises(IllegalAction):
                engine.apply(state, other, random_action(rng))
    for _ in range(4):
        action = random_action(rng)
        try:
            after = engine.apply(state, seat, action)
        except IllegalAction:
            continue
        # Accepted: it must be a listed action up to the order of interchangeable cards.
        field = next(k for k in action if k != "type")
        same = [a for a in legal if a["type"] == action["type"] and sorted(a[field]) == sorted(action[field])]
        assert any(engine.apply(state, seat, a) == after for a in same), action
    assert engine.dump(state) == before


def playout(seed: int, rng: random.Random, options: dict[str, Any] | None, *, probe: bool) -> list[Any]:
    state = engine.new_game(2, seed, options)
    history: list[Any] = []
    while not state.over:
        check_invariants(state)
        data = engine.dump(state)
        assert engine.load(json.loads(json.dumps(data))) == state
        for viewer in (0, 1, None):
            json.dumps(engine.view(state, viewer))
        seat = rng.choice(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        if probe:
            for action in rng.sample(legal, min(len(legal), 6)):
                engine.apply(state, seat, action)
            probe_illegal(state, seat, legal, rng)
        action = rng.choice(legal)
        history.append((seat, action))
        state = engine.apply(state, seat, action)
        assert engine.dump(state) != data
        assert len(history) < MAX_STEPS
    check_invariants(state)
    result = engine.result(state)
    assert result is not None and sorted(result["ranks"]) == [1, 2]
    assert result["scores"][state.winner] == 1 and sum(result["scores"]) == 1
    assert engine.load(engine.dump(state)) == state
    return history


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    rng=st.randoms(use_true_random=False),
    tie_rule=st.sampled_from(["stay", "arrow"]),
    placeholder=st.booleans(),
)
def test_random_playouts_end_conserve_cards_and_keep_every_invariant(
    options: Options, seed: int, rng: random.Random, tie_rule: str, placeholder: bool
) -> None:
    playout(seed, rng, {"tie_rule": tie_rule} if placeholder else options(tie_rule=tie_rule), probe=True)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), choices=st.integers(min_value=0, max_value=2**32))
def test_the_same_seed_and_actions_give_the_same_states(options: Options, seed: int, choices: int) -> None:
    history = playout(seed, random.Random(choices), options(), probe=False)
    a = b = engine.new_game(2, seed, options())
    for seat, action in history:
        a, b = engine.apply(a, seat, action), engine.apply(b, seat, action)
        assert engine.dump(a) == engine.dump(b)
    assert a.over


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40), rng=st.randoms(use_true_random=False))
def test_every_listed_legal_action_applies(seed: int, rng: random.Random) -> None:
    state = engine.new_game(2, seed)
    while not state.over:
        seat = rng.choice(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        results = [engine.apply(state, seat, action) for action in legal]
        # Listed actions are distinct choices: no two lead to the same state.
        assert len({json.dumps(engine.dump(r), sort_keys=True) for r in results}) == len(results)
        state = rng.choice(results)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    rng=st.randoms(use_true_random=False),
    tie_rule=st.sampled_from(["stay", "arrow"]),
)
def test_many_random_playouts_keep_every_invariant(options: Options, seed: int, rng: random.Random, tie_rule: str):
    playout(seed, rng, options(tie_rule=tie_rule), probe=True)
