"""The view: its documented keys, the event filter, and hidden information (section 1.6, section 0.2)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tacocat.positions import scramble
from games.tacocat.rules import engine
from games.tacocat.state import DUEL, Event, State

Start = Callable[..., State]
Pos = Callable[..., State]

VIEW_KEYS = {
    "seat", "players", "to_act", "over", "result", "events", "phase", "round", "hand", "hand_counts",
    "hand_size", "track", "cat", "covered", "goals", "your_goal", "first_replacer", "replacement_cap",
    "replaced", "committed", "your_commit", "revealed", "attacker", "attack", "discard", "draw_count",
    "last_round", "winner", "tie_rule", "distribution", "deck_size",
}  # fmt: skip
VIEWERS = (0, 1, None)


def as_json(state: State, viewer: int | None) -> str:
    return json.dumps(engine.view(state, viewer), sort_keys=True)


def random_state(seed: int, rng: random.Random, steps: int, options: dict[str, Any] | None) -> State:
    state = engine.new_game(2, seed, options)
    for _ in range(steps):
        if state.over:
            break
        seat = rng.choice(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    rng=st.randoms(use_true_random=False),
    steps=st.integers(min_value=0, max_value=150),
    half_commit=st.booleans(),
    placeholder=st.booleans(),
)
def test_a_view_never_depends_on_what_the_viewer_cannot_know(
    options: Callable[..., dict[str, Any]],
    seed: int,
    rng: random.Random,
    steps: int,
    half_commit: bool,
    placeholder: bool,
) -> None:
    state = random_state(seed, rng, steps, None if placeholder else options())
    if half_commit and len(engine.to_act(state)) == 2:
        # Stop between the two commits of a duel or a two-arrow replacement.
        seat = rng.choice((0, 1))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    for viewer in VIEWERS:
        seen = as_json(state, viewer)
        for _ in range(3):
            assert as_json(scramble(state, viewer, rng), viewer) == seen


def test_a_committed_duel_card_is_hidden_from_the_opponent_and_spectators(pos: Pos) -> None:
    state = engine.apply(pos(([1, 2, 3, 5, 9], [4, 6, 7, 8, 11]), phase=DUEL), 0, {"type": "duel", "card": "9"})
    other = pos(([1, 2, 3, 5, 9], [4, 6, 7, 8, 11]), phase=DUEL)
    other = engine.apply(other, 0, {"type": "duel", "card": "1"})
    for viewer in (1, None):
        assert as_json(state, viewer) == as_json(other, viewer)
    assert as_json(state, 0) != as_json(other, 0)


def test_view_has_every_documented_key_and_is_json_ready(start: Start) -> None:
    state = start()
    for viewer in VIEWERS:
        view = engine.view(state, viewer)
        assert set(view) == VIEW_KEYS
        assert json.loads(json.dumps(view)) == view
    assert engine.view(state, None)["hand"] is None
    assert engine.view(state, 1)["seat"] == 1 and engine.view(state, None)["seat"] is None


def test_own_hand_is_sorted_by_value_and_others_are_counts(pos: Pos) -> None:
    view = engine.view(pos(([12, 1, 10, 2], [3, 4, 5, 6]), attacker=0), 0)
    assert view["hand"] == ["1", "2", "10", "12"]
    assert view["hand_counts"] == [4, 4]


def test_neither_the_seed_nor_the_deck_order_is_in_any_view() -> None:
    seed = 918273645546372819
    state = engine.new_game(2, seed)
    for viewer in VIEWERS:
        text = as_json(state, viewer)
        assert str(seed) not in text and "seed" not in text
        assert "draw_pile" not in text and '"draw"' not in text


def test_drawn_cards_are_shown_only_to_the_player_who_drew_them(pos: Pos) -> None:
    state = pos(([2, 5, 6, 9, 11], [1, 3, 4, 8, 10]), phase="replace", cat=-3, draw_top=[7, 12])
    state = engine.apply(state, 0, {"type": "replace", "cards": ["2", "9"]})
    mine = engine.view(state, 0)["events"][-1]
    theirs = engine.view(state, 1)["events"][-1]
    assert mine == {"type": "replace", "seat": 0, "count": 2, "discarded": ["2", "9"], "forced": False,
                    "drawn": ["7", "12"]}  # fmt: skip
    assert theirs == {key: value for key, value in mine.items() if key != "drawn"}
    assert engine.view(state, None)["events"][-1] == theirs


def test_attack_shows_the_cards_and_how_many_answers_are_needed(pos: Pos) -> None:
    state = engine.apply(pos(([3, 7, 7, 10], [1, 6, 9, 12]), attacker=0), 0, {"type": "attack", "cards": ["7", "7"]})
    view = engine.view(state, None)
    assert view["attack"] == {"attacker": 0, "defender": 1, "cards": ["7", "7"], "kind": "set", "answers_needed": 2}
    assert view["hand_counts"] == [2, 4]
    assert view["to_act"] == [1] and view["attacker"] == 0


def test_events_are_capped_at_thirty(start: Start) -> None:
    state = start(seed=4)
    rng = random.Random(4)
    while not state.over:
        seat = rng.choice(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    assert len(engine.view(state, 0)["events"]) == 30
    assert all(isinstance(e, Event) for e in state.events)


def test_goals_say_whose_goal_is_where(start: Start) -> None:
    view = engine.view(start(), 1)
    assert view["goals"] == [{"seat": 0, "position": -4, "label": "WOW"}, {"seat": 1, "position": 4, "label": "YAY"}]
    assert view["your_goal"] == 4 and engine.view(start(), None)["your_goal"] is None
