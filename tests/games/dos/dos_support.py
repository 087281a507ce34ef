"""Helpers shared by the DOS engine tests: actions, short looks at a state, and playouts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from random import Random
from typing import Any

import pytest

from games.dos import bot
from games.dos.rules import engine
from games.dos.state import State
from games.engine import IllegalAction

#: Hands for Q (seat 1) and V (seat 2) when a scenario does not care: a Wild # always has a match.
Q = ["R#", "G1", "B8"]
V = ["G#", "Y3", "R6"]

MAX_ACTIONS = 6000
Policy = Callable[[State, int, list[dict[str, Any]], Random], dict[str, Any]]


def act(state: State, action: dict[str, Any]) -> State:
    """``action`` by the seat whose turn it is."""
    return engine.apply(state, state.current, action)


def match(target: int, *cards: str, **declarations: Any) -> dict[str, Any]:
    return {"type": "match", "target": target, "cards": list(cards), **declarations}


FINISH = {"type": "finish"}
DRAW = {"type": "draw"}
SKIP = {"type": "skip_bonus"}


def place(card: str) -> dict[str, Any]:
    return {"type": "place", "card": card}


def bonus(card: str) -> dict[str, Any]:
    return {"type": "bonus", "card": card}


def row(state: State) -> list[str]:
    return [cr["card"] for cr in engine.view(state, None)["center_row"]]


def events(state: State, seat: int | None = None) -> list[dict[str, Any]]:
    return engine.view(state, seat)["events"]


def since(state: State, before: State, seat: int | None = None) -> list[dict[str, Any]]:
    """The events ``state`` added after ``before``, as ``seat`` sees them."""
    return [e for e in events(state, seat) if e["n"] > before.event_count]


def last_match(state: State) -> dict[str, Any]:
    return [e for e in events(state) if e["type"] == "match"][-1]


def rejects(state: State, action: Any, message: str, error: type = IllegalAction) -> None:
    """``action`` raises ``error`` with exactly ``message``, and the state is untouched."""
    before = engine.dump(state)
    with pytest.raises(error) as raised:
        act(state, action)
    assert type(raised.value) is error
    assert raised.value.message == message
    assert engine.dump(state) == before


def random_policy(state: State, seat: int, legal: list[dict[str, Any]], rng: Random) -> dict[str, Any]:
    return rng.choice(legal)


def bot_policy(state: State, seat: int, legal: list[dict[str, Any]], rng: Random) -> dict[str, Any]:
    return bot.choose(engine.view(state, seat), legal, rng=rng, budget_s=0.1)


def playout(
    players: int, seed: int, policy: Policy, options: dict[str, Any] | None = None
) -> Iterator[tuple[State, int, dict[str, Any], State]]:
    """(state, seat, action, next state) for each action of a whole game."""
    rng = Random(seed)
    state = engine.new_game(players, seed, options)
    for _ in range(MAX_ACTIONS):
        if engine.result(state) is not None:
            return
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        action = policy(state, seat, legal, rng)
        after = engine.apply(state, seat, action)
        yield state, seat, action, after
        state = after
    raise AssertionError(f"no result after {MAX_ACTIONS} actions")
