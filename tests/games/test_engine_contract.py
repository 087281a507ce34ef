"""The contract every game's engine keeps (docs/engine-conventions.md), checked for every registered game.

A game registered later is covered without a line here. Each game supplies one hook for these tests:
``scramble(state, seat, rng)`` in its ``positions.py``, which reshuffles what ``seat`` cannot know.
Game-specific invariants (cards conserved, scores, ...) stay in each game's own tests.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import registry
from games.engine import Action, Engine, IllegalAction, InvalidAction

GAMES = registry.all_games()
# Far more actions than any game needs (a random DOS game can take a few thousand).
MAX_ACTIONS = 20_000
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

Scramble = Callable[[Any, int | None, Random], Any]


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def scramble_hook(engine: Engine) -> Scramble:
    package = type(engine).__module__.rpartition(".")[0]
    hook = getattr(importlib.import_module(f"{package}.positions"), "scramble", None)
    if hook is None:
        pytest.fail(f"{package}.positions must define scramble(state, seat, rng) (docs/engine-conventions.md)")
    return hook


def random_steps(
    engine: Engine, players: int, seed: int, rng: Random, limit: int
) -> tuple[Any, list[tuple[int, Action]]]:
    """The state after up to ``limit`` random legal actions, and the action log that led there."""
    states, log = random_game(engine, players, seed, rng, limit)
    return states[-1], log


def random_game(
    engine: Engine, players: int, seed: int, rng: Random, limit: int
) -> tuple[list[Any], list[tuple[int, Action]]]:
    """Every state of up to ``limit`` random legal actions, and the action log between them."""
    states = [engine.new_game(players, seed)]
    log: list[tuple[int, Action]] = []
    for _ in range(limit):
        to_act = engine.to_act(states[-1])
        if not to_act:
            break
        seat = rng.choice(to_act)
        action = rng.choice(engine.legal_actions(states[-1], seat))
        log.append((seat, action))
        states.append(engine.apply(states[-1], seat, action))
    return states, log


def table(game: registry.Game) -> st.SearchStrategy[int]:
    return st.integers(game.min_players, game.max_players)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
@settings(max_examples=4, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_random_playouts_end_and_replay_to_the_same_state(game: registry.Game, data: st.DataObject, seed: int) -> None:
    engine = game.engine
    players = data.draw(table(game), label="players")
    states, log = random_game(engine, players, seed, Random(seed), MAX_ACTIONS)
    state = states[-1]
    assert engine.to_act(state) == [], f"no end after {MAX_ACTIONS} actions"
    result = engine.result(state)
    assert result is not None
    assert len(result["scores"]) == len(result["ranks"]) == players
    assert all(engine.result(s) is None for s in states[:-1])
    # Determinism: the same seed and actions give the same states, so the action log is the full record.
    again = engine.new_game(players, seed)
    assert again == states[0]
    for (seat, action), expected in zip(log, states[1:], strict=True):
        again = engine.apply(again, seat, action)
        assert again == expected
    assert canonical(engine.dump(again)) == canonical(engine.dump(state))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
@settings(max_examples=10, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 400))
def test_dump_and_load_round_trip_through_json(game: registry.Game, data: st.DataObject, seed: int, steps: int) -> None:
    engine = game.engine
    state, _ = random_steps(engine, data.draw(table(game), label="players"), seed, Random(seed), steps)
    dumped = engine.dump(state)
    loaded = engine.load(json.loads(json.dumps(dumped)))
    assert loaded == state
    assert engine.dump(loaded) == dumped
    assert engine.result(loaded) == engine.result(state)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
@settings(max_examples=6, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1), steps=st.integers(1, 250))
def test_apply_accepts_exactly_the_legal_actions_and_a_refusal_changes_nothing(
    game: registry.Game, data: st.DataObject, seed: int, steps: int
) -> None:
    engine = game.engine
    players = data.draw(table(game), label="players")
    rng = Random(seed)
    state = engine.new_game(players, seed)
    # Actions legal somewhere in this game: the likeliest to be wrongly accepted elsewhere.
    seen: dict[str, Action] = {}
    refused = 0
    for _ in range(steps):
        to_act = engine.to_act(state)
        if not to_act:
            break
        before = canonical(engine.dump(state))
        for seat in range(players):
            legal = engine.legal_actions(state, seat)
            listed = {canonical(a) for a in legal}
            assert len(listed) == len(legal), "an action is listed twice"
            assert bool(legal) == (seat in to_act)
            for action in legal if len(legal) <= 8 else rng.sample(legal, 8):
                engine.apply(state, seat, action)
            others = [a for key, a in seen.items() if key not in listed]
            for action in rng.sample(others, min(8, len(others))):
                with pytest.raises(IllegalAction):
                    engine.apply(state, seat, action)
                refused += 1
            seen.update((canonical(a), a) for a in legal)
        assert canonical(engine.dump(state)) == before, "a refused or trial action changed the state"
        seat = rng.choice(to_act)
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    assert refused > 0 or steps < 3


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
@settings(max_examples=15, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 300), shuffle=st.integers(0, 2**31))
def test_a_view_depends_only_on_what_its_seat_may_know(
    game: registry.Game, data: st.DataObject, seed: int, steps: int, shuffle: int
) -> None:
    engine = game.engine
    scramble = scramble_hook(engine)
    players = data.draw(table(game), label="players")
    state, _ = random_steps(engine, players, seed, Random(seed), steps)
    rng = Random(shuffle)
    for seat in [*range(players), None]:
        seen = canonical(engine.view(state, seat))
        for _ in range(2):
            other = scramble(state, seat, rng)
            # Not vacuous: the scramble changed something (the seed, at least, no seat may know).
            assert other != state
            assert canonical(engine.view(other, seat)) == seen, f"seat {seat} sees something it cannot know"


def not_seats(players: int) -> list[Any]:
    """Values a seat may arrive as from a careless caller or JSON: bools (Python counts them as ints,
    False == 0), strings, floats, and ints off the table."""
    return [False, True, "0", "1", 0.0, 1.0, -1, players, players + 1, 2**40, [0]]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
@settings(max_examples=6, **SETTINGS)
@given(data=st.data(), seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 120))
def test_a_value_that_is_not_a_seat_is_refused_by_legal_actions_apply_and_view(
    game: registry.Game, data: st.DataObject, seed: int, steps: int
) -> None:
    """games.kit.seats: a seat is an int 0..players-1 everywhere; anything else is refused clearly,
    the same way by every method (Back Alley once listed seat 0's bids for ``False`` but refused them)."""
    engine = game.engine
    players = data.draw(table(game), label="players")
    state, _ = random_steps(engine, players, seed, Random(seed), steps)
    before = canonical(engine.dump(state))
    to_act = engine.to_act(state)
    # A real action of the seat to act: the likeliest to be wrongly accepted from a seat that is not one.
    actions = engine.legal_actions(state, to_act[0]) if to_act else []
    for bad in [*not_seats(players), None]:
        with pytest.raises(InvalidAction, match="There is no seat"):
            engine.legal_actions(state, bad)
        for action in actions[:3] or [{"type": "pass"}]:
            with pytest.raises(InvalidAction, match="There is no seat"):
                engine.apply(state, bad, action)
        if bad is not None:
            with pytest.raises(InvalidAction, match="There is no seat"):
                engine.view(state, bad)
    assert canonical(engine.dump(state)) == before
    # The spectator and every real seat still see the table.
    for seat in [*range(players), None]:
        assert engine.view(state, seat)["seat"] == seat
