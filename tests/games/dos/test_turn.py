"""The turn: matching, drawing, placing, cleanup, bonus, penalties (DOS-7..DOS-12, DOS-14, DOS-16).

Three players P, Q, V sit in seats 0, 1, 2 as in the rules' scenarios. Q and V hold a Wild #, which
always has a match, unless a scenario says otherwise.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.dos.cards import FULL_DECK
from games.dos.positions import position
from games.dos.rules import engine
from games.engine import InvalidAction
from tests.games.dos.dos_support import Q, V, act, events, match, rejects, row, since

# ------------------------------------------------------------------------------------------ scenarios


def test_s2a_single_match_is_discarded_and_the_row_refilled_to_two() -> None:
    """DOS-S2 (a), DOS-10: Y7 on R7, finish; R7+Y7 to the discard pile; the top draw card refills."""
    start = position(hands=[["Y7", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"], draw=["Y1"])
    state = act(start, match(0, "Y7"))
    assert engine.view(state, 0)["center_row"][0]["played"] == [{"card": "Y7", "declared": None}]
    state = act(state, {"type": "finish"})
    assert row(state) == ["B9", "Y1"]
    assert state.discard == ("R7", "Y7")
    assert engine.view(state, None)["discard_top"] == "Y7"
    assert state.hands[0] == ("G3", "B10", "Y6")
    assert engine.view(state, None)["current"] == 1
    assert engine.view(state, None)["hand_counts"] == [3, 3, 3]
    assert [e["type"] for e in since(state, start)] == ["match", "refill"]
    assert since(state, start)[0]["kind"] == "single"


def test_s2b_single_colour_match_earns_one_bonus_card_after_the_refill() -> None:
    """DOS-S2 (b), DOS-11, DOS-E4: R7 on R7; after the refill P places G3 as a third CR card."""
    state = act(position(hands=[["R7", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"], draw=["Y1"]), match(0, "R7"))
    state = act(state, {"type": "finish"})
    view = engine.view(state, 0)
    assert view["phase"] == "bonus"
    assert view["bonus_left"] == 1
    assert [(cr["card"], cr["new"]) for cr in view["center_row"]] == [("B9", False), ("Y1", True)]
    assert engine.legal_actions(state, 0) == [
        {"type": "bonus", "card": "G3"},
        {"type": "bonus", "card": "B10"},
        {"type": "bonus", "card": "Y6"},
        {"type": "skip_bonus"},
    ]
    state = act(state, {"type": "bonus", "card": "G3"})
    assert row(state) == ["B9", "Y1", "G3"]
    assert state.current == 1


def test_s3_double_colour_match_makes_the_others_draw_after_the_bonus() -> None:
    """DOS-S3, DOS-12: B4+B5 on B9; P's bonus card first, then Q and then V draw 1 each."""
    start = position(hands=[["B4", "B5", "G10", "R10"], Q, V], center=["R7", "B9"], draw=["Y1", "Y3", "Y4"])
    state = act(start, match(1, "B4", "B5"))
    assert engine.view(state, 0)["penalties"] == 1
    state = act(state, {"type": "finish"})
    assert engine.view(state, 0)["phase"] == "bonus"
    assert engine.view(state, 0)["hand_counts"] == [2, 3, 3]
    state = act(state, {"type": "bonus", "card": "R10"})
    added = since(state, start)
    assert [e["type"] for e in added] == ["match", "refill", "bonus", "penalty_draw", "penalty_draw"]
    assert added[0]["kind"] == "double_colour"
    assert [(e["seat"], e["count"]) for e in added[3:]] == [(1, 1), (2, 1)]
    assert "Y3" in state.hands[1]
    assert "Y4" in state.hands[2]
    assert row(state) == ["R7", "Y1", "R10"]


