"""Back Alley's analysis asks the hard computer player from the deciding seat's view only: changing
the cards that seat cannot see changes nothing of the suggestion."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.backalley import analysis, bot, rules
from games.backalley.rules import engine
from games.kit.analysis import DISAGREED


def actor_and_state(seed: int, plays: int) -> tuple[int, object]:
    """The seat to act and the state after ``plays`` decisions taken by the medium computer player."""
    state = engine.new_game(4, seed, {"first_deal": 25})
    rng = random.Random(seed)
    for _ in range(plays):
        seat = engine.to_act(state)[0]
        action = bot.choose(engine.view(state, seat), engine.legal_actions(state, seat), rng=rng, budget_s=0.01)
        state = engine.apply(state, seat, action)
    return engine.to_act(state)[0], state


def with_hidden_hands_swapped(state: object, actor: int) -> object:
    """The same table for ``actor``: two other seats' hands exchanged (the same sizes, other cards)."""
    a, b = [s for s in range(4) if s != actor][:2]
    hands = list(state.hands)  # type: ignore[attr-defined]
    hands[a], hands[b] = hands[b], hands[a]
    return dataclasses.replace(state, hands=tuple(hands))  # type: ignore[type-var]


@pytest.mark.parametrize(("seed", "plays"), [(1, 0), (2, 2), (3, 7), (4, 12)])
def test_changing_hidden_cards_gives_the_same_suggestion(
    seed: int, plays: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a bid (plays 0 and 2: the hard level simulates) and in the play, the suggestion is made from
    the seat's view: the other hands exchanged, the view is the same and so is the suggestion."""
    monkeypatch.setattr(analysis, "BUDGET_S", 0.05)
    actor, state = actor_and_state(seed, plays)
    other = with_hidden_hands_swapped(state, actor)
    assert other.hands != state.hands  # type: ignore[attr-defined]
    legal = engine.legal_actions(state, actor)
    assert len(legal) > 1
    records = []
    for s in (state, other):
        (task,) = analysis.tasks([s], [(actor, legal[0])])
        # The revealed hands are there for the second question only: the first, from the seat's view,
        # is the same without them (nothing else of the state is in the task).
        assert set(task) == {"step", "seat", "view", "legal", "played", "hands"}
        record = analysis.evaluate(task)
        view_only = analysis.evaluate({key: value for key, value in task.items() if key != "hands"})
        assert view_only == {key: value for key, value in record.items() if not key.startswith("known_")}
        records.append(view_only)
    assert records[0] == records[1]
    assert records[0]["best"] in legal
    assert records[0]["grade"] == ("" if records[0]["best"] == legal[0] else DISAGREED)


def test_a_forced_decision_is_not_analysed() -> None:
    """A single legal action (a forced card) cannot be disagreed with: no task."""
    state = engine.new_game(4, 5, {"first_deal": 25})
    rng = random.Random(5)
    while engine.to_act(state):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        if len(legal) == 1:
            assert analysis.tasks([state], [(seat, legal[0])]) == []
            return
        state = engine.apply(state, seat, bot.choose(engine.view(state, seat), legal, rng=rng, budget_s=0.01))
    pytest.fail("no forced decision in the deal")


def test_the_suggestion_is_the_hard_level_at_the_budget_in_play() -> None:
    assert analysis.BUDGET_S == 0.5
    assert rules.engine is engine
