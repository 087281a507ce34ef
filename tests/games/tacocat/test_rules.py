"""Every rule (TAC-1..TAC-13), edge case (TAC-E1..E15) and scenario (TAC-S1..S10) of
shared/rules/tacocat.md, each as its own test. Positions use the test board from conftest.py."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import IllegalAction, InvalidAction
from games.tacocat.cards import DEFAULT_CONFIG, PLACEHOLDER_DISTRIBUTION
from games.tacocat.rules import engine
from games.tacocat.state import ATTACK, DEFEND, DUEL, OVER, REPLACE, State

Pos = Callable[..., State]
Start = Callable[..., State]

FIELD = {"replace": "cards", "attack": "cards", "defend": "answers"}


def action(kind: str, *cards: int) -> dict[str, Any]:
    if kind == "duel":
        return {"type": "duel", "card": str(cards[0])}
    return {"type": kind, FIELD[kind]: [str(c) for c in cards]}


def play(state: State, seat: int, kind: str, *cards: int) -> State:
    return engine.apply(state, seat, action(kind, *cards))


def rejected(state: State, seat: int, kind: str, *cards: int, message: str) -> None:
    before = engine.dump(state)
    with pytest.raises(IllegalAction, match=re.escape(message)):
        play(state, seat, kind, *cards)
    assert engine.dump(state) == before


def hand(state: State, seat: int) -> list[int]:
    return list(state.hands[seat])


def types(state: State) -> list[str]:
    return [e["type"] for e in engine.view(state, None)["events"]]


def total_cards(state: State) -> Counter[int]:
    return Counter((*state.hands[0], *state.hands[1], *state.draw, *state.discard, *state.attack))


# --- TAC-1 deck ---------------------------------------------------------------------------------


def test_placeholder_deck_has_38_cards_valued_1_to_12_tac1() -> None:
    deck = DEFAULT_CONFIG.deck()
    assert len(deck) == 38
    assert set(deck) == set(range(1, 13))
    assert dict(Counter(deck)) == PLACEHOLDER_DISTRIBUTION


def test_configured_distribution_is_the_whole_deck_of_every_round_tac1(start: Start) -> None:
    state = start(seed=5)
    expected = Counter({1: 4, 12: 4} | {v: 3 for v in range(2, 12)})
    assert total_cards(state) == expected


# --- TAC-2 board, TAC-3 tiles, TAC-4 setup -------------------------------------------------------


def test_track_is_seven_spaces_spelling_tacocat_with_configured_sizes_and_arrows_tac2(start: Start) -> None:
    track = engine.view(start(), 0)["track"]
    assert "".join(s["letter"] for s in track) == "TACOCAT"
    assert [s["position"] for s in track] == [-3, -2, -1, 0, 1, 2, 3]
    assert [s["hand_size"] for s in track] == [5, 4, 6, 7, 4, 9, 3]
    assert [s["arrow"] for s in track] == ["A", "B", "A", "both", "A", "B", "both"]
    assert [s["favours"] for s in track] == [0, 1, 0, None, 0, 1, None]


def test_centre_deals_seven_and_both_replace_at_once_tac2_tac4(start: Start) -> None:
    state = start()
    assert engine.to_act(state) == [0, 1]
    assert len(state.hands[0]) == len(state.hands[1]) == 7


def test_setup_puts_cat_on_centre_with_no_tiles_and_the_rest_in_the_draw_pile_tac4(start: Start) -> None:
    view = engine.view(start(), None)
    assert view["cat"] == 0
    assert view["covered"] == [] and not any(s["covered"] for s in view["track"])
    assert view["hand_counts"] == [7, 7]
    assert view["draw_count"] == 38 - 14
    assert view["discard"] == []
    assert view["phase"] == REPLACE and view["round"] == 1


# --- TAC-5 dealing -------------------------------------------------------------------------------


def test_deal_alternates_one_card_at_a_time_starting_with_seat_0_tac5(start: Start) -> None:
    deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2]
    state = start(deck=[str(c) for c in deck])
    assert hand(state, 0) == sorted(deck[0::2])
    assert hand(state, 1) == sorted(deck[1::2])


def test_a_stacked_full_deck_fixes_the_draw_pile_top_first_tac5(start: Start) -> None:
    deck = sorted(Counter({1: 4, 12: 4} | {v: 3 for v in range(2, 12)}).elements(), reverse=True)
    state = start(deck=[str(c) for c in deck])
    assert list(state.draw) == deck[14:]


def test_a_stacked_prefix_is_dealt_first_and_the_rest_is_a_seeded_shuffle_tac5(start: Start) -> None:
    prefix = ["12", "1", "12", "1"]
    a, b, c = start(seed=1, deck=prefix), start(seed=1, deck=prefix), start(seed=2, deck=prefix)
    assert a == b
    assert a.hands[0].count(12) >= 2 and a.hands[1].count(1) >= 2
    assert (a.hands, a.draw) != (c.hands, c.draw)
    assert total_cards(a) == total_cards(start())


def test_every_new_round_reshuffles_all_cards_and_deals_the_new_spaces_hand_size_tac5(pos: Pos) -> None:
    # A wins the showdown 2 vs 5, so the cat moves to -1, whose hand size on the test board is 6.
    state = pos(([2, 12], [3, 5]), attacker=0, discard=[7, 7, 8])
    state = play(play(state, 0, "attack", 12), 1, "defend", 3)
    assert state.cat == -1 and state.round_no == 2
    assert len(state.hands[0]) == len(state.hands[1]) == 6
    assert state.discard == ()
    assert len(state.draw) == 38 - 12
    assert total_cards(state) == total_cards(pos(([], []), phase=REPLACE))
    assert types(state)[-1] == "round_start"


# --- TAC-6 replace -------------------------------------------------------------------------------


def test_scenario_s1_second_replacer_is_capped_by_the_first_tac6_e2(pos: Pos) -> None:
    # Position -3 of the test board: hand size 5, the arrow points at A.
    state = pos(([2, 5, 6, 9, 11], [1, 3, 4, 8, 10]), phase=REPLACE, cat=-3, draw_top=[7, 7, 12, 1, 12])
    assert engine.to_act(state) == [0]
    state = play(state, 0, "replace", 2, 9, 11)
    assert hand(state, 0) == [5, 6, 7, 7, 12]
    assert engine.view(state, 1)["replacement_cap"] == 3
    rejected(state, 1, "replace", 1, 3, 4, 8, message="You may replace at most 3 cards")
    state = play(state, 1, "replace", 1, 3)
    assert [int(c) for c in engine.view(state, None)["discard"]] == [2, 9, 11, 1, 3]
    assert len(state.hands[0]) == len(state.hands[1]) == 5
    assert hand(state, 1) == [1, 4, 8, 10, 12]
    assert state.phase == DUEL


def test_second_replacer_must_wait_for_the_first_tac6(pos: Pos) -> None:
    state = pos(([2, 5, 6, 9, 11], [1, 3, 4, 8, 10]), phase=REPLACE, cat=-3)
    rejected(state, 1, "replace", message="It is not your turn.")


def test_first_replacer_may_replace_the_whole_hand_from_the_top_of_the_draw_pile_tac6(pos: Pos) -> None:
    state = pos(([2, 5, 6, 9, 11], [1, 3, 4, 8, 10]), phase=REPLACE, cat=-2, draw_top=[12, 1, 7, 7, 6, 4])
    # -2 points at B.
    state = play(state, 1, "replace", 1, 3, 4, 8, 10)
    assert hand(state, 1) == [1, 6, 7, 7, 12]
    assert state.draw[0] == 4


def test_each_player_replaces_only_once_per_round_tac6(pos: Pos) -> None:
    state = pos(([2, 5, 6, 9, 11], [1, 3, 4, 8, 10]), phase=REPLACE, cat=-3)
    state = play(state, 0, "replace", 2)
    rejected(state, 0, "replace", 5, message="You have already replaced cards this round.")


def test_first_replacer_keeping_everything_forbids_the_second_to_replace_tac_e3(pos: Pos) -> None:
    state = pos(([2, 5, 6, 9, 11], [1, 3, 4, 8, 10]), phase=REPLACE, cat=-3)
    state = play(state, 0, "replace")
    # Cap 0 leaves B no choice, so that step is forced and the duel begins.
    assert state.phase == DUEL and engine.to_act(state) == [0, 1]
    assert state.replaced == (0, 0) and state.cap == 0
    last = engine.view(state, None)["events"][-1]
    assert last == {"type": "replace", "seat": 1, "count": 0, "discarded": [], "forced": True}


def test_an_empty_replace_form_is_keep_tac6(pos: Pos) -> None:
    state = pos(([2, 5, 6, 9, 11], [1, 3, 4, 8, 10]), phase=REPLACE, cat=-3)
    assert engine.apply(state, 0, {"type": "replace"}) == play(state, 0, "replace")


def test_scenario_s2_both_replace_secretly_on_the_centre_tac6(start: Start) -> None:
    deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 2, 3, 12, 12, 11, 11, 10]
    state = start(deck=[str(c) for c in deck])
    a_hand = hand(state, 0)
    assert a_hand == [1, 2, 3, 5, 7, 9, 11]
    state = play(state, 0, "replace", 1, 2, 3, 5, 7)
    b_view = engine.view(state, 1)
    assert b_view["committed"] == [True, False]
    assert b_view["your_commit"] is None and b_view["discard"] == []
    assert b_view["events"][-1] == {"type": "commit", "seat": 0, "step": "replace"}
    assert engine.view(state, 0)["your_commit"] == ["1", "2", "3", "5", "7"]
    assert hand(state, 0) == a_hand  # nothing happens before both have chosen
    state = play(state, 1, "replace")
    view = engine.view(state, 1)
    assert view["discard"] == ["1", "2", "3", "5", "7"]
    assert view["replaced"] == [5, 0]
    assert view["replacement_cap"] is None  # no cap on a two-arrow space
    assert hand(state, 0) == [9, 10, 11, 11, 11, 12, 12]  # kept 9 and 11, drew 12, 12, 11, 11, 10
    assert view["hand"] == [str(c) for c in sorted([2, 4, 6, 8, 10, 12, 3])]
    assert state.phase == DUEL


def test_simultaneous_replacements_draw_a_first_then_b_tac6(start: Start) -> None:
    deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 2, 3, 12, 11, 10]
    state = start(deck=[str(c) for c in deck])
    state = play(play(state, 1, "replace", 2), 0, "replace", 1, 3)
    # A's two draws are 12 and 11, B's one is 10, although B committed first.
    assert 12 in state.hands[0] and 11 in state.hands[0] and 10 in state.hands[1]
    assert list(state.discard) == [1, 3, 2]
    assert types(state)[-4:] == ["commit", "reveal", "replace", "replace"]


def test_a_second_commit_is_refused_and_a_committed_seat_has_no_legal_actions_tac6(start: Start) -> None:
    state = play(start(), 0, "replace")
    assert engine.to_act(state) == [1]
    assert engine.legal_actions(state, 0) == []
    rejected(state, 0, "replace", message="You have already chosen.")


def test_round_on_the_centre_after_a_tie_again_lets_both_replace_freely_tac_e15(pos: Pos) -> None:
    state = pos(([3, 9], [3, 10]), attacker=0, cat=0)
    state = play(play(state, 0, "attack", 9), 1, "defend", 10)  # B defends: showdown 3 vs 3
    assert state.round_no == 2 and state.cat == 0
    assert engine.to_act(state) == [0, 1]
    for seat in (0, 1):  # no cap: each may replace any number, up to the whole hand
        assert max(len(a["cards"]) for a in engine.legal_actions(state, seat)) == 7


# --- TAC-7 duel ----------------------------------------------------------------------------------


def test_scenario_s3_duel_tie_then_the_higher_card_attacks_tac7_e4(pos: Pos) -> None:
    state = pos(([1, 2, 3, 5, 9, 10, 12], [4, 6, 7, 8, 9, 11, 12]), phase=DUEL)
    state = play(play(state, 0, "duel", 9), 1, "duel", 9)
    assert state.phase == DUEL and engine.to_act(state) == [0, 1]
    assert len(state.hands[0]) == len(state.hands[1]) == 6
    assert list(state.discard) == [9, 9]
    state = play(play(state, 1, "duel", 4), 0, "duel", 10)
    assert state.phase == ATTACK and engine.to_act(state) == [0]
    assert len(state.hands[0]) == len(state.hands[1]) == 5
    assert list(state.discard) == [9, 9, 10, 4]
    assert engine.view(state, 1)["revealed"] == {"cards": ["10", "4"], "winner": 0}


def test_a_duel_card_stays_secret_until_both_are_revealed_tac7(pos: Pos) -> None:
    state = pos(([1, 2, 3, 5, 9], [4, 6, 7, 8, 11]), phase=DUEL)
    state = play(state, 1, "duel", 11)
    for seat in (0, None):
        view = engine.view(state, seat)
        assert view["committed"] == [False, True]
        assert view["your_commit"] is None and view["revealed"] is None
        assert view["hand_counts"] == [5, 5]
    assert engine.view(state, 1)["your_commit"] == ["11"]
    # A commit is final, and the committed seat waits for the other.
    assert engine.to_act(state) == [0] and engine.legal_actions(state, 1) == []
    rejected(state, 1, "duel", 4, message="You have already chosen.")


def test_duelling_with_a_card_not_in_hand_is_refused_tac7(pos: Pos) -> None:
    state = pos(([1, 2, 3, 5, 9], [4, 6, 7, 8, 11]), phase=DUEL)
    rejected(state, 0, "duel", 12, message="You do not hold a 12.")


def test_scenario_s10_tied_duels_down_to_one_card_go_straight_to_the_showdown_tac_e5(pos: Pos) -> None:
    # -2 has hand size 4 on the test board.
    state = pos(([3, 5, 7, 9], [2, 3, 5, 7]), phase=DUEL, cat=-2)
    for card in (3, 5, 7):
        state = play(play(state, 0, "duel", card), 1, "duel", card)
    assert "attack" not in types(state)
    assert state.last_round is not None and state.last_round.cards == (9, 2)
    assert state.last_round.winner == 1 and state.cat == -1


def test_winning_the_duel_with_two_cards_each_leads_straight_to_the_showdown_tac7(pos: Pos) -> None:
    state = pos(([2, 12], [3, 5]), phase=DUEL)
    state = play(play(state, 0, "duel", 12), 1, "duel", 3)
    assert state.last_round is not None and state.last_round.cards == (2, 5)
    assert "attack" not in types(state)


# --- TAC-8 attack --------------------------------------------------------------------------------


def test_attacks_are_singles_sets_and_sequences_of_at_most_hand_minus_one_tac8(pos: Pos) -> None:
    state = pos(([4, 4, 4, 5, 6, 9], [1, 2, 3, 7, 8, 10]), attacker=0)
    legal = [[int(c) for c in a["cards"]] for a in engine.legal_actions(state, 0)]
    assert legal == [[4], [5], [6], [9], [4, 4], [4, 4, 4], [4, 5, 6]]
    assert engine.legal_actions(state, 1) == []


def test_attacking_with_the_last_card_is_refused_tac_e6(pos: Pos) -> None:
    state = pos(([4, 4], [1, 2]), attacker=0)
    rejected(state, 0, "attack", 4, 4, message="An attack must leave you at least one card.")
    assert engine.legal_actions(state, 0) == [{"type": "attack", "cards": ["4"]}]


def test_scenario_s6_jumbo_limits_tac8(pos: Pos) -> None:
    state = pos(([1, 4, 5, 6], [2, 7, 8, 9]), attacker=0)
    state = play(state, 0, "attack", 4, 5, 6)
    assert state.phase == DEFEND and engine.view(state, 1)["attack"]["answers_needed"] == 3
    state = play(state, 1, "defend", 7, 8, 9)
    assert state.last_round is not None and state.last_round.cards == (1, 2)  # showdown: A's 1 vs B's 2
    small = pos(([4, 5, 6], [1, 2, 3]), attacker=0)
    rejected(small, 0, "attack", 4, 5, 6, message="An attack must leave you at least one card.")
    rejected(small, 0, "attack", 4, 5, message="4-5 is not an attack: two cards must be a set")


def test_a_sequence_may_not_repeat_a_value_nor_a_set_mix_values_tac_e12(pos: Pos) -> None:
    state = pos(([4, 5, 5, 6, 9, 12], [1, 2, 3, 7, 8, 10]), attacker=0)
    rejected(state, 0, "attack", 4, 5, 5, 6, message="4-5-5-6 is not an attack")
    rejected(state, 0, "attack", 5, 6, 9, message="5-6-9 is not an attack")


def test_sequences_do_not_wrap_from_12_to_1_tac8(pos: Pos) -> None:
    state = pos(([1, 2, 11, 12, 5], [3, 4, 6, 7, 8]), attacker=0)
    rejected(state, 0, "attack", 1, 11, 12, message="1-11-12 is not an attack")
    assert all(len(a["cards"]) == 1 for a in engine.legal_actions(state, 0))


def test_attacking_with_cards_not_in_hand_is_refused_tac8(pos: Pos) -> None:
    state = pos(([4, 5, 6, 9], [1, 2, 3, 7]), attacker=0)
    rejected(state, 0, "attack", 9, 9, message="You do not hold another 9.")
    rejected(state, 0, "attack", 8, message="You do not hold a 8.")


def test_only_the_attacker_may_attack_tac8(pos: Pos) -> None:
    state = pos(([4, 5, 6, 9], [1, 2, 3, 7]), attacker=0)
    rejected(state, 1, "attack", 7, message="It is not your turn.")
    rejected(state, 0, "defend", 4, message="You cannot defend now: it is time to attack.")


# --- TAC-9 defend, TAC-10 resolve ----------------------------------------------------------------


def test_scenario_s4_single_attack_answers_tac9_tac10(pos: Pos) -> None:
    state = play(pos(([1, 3, 8, 12], [2, 5, 8, 11]), attacker=0), 0, "attack", 8)
    legal = sorted(a["answers"][0] for a in engine.legal_actions(state, 1))
    assert legal == ["11", "2", "8"]
    rejected(state, 1, "defend", 5, message="5 does not beat 8, and a sacrifice must be your lowest card")
    defended = play(state, 1, "defend", 11)
    assert defended.phase == ATTACK and defended.attacker == 1
    assert hand(defended, 1) == [2, 5, 8]
    sacrificed = play(state, 1, "defend", 2)
    assert sacrificed.phase == ATTACK and sacrificed.attacker == 0
    assert hand(sacrificed, 1) == [5, 8, 11]
    assert list(sacrificed.discard) == [8, 2]


def test_scenario_s5_jumbo_set_answers_tac9_tac10_e7(pos: Pos) -> None:
    state = pos(([3, 7, 7, 10], [1, 6, 9, 12]), attacker=0)
    state = play(state, 0, "attack", 7, 7)
    # (a) two defences: B wins the exchange.
    a = play(state, 1, "defend", 9, 12)
    assert a.attacker == 1 and hand(a, 0) == [3, 10] and hand(a, 1) == [1, 6]
    assert types(a)[-3:] == ["defend", "defend", "exchange"]
    # (b) a defence and a sacrifice: the sacrifice must be 1, and A keeps the attack.
    b = play(state, 1, "defend", 9, 1)
    assert b.attacker == 0 and hand(b, 1) == [6, 12]
    assert types(b)[-3:] == ["defend", "sacrifice", "exchange"]
    # (c) 6 neither beats 7 nor is the lowest remaining card.
    rejected(state, 1, "defend", 9, 6, message="6 does not beat 7, and a sacrifice must be your lowest card left")


def test_answers_to_equal_attack_cards_may_come_in_any_order_tac9(pos: Pos) -> None:
    state = play(pos(([3, 7, 7, 10], [1, 6, 9, 12]), attacker=0), 0, "attack", 7, 7)
    assert play(state, 1, "defend", 12, 9) == play(state, 1, "defend", 9, 12)
    assert play(state, 1, "defend", 1, 9) == play(state, 1, "defend", 9, 1)


def test_a_defender_may_sacrifice_by_choice_even_with_a_defence_available_tac9(pos: Pos) -> None:
    state = play(pos(([3, 4, 8], [2, 9, 12]), attacker=0), 0, "attack", 8)
    state = play(state, 1, "defend", 2)
    assert state.attacker == 0 and hand(state, 1) == [9, 12]


def test_one_sacrifice_loses_a_jumbo_exchange_tac10(pos: Pos) -> None:
    state = play(pos(([1, 4, 5, 6, 12], [2, 7, 8, 10, 11]), attacker=0), 0, "attack", 4, 5, 6)
    state = play(state, 1, "defend", 7, 8, 2)
    assert state.attacker == 0 and state.phase == ATTACK
    assert hand(state, 1) == [10, 11]


def test_sacrifices_are_the_lowest_cards_left_after_the_defences_tac_e7(pos: Pos) -> None:
    # Defending 6 with 2 would be a sacrifice (2 < 6), but 2 is not the lowest card left (1 is).
    state = play(pos(([1, 4, 5, 6, 12], [1, 2, 3, 10, 11]), attacker=0), 0, "attack", 4, 5, 6)
    rejected(state, 1, "defend", 10, 11, 2, message="2 does not beat 6")
    state = play(state, 1, "defend", 10, 11, 1)
    assert hand(state, 1) == [2, 3]


def test_a_mixed_jumbo_answer_uses_the_lowest_card_not_set_aside_as_a_defence_tac_e7(pos: Pos) -> None:
    # B sets aside 11 and 12 as defences; the lowest card left is 2, so that is the sacrifice.
    state = play(pos(([1, 4, 5, 6, 9], [2, 3, 7, 11, 12]), attacker=0), 0, "attack", 4, 5, 6)
    rejected(state, 1, "defend", 3, 11, 12, message="3 does not beat 4")
    state = play(state, 1, "defend", 2, 11, 12)
    assert state.attacker == 0 and hand(state, 1) == [3, 7]
    answers = engine.view(state, None)["events"][-4:-1]
    assert sorted((e["type"], e["card"]) for e in answers) == [("defend", "11"), ("defend", "12"), ("sacrifice", "2")]


def test_when_the_lowest_card_beats_the_attack_every_answer_is_a_defence_tac_e8(pos: Pos) -> None:
    state = play(pos(([1, 3, 8], [5, 9, 12]), attacker=0), 0, "attack", 3)
    outcomes = {a["answers"][0] for a in engine.legal_actions(state, 1)}
    assert outcomes == {"5", "9", "12"}
    state = play(state, 1, "defend", 5)
    assert state.attacker == 1 and types(state)[-2:] == ["defend", "exchange"]


def test_the_defender_is_never_stuck_the_lowest_card_always_answers_tac_e13(pos: Pos) -> None:
    state = play(pos(([1, 12, 12, 12], [2, 3, 4, 5]), attacker=0), 0, "attack", 12, 12, 12)
    assert engine.legal_actions(state, 1) == [{"type": "defend", "answers": ["3", "4", "2"]}]
    state = play(state, 1, "defend", 2, 3, 4)
    assert state.last_round is not None and state.last_round.cards == (1, 5)


def test_defending_the_wrong_number_of_cards_is_refused_tac9(pos: Pos) -> None:
    state = play(pos(([3, 7, 7, 10], [1, 6, 9, 12]), attacker=0), 0, "attack", 7, 7)
    rejected(state, 1, "defend", 9, message="Answer each of the 2 attack cards with one card.")
    rejected(state, 1, "defend", 9, 9, message="You do not hold another 9.")


def test_exchange_cards_go_face_up_to_the_discard_pile_tac10(pos: Pos) -> None:
    state = play(pos(([3, 7, 7, 10], [1, 6, 9, 12]), attacker=0, discard=[5]), 0, "attack", 7, 7)
    assert list(state.discard) == [5]  # the attack lies on the table until answered
    state = play(state, 1, "defend", 9, 12)
    assert list(state.discard) == [5, 7, 7, 9, 12]


# --- TAC-11 showdown, TAC-12 move, TAC-13 game over ---------------------------------------------


def test_scenario_s7_lower_last_card_wins_and_the_cat_moves_toward_its_goal_tac11_tac12(pos: Pos) -> None:
    state = pos(([2, 12], [3, 5]), attacker=0, cat=0)
    state = play(play(state, 0, "attack", 12), 1, "defend", 3)  # B must sacrifice its 3
    assert state.cat == -1 and state.covered == (0,)
    last = engine.view(state, None)["last_round"]
    assert last == {
        "round": 1, "cards": ["2", "5"], "winner": 0, "tie": False,
        "from": 0, "to": -1, "skipped": [], "tile": 0,
    }  # fmt: skip
    assert types(state)[-5:] == ["exchange", "showdown", "cat_move", "tile", "round_start"]


def test_scenario_s8_the_cat_skips_covered_spaces_tac12_e10(pos: Pos) -> None:
    state = pos(([2, 12], [3, 5]), attacker=0, cat=1, covered=[0, -1])
    state = play(play(state, 0, "attack", 12), 1, "defend", 3)
    assert state.cat == -2 and state.covered == (-1, 0, 1)
    move = [e for e in engine.view(state, 1)["events"] if e["type"] == "cat_move"][-1]
    assert move == {"type": "cat_move", "seat": 0, "from": 1, "to": -2, "skipped": [0, -1]}


def test_scenario_s8_the_cat_enters_the_goal_past_covered_spaces_and_wins_tac13_e11(pos: Pos) -> None:
    state = pos(([5, 12], [2, 3]), attacker=0, cat=2, covered=[3, 0, -1])
    state = play(play(state, 0, "attack", 12), 1, "defend", 2)  # showdown 5 vs 3: B wins
    assert state.phase == OVER and state.cat == 4
    assert 4 not in state.covered and state.covered == (-1, 0, 2, 3)
    assert engine.result(state) == {
        "scores": [0, 1], "ranks": [2, 1], "detail": {"winner": 1, "goal": 4, "rounds": 1},
    }  # fmt: skip
    assert engine.to_act(state) == [] and engine.legal_actions(state, 1) == []
    assert types(state)[-1] == "win"
    rejected(state, 1, "attack", 3, message="The game is over.")


def test_a_goal_is_reached_only_past_the_last_numbered_space_tac13(pos: Pos) -> None:
    state = pos(([2, 12], [3, 5]), attacker=0, cat=-3)
    state = play(play(state, 0, "attack", 12), 1, "defend", 3)
    assert state.winner == 0 and state.cat == -4
    assert engine.view(state, 0)["your_goal"] == -4


def test_scenario_s9_a_showdown_tie_keeps_the_cat_and_deals_a_fresh_round_tac11_e9(pos: Pos) -> None:
    state = pos(([3, 9], [3, 10]), attacker=0, cat=1, discard=[6, 6])
    state = play(play(state, 0, "attack", 9), 1, "defend", 10)
    assert state.cat == 1 and state.covered == ()
    assert state.round_no == 2 and state.discard == ()
    assert len(state.hands[0]) == len(state.hands[1]) == 4  # hand size of +1 on the test board
    assert len(state.draw) == 38 - 8
    assert "cat_move" not in types(state) and "tile" not in types(state)
    assert state.last_round is not None and state.last_round.tie and state.last_round.winner is None


def test_tie_rule_arrow_gives_a_tied_showdown_to_the_favoured_player_tac11(pos: Pos) -> None:
    state = pos(([3, 9], [3, 10]), attacker=0, cat=1, tie_rule="arrow")  # +1 points at A
    state = play(play(state, 0, "attack", 9), 1, "defend", 10)
    assert state.cat == 0 and state.covered == (1,)
    assert state.last_round is not None and state.last_round.tie and state.last_round.winner == 0


def test_tie_rule_arrow_on_a_two_arrow_space_leaves_the_cat_tac11(pos: Pos) -> None:
    state = pos(([3, 9], [3, 10]), attacker=0, cat=0, tie_rule="arrow")
    state = play(play(state, 0, "attack", 9), 1, "defend", 10)
    assert state.cat == 0 and state.covered == () and state.round_no == 2


# --- TAC-E1 draw pile, TAC-E14 tiles --------------------------------------------------------------


def test_maximal_replacements_on_a_nine_card_space_never_empty_the_draw_pile_tac_e1(pos: Pos) -> None:
    # +2 on the test board: 9 cards, arrow at B. 18 dealt, 20 in the pile, at most 18 replaced.
    hands = ([1, 1, 2, 2, 3, 3, 4, 4, 5], [6, 6, 7, 7, 8, 8, 9, 9, 10])
    state = pos(hands, phase=REPLACE, cat=2)
    state = play(state, 1, "replace", *hands[1])
    state = play(state, 0, "replace", *hands[0])
    assert len(state.draw) == 2 and state.phase == DUEL


def test_tiles_cover_at_most_the_seven_spaces_tac_e14(pos: Pos) -> None:
    state = pos(([2, 12], [3, 5]), attacker=0, cat=-3, covered=[-2, -1, 0, 1, 2, 3])
    state = play(play(state, 0, "attack", 12), 1, "defend", 3)
    assert state.covered == (-3, -2, -1, 0, 1, 2, 3) and state.winner == 0


# --- actions in the wrong phase ------------------------------------------------------------------


def test_an_action_of_the_wrong_kind_names_what_is_expected(pos: Pos) -> None:
    state = pos(([1, 2, 3, 5, 9], [4, 6, 7, 8, 11]), phase=DUEL)
    rejected(state, 0, "attack", 1, message="You cannot attack now: it is time to choose a duel card.")
    replace_phase = pos(([1, 2, 3, 5, 9], [4, 6, 7, 8, 11]), phase=REPLACE, cat=-3)
    rejected(replace_phase, 0, "duel", 1, message="You cannot duel now: it is time to choose the cards to replace")


def test_malformed_actions_are_invalid_with_a_reason(pos: Pos) -> None:
    state = pos(([4, 5, 6, 9], [1, 2, 3, 7]), attacker=0)
    for bad, message in [
        ("attack", "An action must be an object"),
        ({"type": "pass"}, "Unknown action type 'pass'; use replace, duel, attack or defend."),
        ({"type": "attack"}, "This attack action needs 'cards'."),
        ({"type": "attack", "cards": "9"}, "'cards' must be a list of card codes"),
        ({"type": "attack", "cards": [9]}, "Each entry of 'cards' must be a card code, the string '1' to '12', not 9."),
        ({"type": "attack", "cards": ["9"], "seat": 0}, "Unexpected field(s) in this attack action: seat."),
    ]:
        with pytest.raises(InvalidAction, match=re.escape(message)):
            engine.apply(state, 0, bad)
