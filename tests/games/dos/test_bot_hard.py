"""The hard level's playouts: samples consistent with the seat's view, work counted in plays and kept
within the budget, the same answer for the same rng."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from games.dos import bot, simulate
from games.dos.cards import FULL_DECK
from games.dos.positions import position
from games.dos.rules import engine
from games.dos.state import State
from tests.games.dos.dos_support import bot_policy, playout

VIEW_KEYS = ("hand", "hand_counts", "center_row", "draw_count", "discard_count", "phase", "current", "scores")


def decisions(players: int, seed: int, every: int) -> list[tuple[State, int]]:
    """Every ``every``-th decision of a game between medium players (hands of a realistic size)."""
    return [
        (before, seat)
        for i, (before, seat, _a, _after) in enumerate(playout(players, seed, bot_policy))
        if not i % every
    ]


def table(state: State) -> list[str]:
    cards = [c for hand in state.hands for c in hand] + list(state.draw_pile) + list(state.discard)
    return cards + [cr.card for cr in state.center] + [p.card for cr in state.center for p in cr.played]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sample_deals_only_unseen_cards_and_shows_the_seat_the_same_table(players: int) -> None:
    rng = Random(7)
    for before, seat in decisions(players, 40 + players, every=5):
        view = engine.view(before, seat)
        sample = simulate.sample_state(view, simulate.unseen_cards(view), rng)
        assert sample is not None
        assert Counter(table(sample)) == Counter(FULL_DECK)
        seen = engine.view(sample, seat)
        assert {key: seen[key] for key in VIEW_KEYS} == {key: view[key] for key in VIEW_KEYS}
        assert engine.legal_actions(sample, seat) == engine.legal_actions(before, seat)


def count_plays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every simulated action goes through ``simulate.step``: counting it counts the hard level's work."""
    plays = [0]
    real = simulate.step

    def counting(state: State, action: dict[str, Any]) -> State:
        plays[0] += 1
        return real(state, action)

    monkeypatch.setattr(simulate, "step", counting)
    return plays


@pytest.mark.parametrize("budget_s", [0.01, 0.05])
def test_hard_stays_within_its_budget_of_plays(budget_s: float, monkeypatch: pytest.MonkeyPatch) -> None:
    plays = count_plays(monkeypatch)
    budget = budget_s * bot.PLAYS_PER_SECOND
    most = 0
    for before, seat in decisions(2, 11, every=3) + decisions(4, 12, every=6):
        plays[0] = 0
        legal = engine.legal_actions(before, seat)
        assert bot.choose(engine.view(before, seat), legal, rng=Random(0), budget_s=budget_s, level="hard") in legal
        assert plays[0] <= 1.1 * budget
        most = max(most, plays[0])
    # The budget is used, not ignored: some decision weighs several candidates over many deals.
    assert most > budget / 2


def test_hard_is_repeatable_for_the_same_rng() -> None:
    """Two plans that shed as many cards: which is better depends on what happens next, which hard plays
    out. The same rng gives the same answer."""
    state = position(hands=[["B4", "B5", "G4", "Y5", "R10", "Y#"], ["G1", "G6"]], center=["R3", "B9", "G9"])
    view, legal = engine.view(state, 0), engine.legal_actions(state, 0)
    first = bot.choose(view, legal, rng=Random(5), budget_s=0.05, level="hard")
    assert first in legal
    assert bot.choose(view, legal, rng=Random(5), budget_s=0.05, level="hard") == first
    assert len(bot._candidates(view, legal, bot._outlook(view))) == bot.CANDIDATES


def test_a_round_won_in_the_playout_counts_more_than_any_hand_difference() -> None:
    state = position(hands=[["R7"], ["G1", "G6", "G7"]], center=["R7", "B9"])
    won = simulate.step(state, {"type": "match", "target": 0, "cards": ["R7"]})
    assert won.history and won.history[-1].winner == 0
    assert simulate.value(won, 0) >= simulate.ROUND_WON > simulate.value(state, 0)
    assert simulate.value(won, 1) == -simulate.value(won, 0)


def test_at_four_players_the_horizon_reads_as_each_seats_chance_of_winning_the_round() -> None:
    hands = [["R7", "G3"], ["G1", "G6", "G7"], ["B1", "B3", "B4"], ["Y5", "Y#", "B9"]]
    state = position(hands=hands, center=["R8", "B10"])
    chances = [simulate.value(state, seat) for seat in range(4)]
    assert sum(chances) == pytest.approx(1.0)
    # Fewest cards and about to play: the favourite. Of equal hands the earlier turn is better, and a
    # Wild # outweighs playing last.
    assert chances[0] == max(chances)
    assert chances[3] > chances[1] > chances[2]
    won = simulate.step(
        position(hands=[["R7"], *hands[1:]], center=["R7", "B10"]), {"type": "match", "target": 0, "cards": ["R7"]}
    )
    assert won.history and won.history[-1].winner == 0
    assert (simulate.value(won, 0), simulate.value(won, 1)) == (1.0, 0.0)
