"""Bot levels: legal at every level, hard's Monte Carlo bids stay inside their budget counted in card
plays (never wall time), bid closer to the tricks really taken than easy or medium, and every level
decides from the seat's view only."""

from __future__ import annotations

import random
from functools import partial

import pytest

from games.backalley import bot, novice
from games.backalley.positions import position as stacked
from games.backalley.positions import scramble
from games.backalley.rules import engine
from games.backalley.state import State
from tests.games.backalley.backalley_support import bid, play


def _decisions(seed: int, levels: list[str], first_deal: int = 22) -> list[tuple[State, int]]:
    """Every decision of a short match (the last deals: 4, 3, 2 ... cards) with one level per seat."""
    rng = random.Random(seed)
    state = engine.new_game(4, seed, {"first_deal": first_deal})
    seen = []
    while engine.result(state) is None:
        (seat,) = engine.to_act(state)
        legal = engine.legal_actions(state, seat)
        seen.append((state, seat))
        action = bot.choose(engine.view(state, seat), legal, rng=rng, budget_s=0.05, level=levels[seat])
        assert action in legal
        state = engine.apply(state, seat, action)
    return seen


def test_every_level_plays_a_match_legally() -> None:
    assert _decisions(4, ["easy", "medium", "hard", "easy"])
    assert _decisions(5, ["hard", "easy", "medium", "hard"])


def test_an_unknown_level_is_refused() -> None:
    state = engine.new_game(4, 1)
    (seat,) = engine.to_act(state)
    with pytest.raises(ValueError, match="Unknown level 'expert'"):
        bot.choose(engine.view(state, seat), engine.legal_actions(state, seat), rng=random.Random(0), budget_s=0.5,
                   level="expert")  # fmt: skip


@pytest.mark.parametrize("budget_s", [0.005, 0.05, 0.5])
def test_a_hard_bid_never_simulates_more_card_plays_than_its_budget(budget_s: float) -> None:
    allowed = bot.work_budget(budget_s)
    used = []
    for seed in range(6):
        state = engine.new_game(4, seed)  # 13 cards: the dearest deal to simulate
        (seat,) = engine.to_act(state)
        legal = engine.legal_actions(state, seat)
        decision = bot.decide(engine.view(state, seat), legal, rng=random.Random(seed), budget_s=budget_s, level="hard")
        assert decision.action in legal
        used.append(decision.work)
    assert 0 < max(used) <= allowed * 1.1
    if budget_s == 0.005:
        # 100 plays hold one 13-card deal (52 plays) but not two: the bound binds and is not passed.
        assert used == [52] * 6


def test_medium_and_easy_simulate_nothing() -> None:
    state = engine.new_game(4, 3)
    (seat,) = engine.to_act(state)
    legal = engine.legal_actions(state, seat)
    for level in ("easy", "medium"):
        assert bot.decide(engine.view(state, seat), legal, rng=random.Random(0), budget_s=0.5, level=level).work == 0


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_decision_does_not_depend_on_the_cards_the_seat_cannot_see(level: str) -> None:
    shuffler = random.Random(9)
    checked = 0
    for state, seat in _decisions(7, ["hard", "medium", "easy", "hard"], first_deal=20)[::3]:
        other = scramble(state, seat, shuffler)
        legal = engine.legal_actions(state, seat)
        assert engine.view(other, seat) == engine.view(state, seat)
        assert engine.legal_actions(other, seat) == legal
        first = bot.choose(engine.view(state, seat), legal, rng=random.Random(2), budget_s=0.05, level=level)
        second = bot.choose(engine.view(other, seat), legal, rng=random.Random(2), budget_s=0.05, level=level)
        assert first == second
        checked += other.hands != state.hands
    assert checked > 10


def _bid_errors() -> dict[str, float]:
    """Mean |estimate - tricks taken| per level, over the first bidder's hand in fixed seeded deals,
    the deal then played out by four medium bots."""
    errors = {"easy": 0.0, "medium": 0.0, "hard": 0.0}
    deals = 0
    for seed in range(16):
        state = engine.new_game(4, 100 + seed, {"first_deal": 6})  # 8 cards each
        (seat,) = engine.to_act(state)
        view = engine.view(state, seat)
        table = bot._table(view)
        estimates = {
            "easy": float(novice._winners(table.hand, table.trump)),
            "medium": bot.estimate_tricks(table),
            "hard": bot.montecarlo.simulate(
                me=seat, hand=table.hand, unseen=sorted(table.unseen), counts=table.counts, trump=table.trump,
                leader=(view["dealer"] + 1) % 4, rng=random.Random(seed), max_plays=10**6, max_deals=64,
            ).mean_mine(),
        }  # fmt: skip
        medium = partial(bot.choose, level="medium")
        rng = random.Random(seed)
        before_last = 0
        while engine.view(state, seat)["deal_number"] == 6:
            before_last = engine.view(state, seat)["tricks"]["seats"][seat]
            (actor,) = engine.to_act(state)
            legal = engine.legal_actions(state, actor)
            state = engine.apply(state, actor, medium(engine.view(state, actor), legal, rng=rng, budget_s=0.5))
        # The last card scored the deal and dealt the next; the last trick stays shown.
        tricks = before_last + (engine.view(state, seat)["last_trick"]["winner"] == seat)
        for level, estimate in estimates.items():
            errors[level] += abs(estimate - tricks)
        deals += 1
    return {level: total / deals for level, total in errors.items()}


def test_hard_estimates_its_tricks_better_than_medium_and_easy() -> None:
    errors = _bid_errors()
    assert errors["hard"] < errors["medium"]
    assert errors["hard"] < errors["easy"]


def test_easy_overtakes_its_partner_where_medium_ducks() -> None:
    """The partner's king holds the trick (the ace is in this hand): medium plays low, the beginner
    wins the trick again with its ace."""
    state = stacked(["KC 2D 3D", "5C 4D 5D", "AC 2C 6D", "3C 7D 8D"], "9H", deal=15)
    state = play(bid(state, 1, "pass", "pass", "pass"), "KC", "5C")
    legal = engine.legal_actions(state, 2)
    view = engine.view(state, 2)
    assert bot.choose(view, legal, rng=random.Random(0), budget_s=0.5, level="medium") == {"type": "play", "card": "2C"}
    assert bot.choose(view, legal, rng=random.Random(0), budget_s=0.5, level="easy") == {"type": "play", "card": "AC"}
