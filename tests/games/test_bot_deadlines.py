"""Every game's computer player stops at its wall-clock deadline on a slow host.

The work budgets (nodes, plays) are calibrated on the reference host; a busy one runs them slower, so
each search also reads a monotonic clock at safe points and stops once ``budget_s`` has passed. Here
the clock is fake and moves on a fixed step per read (a host far slower than the reference), so where
a search stops is exact: no wall-clock timing is asserted. Reversi's compiled search has its own tests
(tests/games/reversi/test_levels.py); its pure-Python levels are checked here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.backalley import bot as backalley_bot
from games.backalley.rules import engine as backalley_engine
from games.dos import bot as dos_bot
from games.dos import simulate
from games.dos.positions import position
from games.dos.rules import engine as dos_engine
from games.reversi import bot as reversi_bot
from games.reversi import endgame
from games.reversi.rules import engine as reversi_engine
from games.support import deadline
from games.tacocat import bot as tacocat_bot
from games.tacocat.rules import engine as tacocat_engine

BUDGET_S = 0.5
STEP = 0.02  # seconds the fake clock moves per read
# The deadline is set at the first read and passed at the first read after BUDGET_S more.
READS_TO_DEADLINE = round(BUDGET_S / STEP) + 2


class SlowClock:
    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads * STEP


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> SlowClock:
    """The deadline on, read from the fake clock."""
    fake = SlowClock()
    monkeypatch.setattr(deadline, "ENFORCED", True)
    monkeypatch.setattr(deadline, "monotonic", fake)
    return fake


def _tacocat_decision_that_spends_its_budget() -> tuple[Any, list[Any]]:
    """A hard decision of a hard-against-hard game whose search, unhurried, spends its whole node budget."""
    rng = random.Random(11)
    state = tacocat_engine.new_game(2, 11)
    while not state.over:
        seat = rng.choice(tacocat_engine.to_act(state))
        view, legal = tacocat_engine.view(state, seat), tacocat_engine.legal_actions(state, seat)
        used = tacocat_bot.decide(view, legal, rng=random.Random(5), budget_s=BUDGET_S, level="hard").nodes
        if used == tacocat_bot.node_budget(BUDGET_S):
            return view, legal
        state = tacocat_engine.apply(state, seat, tacocat_bot.choose(view, legal, rng=rng, budget_s=0.05, level="hard"))
    raise AssertionError("no decision of the game spent its budget")


def test_tacocat_stops_at_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    view, legal = _tacocat_decision_that_spends_its_budget()
    clock = SlowClock()
    monkeypatch.setattr(deadline, "ENFORCED", True)
    monkeypatch.setattr(deadline, "monotonic", clock)
    decision = tacocat_bot.decide(view, legal, rng=random.Random(5), budget_s=BUDGET_S, level="hard")
    assert decision.action in legal
    assert clock.reads == READS_TO_DEADLINE
    assert decision.nodes <= clock.reads * tacocat_bot.CLOCK_EVERY < tacocat_bot.node_budget(BUDGET_S)


def test_dos_hard_stops_at_its_deadline(clock: SlowClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read after every playout (at most MAX_PLAYOUT plays), counted through ``simulate.step``."""
    plays = [0]
    real_step = simulate.step

    def counting(state: Any, action: dict[str, Any]) -> Any:
        plays[0] += 1
        return real_step(state, action)

    monkeypatch.setattr(simulate, "step", counting)
    state = position(hands=[["B4", "B5", "G4", "Y5", "R10", "Y#"], ["G1", "G6"]], center=["R3", "B9", "G9"])
    view, legal = dos_engine.view(state, 0), dos_engine.legal_actions(state, 0)
    assert dos_bot.choose(view, legal, rng=random.Random(5), budget_s=BUDGET_S, level="hard") in legal
    assert clock.reads == READS_TO_DEADLINE
    assert plays[0] <= clock.reads * (dos_bot.MAX_PLAYOUT + 1) < BUDGET_S * dos_bot.PLAYS_PER_SECOND


def test_back_alley_hard_bid_stops_at_its_deadline(clock: SlowClock) -> None:
    """Read before every simulated deal after the first (13 cards a hand: 52 plays a deal)."""
    state = backalley_engine.new_game(4, 0)
    (seat,) = backalley_engine.to_act(state)
    view, legal = backalley_engine.view(state, seat), backalley_engine.legal_actions(state, seat)
    decision = backalley_bot.decide(view, legal, rng=random.Random(0), budget_s=BUDGET_S, level="hard")
    assert decision.action in legal
    assert clock.reads == READS_TO_DEADLINE
    # Unhurried, it would play HARD_DEALS deals (3,328 plays) of its 10,000.
    assert decision.work == 52 * (clock.reads - 1) < 52 * backalley_bot.HARD_DEALS


def test_reversi_medium_stops_at_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reversi's searches read their own clock (``bot.perf_counter``) every ``endgame.CHECK_EVERY``
    nodes. (Easy looks one move ahead: a dozen nodes, no clock needed.)"""
    reads = [0]

    def slow() -> float:
        reads[0] += 1
        return reads[0] * STEP

    monkeypatch.setattr(reversi_bot, "perf_counter", slow)
    rng = random.Random(2)
    state = reversi_engine.new_game(2, 2)
    for _ in range(24):
        seat = state.to_move
        state = reversi_engine.apply(state, seat, rng.choice(reversi_engine.legal_actions(state, seat)))
    p, o = (state.black, state.white) if state.to_move == 0 else (state.white, state.black)
    decision = reversi_bot.decide(p, o, level="medium", budget_s=BUDGET_S, rng=random.Random(0))
    assert reads[0] == READS_TO_DEADLINE
    assert decision.nodes <= reads[0] * endgame.CHECK_EVERY < decision.limit
