"""Bot levels: legal at every level, bounded work (each match scored once, at most FIRST_MOVES plans),
hard watches the others' hands, and every level decides from the view only."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games.dos import bot
from games.dos.cards import CODES
from games.dos.positions import position, scramble
from games.dos.rules import engine
from games.dos.state import State
from tests.games.dos.dos_support import Q, match, playout, random_policy
from tests.games.dos.test_bot_hard import count_plays


def choose(state: State, level: str) -> dict[str, Any]:
    seat = state.current
    view = engine.view(state, seat)
    return bot.choose(view, engine.legal_actions(state, seat), rng=Random(0), budget_s=0.5, level=level)


@pytest.mark.parametrize("level", bot.LEVELS)
def test_every_level_picks_a_legal_action(level: str) -> None:
    # Random players' hands grow huge, which makes hard's playouts slow; a smaller budget plays fewer
    # of them, and the answer is one of the candidates (legal actions) whatever the budget.
    budget_s = 0.01 if level == "hard" else 0.1
    for players in (2, 3, 4):
        for before, seat, _action, _after in playout(players, players + 10, random_policy):
            legal = engine.legal_actions(before, seat)
            assert bot.choose(engine.view(before, seat), legal, rng=Random(1), budget_s=budget_s, level=level) in legal


def test_an_unknown_level_is_refused() -> None:
    state = position(hands=[["Y7", "G3"], Q], center=["R7", "B9"])
    with pytest.raises(ValueError, match="Unknown level 'expert'"):
        choose(state, "expert")


@pytest.mark.parametrize(("level", "budget_s"), [("medium", 0.5), ("hard", 0.01)])
def test_the_work_is_bounded_even_on_the_largest_choice(
    level: str, budget_s: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Work, not time: every legal match is scored exactly once, and at most FIRST_MOVES plans are built;
    hard adds its playouts (each scores the matches of the hand it simulates), at most its budget of plays."""
    hand = [c for c in CODES if not c.endswith("#") and c != "W2" for _ in range(2)]
    hand += ["R#", "G#", "B#", "Y#", "W2", "W2"]
    state = position(hands=[hand, ["W2"]], center=["R#", "G#", "B#", "Y#", "W2", "W2", "W2"], resolve=False)
    legal = engine.legal_actions(state, 0)
    scored = 0
    real_score = bot._match_score

    def counting(*args: Any) -> float:
        nonlocal scored
        scored += 1
        return real_score(*args)

    monkeypatch.setattr(bot, "_match_score", counting)
    plays = count_plays(monkeypatch)
    action = bot.choose(engine.view(state, 0), legal, rng=Random(0), budget_s=budget_s, level=level)
    assert action in legal
    matches = sum(1 for a in legal if a["type"] == "match")
    assert matches > 6000
    if level == "medium":
        assert scored == matches and plays[0] == 0
    else:
        assert scored > matches and 0 < plays[0] <= 1.1 * budget_s * bot.PLAYS_PER_SECOND


def test_hard_values_penalising_a_player_about_to_go_out() -> None:
    """B4+B5 on B9 makes the opponent draw a card: worth more to hard when the opponent holds one card."""
    hand = ["B4", "B5", "G9", "R10"]
    calm = engine.view(position(hands=[hand, ["G1", "G6", "G7", "G8"]], center=["R3", "B9"]), 0)
    urgent = engine.view(position(hands=[hand, ["G1"]], center=["R3", "B9"]), 0)
    double = match(1, "B4", "B5")
    assert bot._outlook(calm).threats == 0 and bot._outlook(urgent).threats == 1
    calm_score = bot._match_score(double, calm, bot._outlook(calm))
    assert bot._match_score(double, urgent, bot._outlook(urgent)) == calm_score + bot.PENALTY_ON_THREAT
    # Medium does not look at the others' hands.
    assert bot._match_score(double, calm) == bot._match_score(double, urgent)


@pytest.mark.parametrize("level", bot.LEVELS)
def test_a_decision_does_not_depend_on_the_cards_the_seat_cannot_see(level: str) -> None:
    rng = Random(4)
    checked = 0
    for before, seat, _action, _after in playout(3, 77, random_policy):
        other = scramble(before, seat, rng)
        assert engine.view(other, seat) == engine.view(before, seat)
        legal = engine.legal_actions(before, seat)
        first = bot.choose(engine.view(before, seat), legal, rng=Random(3), budget_s=0.1, level=level)
        second = bot.choose(engine.view(other, seat), legal, rng=Random(3), budget_s=0.1, level=level)
        assert first == second
        checked += other.hands != before.hands
    assert checked > 10


class CountingList(list):  # type: ignore[type-arg]
    """A list that counts how often it is walked through: the easy level's only work."""

    passes = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        CountingList.passes += 1
        return super().__iter__()


def test_easy_looks_at_each_legal_action_a_few_times_at_most() -> None:
    """Easy searches nothing: a few passes over the legal list, however large, whatever the budget."""
    hand = [c for c in CODES if not c.endswith("#") and c != "W2" for _ in range(2)]
    hand += ["R#", "G#", "B#", "Y#", "W2", "W2"]
    state = position(hands=[hand, ["W2"]], center=["R#", "G#", "B#", "Y#", "W2", "W2", "W2"], resolve=False)
    legal = CountingList(engine.legal_actions(state, 0))
    assert len(legal) > 6000
    CountingList.passes = 0
    action = bot.choose(engine.view(state, 0), legal, rng=Random(0), budget_s=0.5, level="easy")
    assert action in legal
    assert 1 <= CountingList.passes <= 4