def test_s4_wild_dos_declared_in_the_targets_colour_makes_a_double_colour_match() -> None:
    """DOS-S4: R5 + W2 declared red on R7 is a double colour match; declared green a plain double."""
    state = position(hands=[["R5", "W2", "G10", "B10"], Q, V], center=["R7", "B9"], draw=["Y1"])
    red = match(0, "R5", "W2", declare=[None, "R"])
    green = match(0, "R5", "W2", declare=[None, "G"])
    legal = engine.legal_actions(state, 0)
    assert red in legal
    assert green in legal
    assert since(act(state, red), state)[0]["kind"] == "double_colour"
    assert engine.view(act(act(state, red), {"type": "finish"}), 0)["phase"] == "bonus"
    after_green = act(state, green)
    assert since(after_green, state)[0]["kind"] == "double"
    after_green = act(after_green, {"type": "finish"})
    assert engine.view(after_green, None)["phase"] == "match"
    assert after_green.current == 1


def test_s5_wild_cards_in_the_row_take_the_matchers_declarations() -> None:
    """DOS-S5: G3+G4 on G# announced 7, Y1+Y1 on W2 announced yellow: 2 bonus cards, Q and V draw 2."""
    start = position(
        hands=[["G3", "G4", "Y1", "Y1", "R10", "B10", "R9"], Q, V],
        center=["G#", "W2"],
        draw=["B3", "B4", "Y5", "Y6", "R3", "R4"],
    )
    state = act(start, match(0, "G3", "G4", target_declare=7))
    assert engine.view(state, None)["center_row"][0]["declared"] == 7
    state = act(state, match(1, "Y1", "Y1", target_declare="Y"))
    view = engine.view(state, 0)
    assert (view["phase"], view["bonus_left"], view["penalties"]) == ("bonus", 2, 2)
    state = act(state, {"type": "bonus", "card": "R10"})
    state = act(state, {"type": "bonus", "card": "B10"})
    assert row(state) == ["B3", "B4", "R10", "B10"]
    assert state.hands[0] == ("R9",)
    assert Counter(state.hands[1]) == Counter([*Q, "Y5", "Y6"])
    assert Counter(state.hands[2]) == Counter([*V, "R3", "R4"])
    kinds = [e["kind"] for e in since(state, start) if e["type"] == "match"]
    assert kinds == ["double_colour", "double_colour"]


def test_s6_two_piles_cleared_then_refill_then_bonus_gives_three_row_cards() -> None:
    """DOS-S6: R7 on R7 and G4+Y5 on B9 empty the row; 2 cards turned up; 1 bonus card -> 3."""
    start = position(hands=[["R7", "G4", "Y5", "B10", "G8"], Q, V], center=["R7", "B9"], draw=["Y1", "Y3"])
    state = act(start, match(0, "R7"))
    state = act(state, match(1, "G4", "Y5"))
    assert engine.view(state, 0)["phase"] == "bonus"
    assert row(state) == ["Y1", "Y3"]
    state = act(state, {"type": "bonus", "card": "B10"})
    assert row(state) == ["Y1", "Y3", "B10"]
    assert state.discard == ("R7", "R7", "B9", "G4", "Y5")


def test_s7_failed_draw_forces_a_placement() -> None:
    """DOS-S7: no match with {G3, Y10}; P must draw: Y8, still no match; P places Y10."""
    state = position(hands=[["G3", "Y10"], Q, V], center=["R7", "B9"], draw=["Y8"])
    assert engine.legal_actions(state, 0) == [{"type": "draw"}]
    state = act(state, {"type": "draw"})
    view = engine.view(state, 0)
    assert view["phase"] == "after_draw"
    assert view["drawn_this_turn"] is True
    assert view["drawn_card"] == "Y8"
    assert events(state, 0)[-1] == {"type": "draw", "n": 1, "seat": 0, "card": "Y8"}
    assert events(state, 1)[-1] == {"type": "draw", "n": 1, "seat": 0}
    assert engine.view(state, 1)["drawn_card"] is None
    assert engine.view(state, 1)["drawn_this_turn"] is True
    assert engine.legal_actions(state, 0) == [
        {"type": "place", "card": "G3"},
        {"type": "place", "card": "Y8"},
        {"type": "place", "card": "Y10"},
    ]
    state = act(state, {"type": "place", "card": "Y10"})
    assert row(state) == ["R7", "B9", "Y10"]
    assert state.hands[0] == ("G3", "Y8")
    assert state.current == 1


