"""Bot levels: every level plays legally, the search stays inside its budget counted in positions
visited (never wall time), and a decision depends only on the seat's view."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from games.tacocat import bot
from games.tacocat.rules import engine
from games.tacocat.state import State

sys.path.insert(0, str(Path(__file__).resolve().parent))
from games.tacocat.positions import scramble


def _states(seed: int, levels: tuple[str, str]) -> list[tuple[State, int]]:
    """Every decision of one game between two levels: (state, seat to decide)."""
    rng = random.Random(seed)
    state = engine.new_game(2, seed)
    seen = []
    while not state.over:
        seat = rng.choice(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        seen.append((state, seat))
        action = bot.choose(engine.view(state, seat), legal, rng=rng, budget_s=0.05, level=levels[seat])
        assert action in legal
        state = engine.apply(state, seat, action)
    return seen


@pytest.mark.parametrize("levels", [("easy", "medium"), ("medium", "hard"), ("hard", "easy")])
def test_every_level_plays_a_whole_game_legally(levels: tuple[str, str]) -> None:
    assert _states(3, levels)


def test_an_unknown_level_is_refused() -> None:
    state = engine.new_game(2, 1)
    seat = engine.to_act(state)[0]
    with pytest.raises(ValueError, match="Unknown level 'expert'"):
        bot.choose(engine.view(state, seat), engine.legal_actions(state, seat), rng=random.Random(0), budget_s=0.5,
                   level="expert")  # fmt: skip


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize("budget_s", [0.002, 0.02, 0.5])
def test_no_decision_visits_more_positions_than_its_budget_allows(budget_s: float, level: str) -> None:
    """Work, not time: the search stops before its node budget, whatever the host's speed."""
    allowed = bot.node_budget(budget_s)
    used = []
    for state, seat in _states(11, (level, level)):
        legal = engine.legal_actions(state, seat)
        decision = bot.decide(engine.view(state, seat), legal, rng=random.Random(5), budget_s=budget_s, level=level)
        assert decision.action in legal
        used.append(decision.nodes)
    assert max(used) <= allowed * 1.1
    assert max(used) > 0  # the search did run: the count is real
    if budget_s == 0.002:
        assert max(used) == allowed  # a tight budget is used up, and not passed


def test_hard_searches_more_than_medium_and_medium_more_than_easy() -> None:
    totals = dict.fromkeys(bot.LEVELS, 0)
    for state, seat in _states(4, ("medium", "medium")):
        legal = engine.legal_actions(state, seat)
        for level in bot.LEVELS:
            view = engine.view(state, seat)
            totals[level] += bot.decide(view, legal, rng=random.Random(2), budget_s=0.5, level=level).nodes
    assert totals["easy"] == 0 < totals["medium"] < totals["hard"]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_decision_does_not_depend_on_the_cards_the_seat_cannot_see(level: str) -> None:
    rng = random.Random(8)
    checked = 0
    for state, seat in _states(21, ("medium", "hard")):
        other = scramble(state, seat, rng)
        assert engine.view(other, seat) == engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        # The memo of solved positions is shared by a process's decisions (it holds only positions of
        # sampled hands): start both from the same one, so only the hidden cards differ.
        bot._MEMO.clear()
        first = bot.choose(engine.view(state, seat), legal, rng=random.Random(1), budget_s=0.02, level=level)
        bot._MEMO.clear()
        second = bot.choose(engine.view(other, seat), legal, rng=random.Random(1), budget_s=0.02, level=level)
        assert first == second
        checked += other.hands != state.hands
    assert checked  # the hidden cards really were different


def test_hard_pruned_search_finds_the_same_values_with_fewer_positions() -> None:
    """Pruning only stops at a sure win or a sure loss, so every value is exact; the ordering and the
    cut-offs save positions."""
    deck = [v for v in range(1, 13) for _ in range(3)] + [6, 7]
    rng = random.Random(6)
    full_total = pruned_total = 0
    for size in (2, 3, 4, 5):
        for _ in range(6):
            cards = rng.sample(deck, 2 * size)
            mine, theirs = tuple(sorted(cards[:size])), tuple(sorted(cards[size:]))
            for attack in (True, False):
                bot._MEMO.clear()
                full = bot.Search(10**9)
                value = full.solve(mine, theirs, attack)
                bot._MEMO.clear()
                pruned = bot.Search(10**9, prune=True)
                assert pruned.solve(mine, theirs, attack) == value
                full_total += full.nodes
                pruned_total += pruned.nodes
    bot._MEMO.clear()
    assert pruned_total < full_total / 2
