"""Wild cards and their declarations (DOS-2, DOS-3, DOS-E8..E10), the action format, and the
"no match" fixtures checked for every single and every pair at every declarable value."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import Any

import pytest

from games.dos.cards import COLOURS, ORDER, WILD_DOS
from games.dos.positions import position
from games.dos.rules import engine
from games.dos.state import State
from games.engine import IllegalAction, InvalidAction
from tests.games.dos.dos_support import Q, V, act, last_match, match, rejects


def declarable(card: str) -> list[Any]:
    if card == WILD_DOS:
        return list(COLOURS)
    if card.endswith("#"):
        return list(range(1, 11))
    return [None]


def every_match(state: State, codes: list[str]) -> Iterator[dict[str, Any]]:
    """Every well-formed match action: each target, each single and pair of ``codes``, in both card
    orders, with every declaration of every wild (played or targeted)."""
    for target, cr in enumerate(state.center):
        target_choices = declarable(cr.card)
        for size in (1, 2):
            for combo in product(codes, repeat=size):
                for declared in product(*(declarable(card) for card in combo)):
                    for target_declared in target_choices:
                        action = match(target, *combo)
                        if any(d is not None for d in declared):
                            action["declare"] = list(declared)
                        if target_declared is not None:
                            action["target_declare"] = target_declared
                        yield action


# ------------------------------------------------------------------------------------- Wild # (DOS-2)


def test_a_wild_number_from_hand_takes_a_value_and_keeps_its_printed_colour() -> None:
    """DOS-2: R# as 7 on R7 is a colour match; R# as 9 on B9 a plain single."""
    state = position(hands=[["R#", "G3", "Y6", "B10"], Q, V], center=["R7", "B9"])
    assert last_match(act(state, match(0, "R#", declare=[7])))["kind"] == "single_colour"
    assert last_match(act(state, match(1, "R#", declare=[9])))["kind"] == "single"
    rejects(state, match(0, "R#", declare=[6]), "R# (6) = 6, but R7 counts 7.")


@pytest.mark.parametrize("value", [0, 11, -1, 2.0, "7", None, True])
def test_a_wild_number_value_outside_one_to_ten_is_malformed(value: Any) -> None:
    state = position(hands=[["R#", "G3", "Y6"], Q, V], center=["R7", "B9"])
    rejects(
        state,
        match(0, "R#", declare=[value]),
        "Declare the value of R# in declare as a whole number from 1 to 10.",
        InvalidAction,
    )


def test_a_wild_number_may_be_declared_two() -> None:
    """DOS-E8: any value 1-10, 2 included (here on a Wild DOS in the row)."""
    state = position(hands=[["R#", "G5", "Y6"], Q, V], center=["W2", "B9"])
    assert last_match(act(state, match(0, "R#", declare=[2], target_declare="R")))["kind"] == "single_colour"
    assert last_match(act(state, match(0, "R#", declare=[2], target_declare="G")))["kind"] == "single"


def test_a_wild_number_in_the_row_gets_its_value_from_the_matcher() -> None:
    """DOS-E10: the matcher announces the value; the colour is the printed one."""
    state = position(hands=[["G5", "B5", "Y6"], Q, ["Y3", "R6", "B#"]], center=["G#", "B9"])
    after = act(state, match(0, "G5", target_declare=5))
    assert last_match(after)["kind"] == "single_colour"
    assert last_match(after)["target_declared"] == 5
    assert last_match(act(state, match(0, "B5", target_declare=5)))["kind"] == "single"
    rejects(state, match(0, "G5", target_declare=6), "G5 = 5, but G# (6) counts 6.")
    rejects(state, match(0, "G5"), "Declare the value of the Center Row's G# in target_declare.", InvalidAction)
    rejects(
        state,
        match(1, "G5", "B5", target_declare=4),
        "B9 is not a wild card: leave out target_declare.",
        InvalidAction,
    )


def test_two_wild_numbers_split_the_target_value_any_way() -> None:
    state = position(hands=[["R#", "G#", "Y6"], ["B#", "G1"], ["Y#", "R6"]], center=["R#", "B9"])
    legal = [a for a in engine.legal_actions(state, 0) if a["type"] == "match"]
    splits = [a["declare"] for a in legal if a["cards"] == ["R#", "G#"] and a["target"] == 1]
    assert splits == [[a, 9 - a] for a in range(1, 9)]
    on_wild = [a for a in legal if a["cards"] == ["R#", "G#"] and a["target"] == 0]
    assert len(on_wild) == sum(t - 1 for t in range(2, 11))


