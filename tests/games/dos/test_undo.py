"""Taking back a step of one's own turn (docs/games/dos.md, "undo"): a match before "End matching" or a
bonus card before the last one, never across a draw, a refill, a reveal or another seat's action."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dos.actions import UNDO
from games.dos.positions import position
from games.dos.rules import engine
from games.dos.state import State
from tests.games.dos.dos_support import DRAW, FINISH, SKIP, Q, V, act, bonus, bot_policy, match, playout, rejects, since
from tests.games.dos.test_properties import check_state, round_trip

NOTHING = "There is nothing to take back: you have not matched or placed a card this turn."
AFTER_DRAW = "You drew a card this turn, so there is nothing left to take back."


def offers_undo(state: State, seat: int | None = None) -> bool:
    return UNDO in engine.legal_actions(state, state.current if seat is None else seat)


def without_events(state: State) -> dict[str, Any]:
    dumped = engine.dump(state)
    del dumped["events"], dumped["event_count"]
    return dumped


def test_a_match_before_end_matching_can_be_taken_back_exactly() -> None:
    start = position(hands=[["Y7", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"], draw=["Y1"])
    assert not offers_undo(start)
    state = act(start, match(0, "Y7"))
    assert engine.legal_actions(state, 0)[-2:] == [FINISH, UNDO]
    back = act(state, UNDO)
    assert without_events(back) == without_events(start)
    assert DRAW in engine.legal_actions(back, 0)
    assert not offers_undo(back)
    told = since(back, state)
    assert [(e["type"], e["seat"], e["step"], e["cards"]) for e in told] == [("undo", 0, "match", ["Y7"])]
    # Everyone at the table is told, and nobody learns anything they did not see played.
    assert since(back, state, 1) == told


def test_two_matches_come_back_one_at_a_time_latest_first() -> None:
    start = position(hands=[["Y7", "B4", "B5", "G3"], Q, V], center=["R7", "B9", "G6"], draw=["Y1"])
    one = act(start, match(0, "Y7"))
    two = act(one, match(1, "B4", "B5"))
    assert engine.view(two, 0)["undo_steps"] == 2
    assert engine.view(two, 1)["undo_steps"] == 2
    assert without_events(act(two, UNDO)) == without_events(one)
    assert without_events(act(act(two, UNDO), UNDO)) == without_events(start)
    # The double colour match's penalty and bonus go with it.
    assert (two.penalties, two.bonus) == (1, 1)
    assert (act(two, UNDO).penalties, act(two, UNDO).bonus) == (0, 0)


def test_a_bonus_card_can_be_taken_back_until_the_last_one() -> None:
    start = position(hands=[["B4", "B5", "G10", "R10", "Y1"], Q, V], center=["R7", "B9", "Y1"], draw=["Y3", "Y4"])
    state = act(act(start, match(1, "B4", "B5")), match(2, "Y1"))  # two colour matches
    assert offers_undo(state)
    state = act(state, FINISH)
    # The refill turned up unknown cards: nothing before it can be taken back.
    assert state.phase == "bonus" and state.bonus == 2
    assert not offers_undo(state)
    rejects(state, UNDO, NOTHING)
    placed = act(state, bonus("G10"))
    assert placed.bonus == 1 and offers_undo(placed)
    assert without_events(act(placed, UNDO)) == without_events(state)
    # Skipping ends the turn: the next seat is to act and has nothing to take back.
    after = act(placed, SKIP)
    assert after.current == 1 and not offers_undo(after)


def test_the_last_bonus_card_ends_the_turn_and_cannot_be_taken_back() -> None:
    start = position(hands=[["R7", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"], draw=["Y1"])
    state = act(act(start, match(0, "R7")), FINISH)
    after = act(state, bonus("G3"))
    assert after.current == 1
    assert not offers_undo(after, 0) and not offers_undo(after, 1)


def test_nothing_after_a_draw_can_be_taken_back() -> None:
    start = position(hands=[["G3", "Y6"], Q, V], center=["R7", "B9"], draw=["R3", "Y1"])
    drawn = act(start, DRAW)
    assert not offers_undo(drawn)
    rejects(drawn, UNDO, AFTER_DRAW)
    # The one match after a draw ends the turn (DOS-9).
    after = act(drawn, match(1, "R3", "Y6"))
    assert after.current == 1 and not offers_undo(after)


def test_a_match_that_ends_the_turn_cannot_be_taken_back() -> None:
    """The last open card matched (or the hand emptied) ends the turn, and the refill draws."""
    start = position(hands=[["Y7", "G3"], Q, V], center=["R7"], draw=["Y1", "Y3"])
    after = act(start, match(0, "Y7"))
    assert after.current == 1
    assert not any(offers_undo(after, seat) for seat in range(3))


def test_another_seat_may_not_take_back_and_an_undo_is_refused_at_the_start_of_a_turn() -> None:
    start = position(hands=[["Y7", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"], draw=["Y1"])
    rejects(start, UNDO, NOTHING)
    state = act(start, match(0, "Y7"))
    assert engine.legal_actions(state, 1) == []
    dumped = engine.dump(state)
    with pytest.raises(Exception, match=r"^It is not your turn\.$"):
        engine.apply(state, 1, UNDO)
    assert engine.dump(state) == dumped


def test_a_state_with_nothing_to_take_back_dumps_as_before() -> None:
    """States stored before undo existed replay to the same JSON: an empty stack is not written."""
    state = engine.new_game(3, 5)
    assert "undo" not in engine.dump(state)
    round_trip(act(state, engine.legal_actions(state, state.current)[0]))


def test_the_acting_seat_alone_sees_what_an_undo_would_restore() -> None:
    state = act(position(hands=[["Y7", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"], draw=["Y1"]), match(0, "Y7"))
    assert engine.view(state, 0)["undo"][0]["hand"] == ["G3", "B10", "Y6", "Y7"]
    assert engine.view(state, 1)["undo"] == [] and engine.view(state, None)["undo"] == []


# ------------------------------------------------------------------------------------------ playouts


def _new_events(before: State, after: State) -> set[str]:
    return {e["type"] for e in since(after, before)}


def undoing_policy(chance: float) -> Any:
    def policy(state: State, seat: int, legal: list[dict[str, Any]], rng: Random) -> dict[str, Any]:
        if UNDO in legal and rng.random() < chance:
            return UNDO
        return rng.choice([a for a in legal if a != UNDO])

    return policy


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31), chance=st.sampled_from([0.2, 0.5]))
def test_undo_is_offered_exactly_after_an_undoable_step_and_restores_it(players: int, seed: int, chance: float) -> None:
    """An independent oracle: a step is undoable when it was a match or a bonus card, the same seat
    still acts, and it told the table of nothing else (no draw, refill, reshuffle, penalty or deal).
    Any other step clears the stack. Random undos keep every invariant and the game still ends."""
    stack: list[State] = []
    undos = 0
    for before, seat, action, after in playout(players, seed, undoing_policy(chance)):
        if action == UNDO:
            undos += 1
            restored = stack.pop()
            assert without_events(after) == without_events(restored)
            assert _new_events(before, after) == {"undo"}
        elif (
            action["type"] in ("match", "bonus")
            and after.current == seat
            and after.phase == before.phase
            and _new_events(before, after) == {action["type"]}
        ):
            stack.append(before)
        else:
            stack.clear()
        check_state(after)
        for other in range(players):
            assert offers_undo(after, other) == (other == after.current and bool(stack) and not engine.result(after))
        json.dumps(engine.view(after, after.current))
    assert engine.result(after) is not None
    round_trip(after)
    assert undos > 0 or chance < 0.5


def test_replaying_the_actions_with_undos_gives_the_same_state() -> None:
    """The engine is deterministic with undo: the log of actions alone rebuilds the state."""
    actions = [(seat, action) for _b, seat, action, _a in playout(3, 11, undoing_policy(0.5))]
    assert any(a == UNDO for _s, a in actions)
    state = engine.new_game(3, 11)
    for seat, action in actions:
        state = engine.apply(state, seat, action)
    final = list(playout(3, 11, undoing_policy(0.5)))[-1][3]
    assert engine.dump(state) == engine.dump(final)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_computer_players_never_take_back(players: int) -> None:
    for _before, _seat, action, _after in playout(players, players, bot_policy):
        assert action != UNDO
