"""Whole 25-deal matches driven through ``legal_actions`` / ``apply`` (random players and bots).

Every step: the 54 cards are all somewhere exactly once, hand sizes follow the trick count, the state
survives a JSON dump/load round trip, the score sheet adds up. At sampled steps: every legal action is
accepted, every card that is not legal is refused and leaves the state untouched, and seats that may
not act are refused. The same seed and actions give the same match.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.backalley import bot
from games.backalley.cards import ALL_CARDS, code, hand_size
from games.backalley.rules import engine
from games.backalley.scoring import points
from games.backalley.state import DEALS, Contract, State
from games.engine import Action, IllegalAction, InvalidAction
from tests.games.backalley.backalley_support import assert_conserved, random_policy

ALL_CODES = [code(c) for c in ALL_CARDS]


def _dump_text(state: State) -> str:
    return json.dumps(engine.dump(state), sort_keys=True)


def check_invariants(state: State, *, full: bool) -> None:
    """Cards and hand sizes always; with ``full`` also the dump/load round trip and the score sheet."""
    assert_conserved(state)
    if state.phase == "play":
        played_now = {(state.leader + i) % 4 for i in range(len(state.trick))}  # type: ignore[operator]
        left = hand_size(state.deal_number) - len(state.tricks_played)
        for seat in range(4):
            assert len(state.hands[seat]) == left - (seat in played_now)
    elif state.phase == "bid":
        assert all(len(h) == hand_size(state.deal_number) for h in state.hands)
        assert not state.trick and not state.tricks_played
    if not full:
        return
    view = engine.view(state, None)
    data = engine.dump(state)
    assert engine.load(json.loads(json.dumps(data))) == state
    totals = [0, 0]
    for row in view["score_sheet"]:
        assert sum(row["tricks"]) == row["cards"] == hand_size(row["deal"])
        for team in (0, 1):
            contract = Contract(**row["contracts"][team])
            assert row["points"][team] == points(contract, row["tricks"][team], row["cards"])
            totals[team] += row["points"][team]
        assert row["totals"] == totals
    assert view["totals"] == totals


def check_refusals(state: State, seat: int) -> None:
    """Every action outside ``legal_actions`` is refused without touching the state."""
    before = _dump_text(state)
    legal = engine.legal_actions(state, seat)
    for action in legal:
        engine.apply(state, seat, action)
    wrong: list[Action] = [{"type": "play", "card": c} for c in ALL_CODES]
    wrong += [{"type": "bid", "bid": b} for b in ("pass", "board", 0, 1, 12, 13, -1)]
    for action in wrong:
        if action in legal:
            continue
        with pytest.raises(IllegalAction):
            engine.apply(state, seat, action)
    for other in range(4):
        if other != seat:
            assert engine.legal_actions(state, other) == []
            for action in legal[:3]:
                with pytest.raises(IllegalAction, match="It is not your turn"):
                    engine.apply(state, other, action)
    with pytest.raises(InvalidAction):
        engine.apply(state, seat, {"type": "bid", "bid": "double_board"})
    assert _dump_text(state) == before


def run_match(
    seed: int, policies: list[str], check_every: int, first_deal: int = 1, roundtrip_every: int = 1
) -> tuple[State, list]:
    state = engine.new_game(4, seed, {"first_deal": first_deal})
    rng = random.Random(seed)
    actions: list[tuple[int, Action]] = []
    deal_numbers = [state.deal_number]
    for step in range(5000):
        check_invariants(state, full=step % roundtrip_every == 0 or engine.result(state) is not None)
        if engine.result(state) is not None:
            break
        (seat,) = engine.to_act(state)
        legal = engine.legal_actions(state, seat)
        assert legal
        if step % check_every == 0:
            check_refusals(state, seat)
        if policies[seat] == "bot":
            action = bot.choose(engine.view(state, seat), legal, rng=rng, budget_s=0.1)
            assert action in legal
        else:
            action = random_policy(state, seat, rng)
        actions.append((seat, action))
        state = engine.apply(state, seat, action)
        if state.deal_number != deal_numbers[-1]:
            deal_numbers.append(state.deal_number)
    else:
        raise AssertionError("the match did not end")
    assert deal_numbers == list(range(first_deal, DEALS + 1))
    sheet = engine.view(state, None)["score_sheet"]
    assert [row["deal"] for row in sheet] == list(range(first_deal, DEALS + 1))
    result = engine.result(state)
    assert result is not None
    totals = sheet[-1]["totals"]
    assert result["scores"] == [totals[s % 2] for s in range(4)]
    if totals[0] == totals[1]:
        assert result["ranks"] == [1, 1, 1, 1]
    else:
        win = 0 if totals[0] > totals[1] else 1
        assert result["ranks"] == [1 if s % 2 == win else 2 for s in range(4)]
    return state, actions


def replay(seed: int, actions: list, first_deal: int = 1) -> State:
    state = engine.new_game(4, seed, {"first_deal": first_deal})
    for seat, action in actions:
        state = engine.apply(state, seat, action)
    return state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_matches_end_conserve_cards_and_refuse_every_illegal_action(seed: int) -> None:
    final, actions = run_match(seed, ["random"] * 4, check_every=17)
    assert replay(seed, actions) == final


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), bots=st.sampled_from([(0, 2), (1, 3), (0, 1, 2, 3), (2,)]))
def test_bot_matches_stay_legal_and_end(seed: int, bots: tuple[int, ...]) -> None:
    policies = ["bot" if s in bots else "random" for s in range(4)]
    final, actions = run_match(seed, policies, check_every=41, roundtrip_every=7)
    assert replay(seed, actions) == final


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), first_deal=st.integers(10, 25))
def test_short_matches_from_a_later_deal_end_after_deal_25(seed: int, first_deal: int) -> None:
    run_match(seed, ["random"] * 4, check_every=5, first_deal=first_deal, roundtrip_every=5)


def test_the_same_seed_and_actions_give_the_same_states() -> None:
    a, actions = run_match(77, ["random", "bot", "random", "bot"], check_every=1000, roundtrip_every=1000)
    b, again = run_match(77, ["random", "bot", "random", "bot"], check_every=1000, roundtrip_every=1000)
    assert actions == again and a == b
    assert _dump_text(a) == _dump_text(b)


def test_apply_never_mutates_its_input() -> None:
    state = engine.new_game(4, 5)
    rng = random.Random(5)
    for _ in range(300):
        before = _dump_text(state)
        (seat,) = engine.to_act(state)
        new = engine.apply(state, seat, random_policy(state, seat, rng))
        assert _dump_text(state) == before and new is not state
        state = new