# --------------------------------------------------------------------------------- Wild DOS (DOS-3)


def test_a_wild_dos_always_counts_two_and_its_player_picks_the_colour() -> None:
    """DOS-3."""
    state = position(hands=[["W2", "R5", "Y6", "B10"], Q, V], center=["R7", "B9"])
    rejects(state, match(1, "W2", declare=["B"]), "W2 (blue) = 2, but B9 counts 9.")
    rejects(
        state,
        match(0, "R5", "W2", declare=[None, "X"]),
        "Declare the colour of W2 in declare as one of R, G, B, Y.",
        InvalidAction,
    )
    assert last_match(act(state, match(0, "R5", "W2", declare=[None, "R"])))["declared"] == [None, "R"]


def test_matching_a_wild_dos_in_the_row_needs_a_value_of_two() -> None:
    """DOS-E9: a Wild DOS, a Wild # declared 2, or 1+1; the matcher picks the row card's colour."""
    state = position(hands=[["R1", "G1", "W2", "B#", "Y3"], ["R#", "G8"], ["G#", "R6"]], center=["W2", "B9"])
    legal = [a for a in engine.legal_actions(state, 0) if a["type"] == "match"]
    on_w2 = [a for a in legal if a["target"] == 0]
    assert {tuple(a["cards"]) for a in on_w2} == {("R1", "G1"), ("W2",), ("B#",), ("G1", "B#"), ("R1", "B#")}
    assert match(0, "R1", "G1", target_declare="G") in on_w2
    assert match(0, "B#", declare=[2], target_declare="B") in on_w2
    assert match(0, "W2", declare=["Y"], target_declare="Y") in on_w2
    assert match(0, "R1", "B#", declare=[None, 1], target_declare="R") in on_w2
    assert last_match(act(state, match(0, "W2", declare=["Y"], target_declare="Y")))["kind"] == "single_colour"
    assert last_match(act(state, match(0, "W2", declare=["Y"], target_declare="B")))["kind"] == "single"
    rejects(state, match(0, "Y3", target_declare="Y"), "Y3 = 3, but W2 (yellow) counts 2.")
    rejects(
        state,
        match(0, "W2", declare=["Y"]),
        "Declare the colour of the Center Row's W2 in target_declare.",
        InvalidAction,
    )


# ------------------------------------------------------------------------------------- action format


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("draw", "An action must be an object with a type."),
        ({}, "Unknown action type None."),
        ({"type": "pass"}, "Unknown action type 'pass'."),
        ({"type": "draw", "card": "R1"}, "A draw action has no field 'card'."),
        ({"type": "place"}, "A place action needs a card."),
        ({"type": "place", "card": "R2"}, "'R2' is not a DOS card code."),
        (match(-1, "R7"), "A match needs a target: the position of a Center Row card (0, 1, ...)."),
        (
            {"type": "match", "target": True, "cards": ["R7"]},
            "A match needs a target: the position of a Center Row card (0, 1, ...).",
        ),
        ({"type": "match", "target": 0}, "A match uses one or two cards from your hand."),
        (match(0), "A match uses one or two cards from your hand."),
        (match(0, "r7"), "'r7' is not a DOS card code."),
        (match(1, "G3", "Y6", declare=[None, None]), "Leave out declare when you play no wild card."),
        (match(1, "R#", declare=9), "Give one declaration per card in declare (null for a number card)."),
        (
            match(1, "R#", "G3", declare=[6]),
            "Give one declaration per card in declare (null for a number card).",
        ),
        (match(1, "R#", "G3", declare=[6, 3]), "G3 is not a wild card, so its declaration must be null."),
        (
            match(1, "Y6", "G3"),
            "List the cards of a match in card order (as in your hand; two equal wilds by declaration).",
        ),
        (
            match(0, "W2", "W2", declare=["G", "R"]),
            "List the cards of a match in card order (as in your hand; two equal wilds by declaration).",
        ),
    ],
)
def test_malformed_actions_are_rejected_with_a_reason(action: Any, message: str) -> None:
    state = position(hands=[["R7", "G3", "Y6", "R#", "W2", "W2"], Q, V], center=["R7", "B9"])
    rejects(state, action, message, InvalidAction)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (match(5, "R7"), "There is no Center Row card at position 5."),
        (match(1, "B9"), "You do not hold B9."),
        (match(1, "G3", "G3"), "You hold only one G3."),
        (match(1, "G3", "Y4"), "You do not hold Y4."),
        (match(0, "G3", "Y6"), "G3 + Y6 = 9, but R7 counts 7."),
    ],
)
def test_illegal_matches_say_why(action: dict[str, Any], message: str) -> None:
    state = position(hands=[["R7", "G3", "Y6"], Q, V], center=["R7", "B9"])
    rejects(state, action, message)


