"""Colour-match bonuses and penalties after a draw (DOS-9..DOS-12), reshuffles from an empty draw pile
(DOS-16) and the end at the target (DOS-18): rules of shared/rules/dos.md no other test would catch if broken.

Each test names the rule it pins down. Three players P, Q, V sit in seats 0, 1, 2 as in the scenarios.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.dos.cards import FULL_DECK
from games.dos.positions import position
from games.dos.rules import engine
from tests.games.dos.dos_support import DRAW, FINISH, SKIP, Q, V, act, bonus, match, place, row, since


def _rest(*named: list[str] | tuple[str, ...]) -> list[str]:
    """Every card of the deck not named: for a hand that soaks up the rest, leaving both piles empty."""
    left = Counter(FULL_DECK)
    for cards in named:
        left.subtract(cards)
    return sorted(left.elements())


# ------------------------------------------------------------------------------------ DOS-18


def test_dos18_reaching_exactly_the_target_ends_the_game() -> None:
    """DOS-18: "200 or more": 190 + 10 = 200 wins (199 going on is tested in test_scoring)."""
    state = act(position(hands=[["R7"], ["R3"], ["G4", "Y3"]], center=["R7", "B9"], scores=[190, 0, 0]), match(0, "R7"))
    assert engine.view(state, None)["scores"] == [200, 0, 0]
    assert engine.view(state, None)["over"] is True
    assert engine.result(state) == {"scores": [200, 0, 0], "ranks": [1, 2, 2], "detail": {"rounds": 1, "target": 200}}


# ------------------------------------------------------------------------------------ DOS-12


@pytest.mark.parametrize(
    ("hand", "action", "kind", "left"),
    [
        (["G4", "Y5", "R10"], match(1, "G4", "Y5"), "double", 1),
        (["R7", "G3", "Y10"], match(0, "R7"), "single_colour", 2),
    ],
)
def test_dos12_only_a_double_colour_match_makes_the_others_draw(
    hand: list[str], action: dict[str, object], kind: str, left: int
) -> None:
    """DOS-12: a plain double match or a single colour match gives no penalty card to anyone."""
    start = position(hands=[hand, Q, V], center=["R7", "B9"], draw=["Y1", "Y3", "Y4"])
    state = act(start, action)
    assert engine.view(state, 0)["penalties"] == 0
    state = act(state, FINISH)
    if engine.view(state, 0)["phase"] == "bonus":
        state = act(state, SKIP)
    added = since(state, start)
    assert added[0]["kind"] == kind
    assert "penalty_draw" not in [e["type"] for e in added]
    assert engine.view(state, None)["hand_counts"] == [left, 3, 3]
    assert state.current == 1


# ------------------------------------------------------------------------------ DOS-9 + DOS-11/12


def test_dos9_dos11_a_colour_match_after_drawing_earns_a_bonus_placement() -> None:
    """DOS-11 counts every colour match of the turn, including the one match after a draw (DOS-9)."""
    start = position(hands=[["G3", "Y10"], Q, V], center=["R7", "B9"], draw=["R7", "Y1"])
    state = act(act(start, DRAW), match(0, "R7"))
    view = engine.view(state, 0)
    assert (view["phase"], view["bonus_left"], view["penalties"]) == ("bonus", 1, 0)
    assert row(state) == ["B9", "Y1"]
    state = act(state, bonus("Y10"))
    assert row(state) == ["B9", "Y1", "Y10"]
    assert state.hands[0] == ("G3",)
    assert state.current == 1


def test_dos9_dos12_a_double_colour_match_after_drawing_makes_the_others_draw() -> None:
    """DOS-12 counts every double colour match of the turn, including the one after a draw (DOS-9)."""
    start = position(hands=[["B4", "Y10"], Q, V], center=["R7", "B9"], draw=["B5", "Y1", "Y3", "Y4"])
    state = act(act(start, DRAW), match(1, "B4", "B5"))
    view = engine.view(state, 0)
    assert (view["phase"], view["bonus_left"], view["penalties"]) == ("bonus", 1, 1)
    state = act(state, SKIP)
    drawn = [(e["seat"], e["count"]) for e in since(state, start) if e["type"] == "penalty_draw"]
    assert drawn == [(1, 1), (2, 1)]
    assert Counter(state.hands[1]) == Counter([*Q, "Y3"])
    assert Counter(state.hands[2]) == Counter([*V, "Y4"])


# ------------------------------------------------------------------------------------ DOS-16


def test_dos16_a_refill_from_an_empty_draw_pile_reshuffles_the_discard_pile() -> None:
    """DOS-16: the refill (DOS-10 step 2) reshuffles the discard pile, the piles just cleared included."""
    start = position(hands=[["R7", "G3", "Y6"], Q, V], center=["R7", "B9"], rest="discard", resolve=False)
    assert start.draw_pile == ()
    discarded = Counter([*start.discard, "R7", "R7"])
    state = act(act(start, match(0, "R7")), FINISH)
    added = since(state, start)
    assert [e["type"] for e in added] == ["match", "reshuffle", "refill"]
    assert added[1]["count"] == len(start.discard) + 2
    assert state.discard == ()
    refilled = added[2]["cards"]
    assert row(state) == ["B9", *refilled]
    assert Counter([*state.draw_pile, *refilled]) == discarded


def test_dos16_a_penalty_draw_from_an_empty_draw_pile_reshuffles_the_discard_pile() -> None:
    """DOS-16 for DOS-12: the refill takes the last draw card; the penalties come from the reshuffled piles."""
    hand = ["B4", "B5", "G10"]
    q_hand = ["R#"]
    big = _rest(hand, q_hand, ["R7", "B9", "Y1"])
    start = position(hands=[hand, q_hand, big], center=["R7", "B9"], draw=["Y1"], resolve=False)
    state = act(act(start, match(1, "B4", "B5")), FINISH)
    state = act(state, SKIP)
    added = since(state, start)
    assert [e["type"] for e in added] == ["match", "refill", "skip_bonus", "reshuffle", "penalty_draw", "penalty_draw"]
    assert added[3]["count"] == 3
    assert [(e["seat"], e["count"]) for e in added[4:]] == [(1, 1), (2, 1)]
    assert row(state) == ["R7", "Y1"]
    penalty_cards = Counter(state.hands[1]) - Counter(q_hand) + (Counter(state.hands[2]) - Counter(big))
    assert penalty_cards + Counter(state.draw_pile) == Counter(["B9", "B4", "B5"])


def test_dos16_with_both_piles_empty_penalties_are_partly_forgiven() -> None:
    """DOS-16: "the draw simply does not happen": seats left of P draw while cards remain, the last gets none."""
    hand = ["B4", "B5", "R3", "R4", "G1"]
    big = _rest(hand, ["R#"], ["G#"], ["B9", "R7"])
    start = position(hands=[hand, ["R#"], ["G#"], big], center=["B9", "R7"], resolve=False)
    assert (start.draw_pile, start.discard) == ((), ())
    state = act(start, match(0, "B4", "B5"))
    state = act(state, match(1, "R3", "R4"))
    assert engine.view(state, 0)["bonus_left"] == 2
    state = act(state, SKIP)
    draws = [(e["seat"], e["count"], e["owed"]) for e in since(state, start) if e["type"] == "penalty_draw"]
    # Six cards cleared, two turned up by the refill, four left for three opponents owing two each.
    assert draws == [(1, 2, 2), (2, 2, 2), (3, 0, 2)]
    assert engine.view(state, None)["hand_counts"] == [1, 3, 3, len(big)]
    assert state.current == 1


def test_dos16_a_refill_that_stops_short_is_completed_by_a_later_refill() -> None:
    """DOS-16: with both piles empty the Center Row may hold fewer than 2 cards until a later refill."""
    big = _rest(["G3", "Y10"], ["R#", "G1"])
    start = position(hands=[["G3", "Y10"], ["R#", "G1"], big], center=[])
    # The empty row forces the draw, which finds both piles empty.
    assert [e["type"] for e in engine.view(start, None)["events"]] == ["no_draw"]
    state = act(start, place("Y10"))
    assert row(state) == ["Y10"]
    assert state.current == 1
    state = act(state, match(0, "R#", declare=[10]))
    added = since(state, start)
    assert [e["type"] for e in added][-3:] == ["match", "reshuffle", "refill"]
    assert sorted(row(state)) == ["R#", "Y10"]
    assert state.current == 2
