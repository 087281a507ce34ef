"""The computer player: always legal, plays sensibly, beats a random player, and is fast."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tacocat import bot
from games.tacocat.rules import engine
from games.tacocat.state import DUEL, REPLACE, State
from tests.workcount import calls_made

Pos = Callable[..., State]
Start = Callable[..., State]
Player = Callable[..., dict[str, Any]]


def random_player(
    view: dict[str, Any], legal: list[dict[str, Any]], *, rng: random.Random, budget_s: float
) -> dict[str, Any]:
    return rng.choice(legal)


def play_game(seed: int, players: tuple[Player, Player], work: list[int] | None = None) -> State:
    """Play a game out; with ``work``, also count the bot's function calls per decision (with a budget
    so large its clock never cuts the sampling short, so the count does not depend on the machine)."""
    rng = random.Random(seed)
    state = engine.new_game(2, seed)
    budget_s = 0.5 if work is None else 3600.0
    while not state.over:
        seat = rng.choice(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        if work is not None and players[seat] is bot.choose:
            action, calls = calls_made(lambda: bot.choose(view, legal, rng=rng, budget_s=budget_s))  # noqa: B023
            work.append(calls)
        else:
            action = players[seat](view, legal, rng=rng, budget_s=budget_s)
        assert action in legal
        state = engine.apply(state, seat, action)
    return state


def choose(state: State, seat: int, seed: int = 0) -> dict[str, Any]:
    legal = engine.legal_actions(state, seat)
    action = bot.choose(engine.view(state, seat), legal, rng=random.Random(seed), budget_s=0.5)
    assert action in legal
    return action


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**40))
def test_bot_always_returns_a_legal_action(seed: int) -> None:
    state = play_game(seed, (bot.choose, bot.choose))
    assert engine.result(state) is not None


def test_bot_beats_a_random_player() -> None:
    games = 40
    wins = 0
    for seed in range(games):
        bot_seat = seed % 2
        players = (bot.choose, random_player) if bot_seat == 0 else (random_player, bot.choose)
        wins += play_game(seed, players).winner == bot_seat
    assert wins / games >= 0.85


def test_bot_is_fast() -> None:
    """Its sampling is bounded: about 10,600 function calls a decision on average, 292,000 at most,
    in these games today. The time per move belongs to bench/bench_tacocat.py."""
    work: list[int] = []
    for seed in range(6):
        play_game(seed, (bot.choose, bot.choose), work)
    assert statistics.mean(work) < 25_000
    assert max(work) < 600_000


def test_bot_attacks_with_its_high_card_and_keeps_the_low_one_for_the_showdown(pos: Pos) -> None:
    state = pos(([1, 9], [4, 6]), attacker=0, discard=[2, 2, 3])
    assert choose(state, 0) == {"type": "attack", "cards": ["9"]}


def test_bot_duels_with_its_high_card_when_the_low_one_decides_the_showdown(pos: Pos) -> None:
    state = pos(([2, 11], [5, 7]), phase=DUEL)
    assert choose(state, 0) == {"type": "duel", "card": "11"}


def test_bot_makes_a_jumbo_attack_with_a_high_set(pos: Pos) -> None:
    state = pos(([2, 3, 11, 11, 11, 12], [1, 4, 5, 6, 7, 8]), attacker=0)
    cards = choose(state, 0)["cards"]
    assert len(cards) >= 2 and set(cards) == {"11"}


def test_bot_sacrifices_a_spare_low_card_rather_than_spend_its_weapons(pos: Pos) -> None:
    state = engine.apply(
        pos(([2, 3, 4, 5, 10, 10], [1, 1, 1, 11, 12, 12]), attacker=0), 0, {"type": "attack", "cards": ["10", "10"]}
    )
    answers = choose(state, 1)["answers"]
    assert "1" in answers and sorted(answers, key=int) != ["1", "1"]


def test_bot_defends_rather_than_sacrifice_its_only_low_card(pos: Pos) -> None:
    state = engine.apply(pos(([3, 8, 10], [1, 9, 12]), attacker=0), 0, {"type": "attack", "cards": ["8"]})
    assert choose(state, 1)["answers"] != ["1"]


def test_bot_replaces_middle_cards_and_keeps_low_and_high_ones(pos: Pos) -> None:
    state = pos(([1, 6, 7, 11, 12], [2, 3, 4, 5, 9]), phase=REPLACE, cat=-3)
    assert choose(state, 0) == {"type": "replace", "cards": ["6", "7"]}


def test_bot_commits_in_simultaneous_steps_and_waits_once_committed(start: Start) -> None:
    state = start()
    assert engine.to_act(state) == [0, 1]
    state = engine.apply(state, 1, choose(state, 1))
    assert engine.legal_actions(state, 1) == []
    state = engine.apply(state, 0, choose(state, 0))
    assert state.phase == DUEL and engine.to_act(state) == [0, 1]
    state = engine.apply(state, 0, choose(state, 0))
    assert engine.view(state, 1)["committed"] == [True, False]
    assert choose(state, 1)["type"] == "duel"