def test_actions_are_refused_out_of_turn_and_after_the_game() -> None:
    state = position(hands=[["R7", "G3", "Y6"], Q, V], center=["R7", "B9"])
    with pytest.raises(IllegalAction, match=r"^It is not your turn\.$"):
        engine.apply(state, 1, match(0, "R#", declare=[7]))
    assert engine.legal_actions(state, 1) == []
    over = act(position(hands=[["R7"], Q, V], center=["R7", "B9"], scores=[199, 0, 0]), match(0, "R7"))
    assert engine.view(over, None)["over"] is True
    assert engine.to_act(over) == []
    assert engine.legal_actions(over, 0) == []
    with pytest.raises(IllegalAction, match=r"^The game is over\.$"):
        engine.apply(over, over.current, {"type": "draw"})


# ------------------------------------------------------------------------------- no-match fixtures


def _assert_nothing_matches(state: State, codes: list[str]) -> int:
    checked = 0
    for action in every_match(state, codes):
        with pytest.raises(IllegalAction):
            engine.apply(state, state.current, action)
        checked += 1
    assert [a for a in engine.legal_actions(state, state.current) if a["type"] == "match"] == []
    return checked


@pytest.mark.parametrize(
    ("hand", "center", "drawn"),
    [
        (["G3", "Y10"], ["R7", "B9"], "Y8"),  # DOS-S7
        (["G3", "Y10", "W2"], ["R7", "B9"], "Y8"),  # a Wild DOS at every colour
        (["G3", "Y10", "R4"], ["W2", "B9"], "Y8"),  # a Wild DOS in the row at every colour
        (["R10", "B10", "Y9", "W2"], ["G1", "B3", "R5"], "R6"),  # big cards, small targets
    ],
)
def test_no_single_or_pair_matches_in_the_no_match_fixtures(hand: list[str], center: list[str], drawn: str) -> None:
    """Every single and pair (with the drawn card, both card orders, every declaration) is refused,
    before drawing and after, and legal_actions lists no match; so the draw and the placement are forced."""
    others = [["R#"], ["G#"]]
    before = position(hands=[hand, *others], center=center, draw=[drawn])
    checked = _assert_nothing_matches(before, sorted(set(hand)))
    assert engine.legal_actions(before, 0) == [{"type": "draw"}]
    after = act(before, {"type": "draw"})
    assert engine.view(after, 0)["phase"] == "after_draw"
    checked += _assert_nothing_matches(after, sorted({*hand, drawn}, key=ORDER.__getitem__))
    assert checked >= 36
    assert {a["type"] for a in engine.legal_actions(after, 0)} == {"place"}


def test_a_wild_number_in_hand_always_has_a_match() -> None:
    """Why no fixture holds a Wild #: declared at the row card's value it matches any row card."""
    for target in ("R1", "B10", "G#", "W2"):
        state = position(hands=[["Y#"], ["R#"], ["G#"]], center=[target, "B9"], resolve=False)
        assert any(a["target"] == 0 for a in engine.legal_actions(state, 0) if a["type"] == "match")


def test_legal_matches_are_exactly_the_well_formed_matches_that_apply_accepts() -> None:
    """Exhaustive agreement on hands full of wilds: each listed match applies; every other is refused."""
    cases = [
        (["R#", "G#", "W2", "W2", "Y1"], ["B#", "W2"]),
        (["R#", "R#", "G3", "G4"], ["G#", "R7"]),
        (["W2", "W2", "B1", "B1", "Y#"], ["B4", "W2", "Y#"]),
    ]
    for hand, center in cases:
        state = position(hands=[hand, ["B8"], ["G1"]], center=center, resolve=False)
        legal = [a for a in engine.legal_actions(state, 0) if a["type"] == "match"]
        listed = {repr(sorted(a.items())) for a in legal}
        assert len(listed) == len(legal)
        accepted = set()
        for action in every_match(state, sorted(set(hand))):
            try:
                engine.apply(state, 0, action)
            except IllegalAction:
                continue
            accepted.add(repr(sorted(action.items())))
        assert accepted == listed