@pytest.mark.parametrize(("drawn", "target", "cards"), [("Y6", 1, ["G3", "Y6"]), ("Y4", 0, ["G3", "Y4"])])
def test_s7_a_matching_drawn_card_allows_that_one_match(drawn: str, target: int, cards: list[str]) -> None:
    """DOS-S7 variants, DOS-9: G3+Y6 would match B9, G3+Y4 would match R7."""
    state = position(hands=[["G3", "Y10"], Q, V], center=["R7", "B9"], draw=[drawn, "B1"])
    state = act(state, {"type": "draw"})
    assert engine.view(state, 0)["phase"] == "after_draw"
    legal = engine.legal_actions(state, 0)
    assert [a for a in legal if a["type"] == "match"] == [match(target, *cards)]
    assert {a["card"] for a in legal if a["type"] == "place"} == {"G3", "Y10", drawn}
    state = act(state, match(target, *cards))
    assert state.current == 1
    assert state.hands[0] == ("Y10",)


def test_s8_dos_call_is_not_part_of_the_default_rules() -> None:
    """DOS-13, DOS-15, DOS-S8 and DOS-E6 belong to the optional DOS call, which this engine does not offer."""
    state = position(hands=[["R7", "G3", "Y6"], Q, V], center=["R7", "B9"])
    rejects(state, {"type": "call_dos"}, "Unknown action type 'call_dos'.", InvalidAction)
    with pytest.raises(InvalidAction):
        engine.apply(state, 1, {"type": "catch", "target": 0})


# ------------------------------------------------------------------------------------ matching (DOS-7)


def test_several_matches_are_allowed_on_different_row_cards() -> None:
    """DOS-7: any number of matches, one per CR card."""
    state = position(hands=[["R7", "G4", "Y5", "B10", "G8"], Q, V], center=["R7", "B9", "G8"])
    state = act(state, match(0, "R7"))
    state = act(state, match(2, "G8"))
    state = act(state, match(1, "G4", "Y5"))
    view = engine.view(state, 0)
    assert (view["phase"], view["bonus_left"]) == ("bonus", 2)
    assert [e["kind"] for e in events(state) if e["type"] == "match"] == [
        "single_colour",
        "single_colour",
        "double",
    ]


def test_a_row_card_can_be_matched_only_once_per_turn() -> None:
    """DOS-E1."""
    state = act(position(hands=[["R7", "Y7", "G3", "Y6"], Q, V], center=["R7", "B9"]), match(0, "R7"))
    rejects(state, match(0, "Y7"), "R7 at position 0 has already been matched this turn.")


def test_three_cards_on_one_row_card_are_rejected() -> None:
    """DOS-E2: single or double only."""
    state = position(hands=[["R1", "G1", "B5", "Y6"], Q, V], center=["R7", "B9"])
    rejects(state, match(0, "R1", "G1", "B5"), "A match uses one or two cards from your hand.", InvalidAction)


