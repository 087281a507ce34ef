"""Replacement caps and arrows (TAC-2, TAC-5, TAC-6), the arrow tie rule (TAC-11), fresh deals and the
secrecy of commits: rules of shared/rules/tacocat.md that the other tests left weakly pinned.

Each test names its rule id. Positions use the test board from conftest.py:
-3 (5 cards, arrow A), -2 (4, B), -1 (6, A), 0 (7, both), +1 (4, A), +2 (9, B), +3 (3, both).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from games.engine import IllegalAction
from games.tacocat.rules import engine
from games.tacocat.state import DUEL, REPLACE, State

Pos = Callable[..., State]
Start = Callable[..., State]

FIELD = {"replace": "cards", "attack": "cards", "defend": "answers"}


def play(state: State, seat: int, kind: str, *cards: int) -> State:
    if kind == "duel":
        return engine.apply(state, seat, {"type": "duel", "card": str(cards[0])})
    return engine.apply(state, seat, {"type": kind, FIELD[kind]: [str(c) for c in cards]})


def rejected(state: State, seat: int, kind: str, *cards: int, message: str) -> None:
    before = engine.dump(state)
    with pytest.raises(IllegalAction, match=re.escape(message)):
        play(state, seat, kind, *cards)
    assert engine.dump(state) == before


def as_json(state: State, viewer: int | None) -> str:
    return json.dumps(engine.view(state, viewer), sort_keys=True)


def replace_sizes(state: State, seat: int) -> list[int]:
    return [len(a["cards"]) for a in engine.legal_actions(state, seat)]


def test_second_replacer_may_replace_exactly_the_cap_and_is_offered_nothing_more_tac6_e2(pos: Pos) -> None:
    # -3 points at A: A replaces first and freely (any k <= n), B then any j <= k.
    state = pos(([2, 5, 6, 9, 11], [1, 3, 4, 8, 10]), phase=REPLACE, cat=-3, draw_top=[7, 7, 12, 12])
    assert max(replace_sizes(state, 0)) == 5 and len(replace_sizes(state, 0)) == 2**5
    state = play(state, 0, "replace", 2, 9)
    sizes = replace_sizes(state, 1)
    assert max(sizes) == 2
    assert len(sizes) == 1 + 5 + 10  # every choice of 0, 1 or 2 of B's five different cards
    state = play(state, 1, "replace", 1, 3)  # j == k is allowed
    assert state.phase == DUEL and state.replaced == (2, 2)
    assert state.hands[1] == (4, 8, 10, 12, 12)


def test_a_new_round_on_a_one_arrow_space_starts_with_the_arrow_player_and_no_cap_tac5_tac6(pos: Pos) -> None:
    # Round 1 is played on -2 with a cap of 2: A wins the duel 12 vs 4 and attacks with 12, B sacrifices
    # its 2, B wins the showdown 3 vs 5 and the cat moves to -1 (arrow A).
    state = pos(([5, 12, 12], [2, 3, 4]), phase=DUEL, cat=-2, replaced=(2, 2), cap=2)
    state = play(play(state, 0, "duel", 12), 1, "duel", 4)
    state = play(play(state, 0, "attack", 12), 1, "defend", 2)
    assert state.cat == -1 and state.phase == REPLACE and state.round_no == 2
    assert state.cap is None and state.replaced == (None, None)
    assert engine.view(state, 0)["revealed"] is None and state.attacker is None  # last round's duel is gone
    assert engine.to_act(state) == [0]
    assert max(replace_sizes(state, 0)) == 6
    rejected(state, 1, "replace", message="It is not your turn.")


def test_tie_rule_arrow_on_a_space_pointing_at_b_moves_the_cat_toward_b_tac11_e9(pos: Pos) -> None:
    state = pos(([3, 9], [3, 10]), attacker=0, cat=-2, tie_rule="arrow")  # -2 points at B
    state = play(play(state, 0, "attack", 9), 1, "defend", 10)  # showdown 3 vs 3
    assert state.cat == -1 and state.covered == (-2,)
    assert state.last_round is not None and state.last_round.tie and state.last_round.winner == 1


def test_every_round_is_dealt_from_a_fresh_shuffle_of_all_cards_tac5(pos: Pos) -> None:
    def after_tie(round_no: int, hands: tuple[list[int], list[int]]) -> State:
        state = pos(hands, attacker=0, cat=1, round_no=round_no, seed=11)
        state = play(play(state, 0, "attack", max(hands[0])), 1, "defend", max(hands[1]))
        assert state.round_no == round_no + 1 and state.cat == 1  # a tie: new round, same space
        return state

    round2, round3 = after_tie(1, ([3, 9], [3, 10])), after_tie(2, ([3, 9], [3, 10]))
    assert (round2.hands, round2.draw) != (round3.hands, round3.draw)
    # The new deal depends only on the match's RNG, not on how the previous round went.
    other2 = after_tie(1, ([6, 11], [6, 12]))
    assert (other2.hands, other2.draw) == (round2.hands, round2.draw)


def test_how_many_cards_a_seat_committed_to_replace_stays_secret_until_both_commit_tac6_s2(start: Start) -> None:
    # Section 0.1: nothing about a submission but "submitted" is shown; the count is part of the choice.
    state = start(seed=4)
    five = play(state, 0, "replace", *state.hands[0][:5])
    none = play(state, 0, "replace")
    for viewer in (1, None):
        assert as_json(five, viewer) == as_json(none, viewer)
    assert engine.view(five, 1)["replaced"] == [None, None]
    assert engine.view(five, 1)["hand_counts"] == [7, 7] and engine.view(five, 1)["draw_count"] == 24


def test_replacing_a_card_not_held_is_refused_before_anything_is_committed_tac6(start: Start, pos: Pos) -> None:
    deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 2, 3]
    state = start(deck=[str(c) for c in deck])  # A holds 1 2 3 5 7 9 11
    rejected(state, 0, "replace", 4, message="You do not hold a 4.")
    rejected(state, 0, "replace", 1, 1, message="You do not hold another 1.")
    assert engine.view(state, 1)["committed"] == [False, False]
    one_arrow = pos(([2, 5, 6, 9, 11], [1, 3, 4, 8, 10]), phase=REPLACE, cat=-3)
    rejected(one_arrow, 0, "replace", 12, message="You do not hold a 12.")


def test_a_two_arrow_space_off_the_centre_also_lets_both_replace_freely_and_secretly_tac2_tac6(pos: Pos) -> None:
    # +3 of the test board has both arrows: the rule follows the arrows, not the position.
    state = pos(([2, 5, 6], [1, 3, 4]), phase=REPLACE, cat=3, draw_top=[12, 11, 10, 9])
    assert engine.to_act(state) == [0, 1]
    assert max(replace_sizes(state, 0)) == max(replace_sizes(state, 1)) == 3
    state = play(state, 1, "replace", 1, 3, 4)  # B commits first and replaces more than A: no cap
    assert state.hands[1] == (1, 3, 4) and state.discard == ()
    state = play(state, 0, "replace", 2)
    assert state.phase == DUEL and state.replaced == (1, 3) and state.cap is None
    assert state.hands == ((5, 6, 12), (9, 10, 11))  # A's replacement is executed first
    assert state.discard == (2, 1, 3, 4)


def test_an_answer_equal_to_the_attack_card_is_a_defence_and_logged_as_one_tac9_tac10(pos: Pos) -> None:
    state = play(pos(([3, 8, 12], [2, 8, 11]), attacker=0), 0, "attack", 8)
    state = play(state, 1, "defend", 8)
    assert state.attacker == 1 and state.hands[1] == (2, 11)
    events = engine.view(state, None)["events"][-2:]
    assert events == [
        {"type": "defend", "seat": 1, "attack": "8", "card": "8"},
        {"type": "exchange", "seat": 1, "defended": True},
    ]
