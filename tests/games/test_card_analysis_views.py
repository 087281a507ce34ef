"""DOS and Tacocat analysis: the hard computer player is asked from the deciding seat's view only, so
changing cards that seat cannot see (an opponent's hand against the draw pile) changes nothing of the
suggestion; a decision named in another card order is the same decision."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from games.dos import analysis as dos_analysis
from games.dos import bot as dos_bot
from games.dos.rules import engine as dos_engine
from games.tacocat import analysis as taco_analysis
from games.tacocat import bot as taco_bot
from games.tacocat.rules import engine as taco_engine

GAMES = {
    "dos": (dos_engine, dos_bot, dos_analysis, 3, {"target": 30}),
    "tacocat": (taco_engine, taco_bot, taco_analysis, 2, {}),
}


def played_to(game: str, seed: int, decisions: int) -> tuple[int, Any]:
    engine, bot, _analysis, players, options = GAMES[game]
    state = engine.new_game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(decisions):
        seat = engine.to_act(state)[0]
        state = engine.apply(
            state, seat, bot.choose(engine.view(state, seat), engine.legal_actions(state, seat), rng=rng, budget_s=0.01)
        )
    return engine.to_act(state)[0], state


def with_unseen_card_exchanged(state: Any, actor: int, pile: str) -> Any:
    """An opponent's first card exchanged with the draw pile's top card: the same table for ``actor``."""
    opponent = next(s for s in range(len(state.hands)) if s != actor and state.hands[s])
    hand = list(state.hands[opponent])
    draw = list(getattr(state, pile))
    i = next(i for i, card in enumerate(draw) if card != hand[0])
    hand[0], draw[i] = draw[i], hand[0]
    hands = list(state.hands)
    hands[opponent] = (
        tuple(sorted(hand)) if state.hands[opponent] == tuple(sorted(state.hands[opponent])) else tuple(hand)
    )
    return dataclasses.replace(state, hands=tuple(hands), **{pile: tuple(draw)})


@pytest.mark.parametrize(("game", "pile"), [("dos", "draw_pile"), ("tacocat", "draw")])
@pytest.mark.parametrize("decisions", [0, 3, 6])
def test_changing_unseen_cards_gives_the_same_suggestion(
    game: str, pile: str, decisions: int, monkeypatch: Any
) -> None:
    engine, _bot, analysis, *_ = GAMES[game]
    monkeypatch.setattr(analysis, "BUDGET_S", 0.05)
    actor, state = played_to(game, 11 + decisions, decisions)
    other = with_unseen_card_exchanged(state, actor, pile)
    assert other != state
    assert engine.view(other, actor) == engine.view(state, actor)
    legal = engine.legal_actions(state, actor)
    records = []
    for s in (state, other):
        tasks = analysis.tasks([s], [(actor, legal[0])])
        if len(legal) == 1:
            assert tasks == []
            return
        (task,) = tasks
        # The revealed hands are there for the second question only: the first, from the seat's view,
        # is the same without them (nothing else of the state is in the task).
        assert set(task) == {"step", "seat", "view", "legal", "played", "hands"}
        record = analysis.evaluate(task)
        view_only = analysis.evaluate({key: value for key, value in task.items() if key != "hands"})
        assert view_only == {key: value for key, value in record.items() if not key.startswith("known_")}
        records.append(view_only)
    assert records[0] == records[1]
    assert any(analysis.same(records[0]["best"], action) for action in legal)


def test_the_same_cards_in_another_order_are_the_same_decision() -> None:
    assert taco_analysis.same(
        {"type": "attack", "cards": ["5", "4", "6"]}, {"type": "attack", "cards": ["4", "5", "6"]}
    )
    assert not taco_analysis.same({"type": "defend", "answers": ["9", "1"]}, {"type": "defend", "answers": ["1", "9"]})
    assert dos_analysis.same(
        {"type": "match", "target": 0, "cards": ["R5", "W2"], "declare": [None, "R"]},
        {"type": "match", "target": 0, "cards": ["W2", "R5"], "declare": ["R", None]},
    )
    assert not dos_analysis.same(
        {"type": "match", "target": 0, "cards": ["R5", "W2"], "declare": [None, "R"]},
        {"type": "match", "target": 1, "cards": ["R5", "W2"], "declare": [None, "R"]},
    )
