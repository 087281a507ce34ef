"""Helpers for the Back Alley engine tests: stacked deals, scripted bids and plays, playouts."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from games.backalley.cards import ALL_CARDS
from games.backalley.rules import engine
from games.backalley.state import State
from games.engine import Action, IllegalAction

Policy = Callable[[State, int, random.Random], Action]


def act(state: State, action: Action) -> State:
    """Apply ``action`` for the seat whose turn it is."""
    (seat,) = engine.to_act(state)
    return engine.apply(state, seat, action)


def bid(state: State, *bids: str | int) -> State:
    """Bids in turn order, from the seat now to bid."""
    for b in bids:
        state = act(state, {"type": "bid", "bid": b})
    return state


def play(state: State, *cards: str) -> State:
    """Cards in turn order, from the seat now to play."""
    for c in cards:
        state = act(state, {"type": "play", "card": c})
    return state


def legal_cards(state: State, seat: int) -> list[str]:
    return [a["card"] for a in engine.legal_actions(state, seat) if a["type"] == "play"]


def hand(state: State, seat: int) -> list[str]:
    return engine.view(state, seat)["hand"]


def every_card(state: State) -> list[int]:
    """Every card wherever it is: hands, stock, upcard, swapped-out joker, current and finished tricks."""
    cards = [c for h in state.hands for c in h]
    cards += list(state.stock)
    cards.append(state.upcard)
    if state.swap is not None:
        cards.append(state.swap.joker)
    cards += list(state.trick)
    for t in state.tricks_played:
        cards += list(t.cards)
    return cards


def assert_conserved(state: State) -> None:
    cards = every_card(state)
    assert sorted(cards) == list(ALL_CARDS), "the 54 cards are not all in exactly one place"


def random_policy(state: State, seat: int, rng: random.Random) -> Action:
    return rng.choice(engine.legal_actions(state, seat))


def playout(state: State, policy: Policy, rng: random.Random, max_steps: int = 5000) -> Iterator[State]:
    """Yield every state from ``state`` to the end of the match."""
    yield state
    for _ in range(max_steps):
        if engine.result(state) is not None:
            return
        (seat,) = engine.to_act(state)
        state = engine.apply(state, seat, policy(state, seat, rng))
        yield state
    raise AssertionError("the match did not end")


def canonical(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def refusal(state: State, seat: int, action: Action) -> str:
    """The message ``apply`` refuses ``action`` with, after checking it left ``state`` untouched."""
    before = json.dumps(engine.dump(state), sort_keys=True)
    try:
        engine.apply(state, seat, action)
    except IllegalAction as exc:
        assert json.dumps(engine.dump(state), sort_keys=True) == before
        return exc.message
    raise AssertionError(f"{action} was accepted")