def test_cards_turned_up_or_placed_this_turn_wait_until_the_next_turn() -> None:
    """§2.3: refill and bonus cards are new (not matchable) until the turn ends."""
    state = act(position(hands=[["R7", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"], draw=["Y1"]), match(0, "R7"))
    state = act(state, {"type": "finish"})
    assert [cr["new"] for cr in engine.view(state, 0)["center_row"]] == [False, True]
    state = act(state, {"type": "bonus", "card": "G3"})
    assert [cr["new"] for cr in engine.view(state, 1)["center_row"]] == [False, False, False]
    assert match(1, "R#", declare=[1]) in engine.legal_actions(state, 1)
    assert match(2, "R#", declare=[3]) in engine.legal_actions(state, 1)


# ---------------------------------------------------------------------------------- drawing (DOS-8/9)


def test_a_turn_cannot_end_without_a_match_or_a_draw() -> None:
    """DOS-8 / DOS-E7."""
    state = position(hands=[["R7", "G3", "Y6"], Q, V], center=["R7", "B9"])
    assert {"type": "finish"} not in engine.legal_actions(state, 0)
    rejects(state, {"type": "finish"}, "Make a match or draw a card before you end your turn.")


def test_a_player_may_draw_instead_of_matching() -> None:
    """DOS-8: "cannot or does not want to"."""
    state = position(hands=[["R7", "G3", "Y6"], Q, V], center=["R7", "B9"], draw=["B10"])
    assert {"type": "draw"} in engine.legal_actions(state, 0)
    state = act(state, {"type": "draw"})
    assert engine.view(state, 0)["drawn_card"] == "B10"
    assert engine.view(state, 0)["phase"] == "after_draw"
    assert {a["type"] for a in engine.legal_actions(state, 0)} == {"place"}


def test_no_draw_after_a_match() -> None:
    """DOS-8: a player who has matched may not draw."""
    state = act(position(hands=[["R7", "G3", "Y6"], Q, V], center=["R7", "B9"]), match(0, "R7"))
    assert {"type": "draw"} not in engine.legal_actions(state, 0)
    rejects(state, {"type": "draw"}, "You have made a match this turn, so you may not draw.")


def test_after_drawing_the_one_match_must_use_the_drawn_card() -> None:
    """DOS-9 / DOS-E3: the old pair G3+Y4 is refused; B1+Y8 (with the drawn Y8) is the one match."""
    state = position(hands=[["G3", "Y4", "B1"], Q, V], center=["R7", "B9"], draw=["Y8", "R1"])
    state = act(state, {"type": "draw"})
    assert [a for a in engine.legal_actions(state, 0) if a["type"] == "match"] == [match(1, "B1", "Y8")]
    rejects(state, match(0, "G3", "Y4"), "After drawing, your match must use the card you drew (Y8).")
    rejects(state, {"type": "draw"}, "You have already drawn this turn.")
    rejects(
        state,
        {"type": "finish"},
        "After drawing, match with the drawn card or place a card in the Center Row.",
    )
    after = act(state, match(1, "B1", "Y8"))
    assert after.current == 1
    assert after.hands[0] == ("G3", "Y4")


def test_declining_the_match_after_drawing_means_placing_a_card() -> None:
    """DOS-9: no match after drawing -> place one card of P's choice (even when a match was possible)."""
    state = act(position(hands=[["G3", "Y4", "B1"], Q, V], center=["R7", "B9"], draw=["Y8"]), {"type": "draw"})
    assert {"type": "place", "card": "G3"} in engine.legal_actions(state, 0)
    rejects(state, {"type": "place", "card": "R9"}, "You do not hold R9.")
    rejects(state, {"type": "bonus", "card": "G3"}, "You have no colour-match bonus to place now.")
    state = act(state, {"type": "place", "card": "G3"})
    assert row(state) == ["R7", "B9", "G3"]
    assert state.hands[0] == ("B1", "Y4", "Y8")
    assert [e["type"] for e in events(state)] == ["draw", "place"]
    assert state.current == 1


def test_a_step_forced_by_hidden_cards_is_still_the_players_own_action() -> None:
    """Only one legal action, but only P knows it: taking it automatically would reveal P's hand."""
    state = position(hands=[["Y10"], Q, V], center=["R7", "B9"], draw=["Y10", "R1"])
    assert engine.legal_actions(state, 0) == [{"type": "draw"}]
    state = act(state, {"type": "draw"})
    assert engine.legal_actions(state, 0) == [{"type": "place", "card": "Y10"}]
    state = act(state, {"type": "place", "card": "Y10"})
    assert row(state) == ["R7", "B9", "Y10"]
    assert state.current == 1


def test_steps_that_everyone_can_see_are_forced_are_taken_automatically() -> None:
    """An empty Center Row forces a draw; a failed draw with one card left forces placing it (and going out)."""
    state = position(hands=[["G3", "Y10"], Q, V], center=[], draw=["Y8"])
    assert engine.view(state, 0)["phase"] == "after_draw"
    assert [e["type"] for e in events(state)] == ["draw"]
    rest = Counter(FULL_DECK)
    rest.subtract(["Y10", "R7", "B9"])
    state = position(hands=[["Y10"], list(rest.elements())], center=["R7", "B9"])
    state = act(state, {"type": "draw"})
    assert [e["type"] for e in events(state)][:3] == ["no_draw", "place", "round_end"]


def test_matching_every_row_card_or_emptying_the_hand_ends_the_matching() -> None:
    """Nothing is left to match (public), so the turn moves on without a finish action."""
    state = act(position(hands=[["R7", "B9", "G3", "G5"], Q, V], center=["R7", "B9"]), match(0, "R7"))
    assert engine.view(state, 0)["phase"] == "match"
    state = act(state, match(1, "B9"))
    assert engine.view(state, 0)["phase"] == "bonus"


# ------------------------------------------------------------------------------ cleanup and bonus


def test_no_refill_when_two_row_cards_remain() -> None:
    """DOS-10: refill only up to 2."""
    start = position(hands=[["R7", "Y6", "B10"], Q, V], center=["R7", "B9", "G5"], draw=["Y1"])
    state = act(act(start, match(0, "R7")), {"type": "finish"})
    assert engine.view(state, 0)["phase"] == "bonus"
    assert row(state) == ["B9", "G5"]
    assert "refill" not in [e["type"] for e in since(state, start)]
    assert len(state.draw_pile) == len(start.draw_pile)


def test_bonus_placements_may_be_skipped() -> None:
    """DOS-11 / register #13: the bonus is optional."""
    start = position(hands=[["R7", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"], draw=["Y1"])
    state = act(act(start, match(0, "R7")), {"type": "finish"})
    state = act(state, {"type": "skip_bonus"})
    assert row(state) == ["B9", "Y1"]
    assert since(state, start)[-1] == {"type": "skip_bonus", "n": state.event_count, "seat": 0, "count": 1}
    assert state.current == 1


def test_bonus_placements_cannot_be_made_outside_the_bonus_step() -> None:
    state = position(hands=[["R7", "G3", "Y6"], Q, V], center=["R7", "B9"])
    rejects(state, {"type": "bonus", "card": "G3"}, "You have no colour-match bonus to place now.")
    rejects(state, {"type": "skip_bonus"}, "You have no colour-match bonus to skip.")
    rejects(state, {"type": "place", "card": "G3"}, "You place a card only after drawing, instead of a match.")


def test_bonus_placements_are_limited_by_the_hand() -> None:
    """DOS-11, DOS-E13: two colour matches but one card left: placing it empties the hand and wins."""
    start = position(hands=[["R7", "B9", "G5"], Q, V], center=["R7", "B9"], draw=["Y1", "Y3"])
    state = act(start, match(0, "R7"))
    state = act(state, match(1, "B9"))
    assert engine.view(state, 0)["bonus_left"] == 2
    state = act(state, {"type": "bonus", "card": "G5"})
    assert state.round == 2
    assert engine.view(state, None)["last_round"]["winner"] == 0


def test_bonus_is_forfeited_with_an_empty_hand() -> None:
    """DOS-E5: a colour match that empties the hand ends the turn without a bonus step."""
    start = position(hands=[["R7"], Q, V], center=["R7", "B9"])
    state = act(start, match(0, "R7"))
    assert "bonus" not in [e["type"] for e in since(state, start)]
    assert state.round == 2


def test_penalties_go_round_from_the_left_of_the_matcher() -> None:
    """DOS-12: Q (seat 1) makes the double colour match: V (seat 2) draws first, then P (seat 0)."""
    start = position(
        hands=[["R#", "G1"], ["B4", "B5", "G10", "R3"], ["G#", "Y3"]],
        center=["R7", "B9"],
        draw=["Y1", "Y3", "Y4"],
        current=1,
    )
    state = act(act(start, match(1, "B4", "B5")), {"type": "finish"})
    state = act(state, {"type": "skip_bonus"})
    drawn = [(e["seat"], e["count"]) for e in since(state, start) if e["type"] == "penalty_draw"]
    assert drawn == [(2, 1), (0, 1)]
    assert "Y3" in state.hands[2]
    assert "Y4" in state.hands[0]
    assert state.current == 2


def test_penalty_cards_are_shown_only_to_the_one_who_drew_them() -> None:
    start = position(hands=[["B4", "B5", "G10"], Q, V], center=["R7", "B9"], draw=["Y1", "Y3", "Y4"])
    state = act(act(act(start, match(1, "B4", "B5")), {"type": "finish"}), {"type": "skip_bonus"})
    q_event = [e for e in since(state, start, 1) if e["type"] == "penalty_draw" and e["seat"] == 1]
    v_sees = [e for e in since(state, start, 2) if e["type"] == "penalty_draw" and e["seat"] == 1]
    assert q_event[0]["cards"] == ["Y3"]
    assert "cards" not in v_sees[0]


def test_the_turn_passes_left_when_the_hand_is_not_empty() -> None:
    """DOS-14."""
    hands = [["G#"], ["R#"], ["B#"], ["Y7", "G3", "Y6"]]
    state = act(position(hands=hands, center=["R7", "B9"], current=3), match(0, "Y7"))
    state = act(state, {"type": "finish"})
    assert state.current == 0
    assert engine.view(state, None)["phase"] == "match"


# ----------------------------------------------------------------------------- empty draw pile (DOS-16)


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile() -> None:
    """DOS-16 / DOS-E11: seeded and deterministic."""
    before = position(hands=[["G3", "Y10"], Q, V], center=["R7", "B9"], rest="discard", seed=4, resolve=False)
    assert before.draw_pile == ()
    state = act(before, {"type": "draw"})
    assert state == act(before, {"type": "draw"})
    kinds = [e["type"] for e in since(state, before)]
    assert kinds[:2] == ["reshuffle", "draw"]
    assert since(state, before)[0]["count"] == len(before.discard)
    assert state.discard == ()
    assert Counter([*state.draw_pile, state.drawn_card]) == Counter(before.discard)
    other = act(
        position(hands=[["G3", "Y10"], Q, V], center=["R7", "B9"], rest="discard", seed=5, resolve=False),
        {"type": "draw"},
    )
    assert other.draw_pile != state.draw_pile


def test_when_both_piles_are_empty_the_draw_does_not_happen_but_the_placement_is_still_owed() -> None:
    """DOS-16: a player who cannot draw still places a card."""
    rest = Counter(FULL_DECK)
    rest.subtract(["G3", "Y10", "R7", "B9"])
    state = position(hands=[["G3", "Y10"], list(rest.elements())], center=["R7", "B9"])
    assert (engine.view(state, 0)["draw_count"], engine.view(state, 0)["discard_count"]) == (0, 0)
    state = act(state, {"type": "draw"})
    view = engine.view(state, 0)
    assert view["phase"] == "after_draw"
    assert engine.legal_actions(state, 0) == [
        {"type": "place", "card": "G3"},
        {"type": "place", "card": "Y10"},
    ]
    assert view["drawn_this_turn"] is True
    assert view["drawn_card"] is None
    assert [e["type"] for e in view["events"]] == ["no_draw"]
    state = act(state, {"type": "place", "card": "Y10"})
    assert row(state) == ["R7", "B9", "Y10"]
    assert state.current == 1
