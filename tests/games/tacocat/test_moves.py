"""The card combinatorics against brute force: attacks (TAC-8) and answers (TAC-9, TAC-E7)."""

from __future__ import annotations

import math
from collections import Counter
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction
from games.tacocat.moves import (
    attack_kind,
    defence_options,
    judge_answers,
    legal_attacks,
    outcome,
    remove,
    submultisets,
)

values = st.integers(min_value=1, max_value=12)


def legal_by_definition(hand: tuple[int, ...], attack: tuple[int, ...], answers: tuple[int, ...]) -> bool:
    """TAC-9 word for word: the sacrifices are the lowest cards of the hand minus the defences."""
    defences = [v for v, a in zip(answers, attack, strict=True) if v >= a]
    sacrifices = sorted(v for v, a in zip(answers, attack, strict=True) if v < a)
    rest = remove(hand, defences)
    return rest is not None and list(rest[: len(sacrifices)]) == sacrifices


@settings(max_examples=150, deadline=None)
@given(data=st.data(), hand=st.lists(values, min_size=2, max_size=6).map(lambda h: tuple(sorted(h))))
def test_defence_options_are_exactly_the_outcomes_of_all_legal_answers_tac9(
    data: st.DataObject, hand: tuple[int, ...]
) -> None:
    k = data.draw(st.integers(min_value=1, max_value=len(hand) - 1))
    attack = tuple(sorted(data.draw(st.lists(values, min_size=k, max_size=k))))
    expected: set[tuple[tuple[int, ...], bool]] = set()
    for picked in permutations(range(len(hand)), k):
        answers = tuple(hand[i] for i in picked)
        if legal_by_definition(hand, attack, answers):
            won = all(v >= a for v, a in zip(answers, attack, strict=True))
            assert judge_answers(hand, attack, answers) is won
            expected.add(outcome(answers, won))
        else:
            try:
                judge_answers(hand, attack, answers)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{answers} to {attack} from {hand} was accepted")
    options = defence_options(hand, attack)
    assert len(options) == len(expected)  # one answer list per outcome, no duplicates
    assert {outcome(a, w) for a, w in options} == expected
    for answers, won in options:
        assert judge_answers(hand, attack, answers) is won


@settings(max_examples=150, deadline=None)
@given(hand=st.lists(values, min_size=1, max_size=9).map(lambda h: tuple(sorted(h))))
def test_legal_attacks_are_every_single_set_and_sequence_leaving_a_card_tac8(hand: tuple[int, ...]) -> None:
    brute = {c for c in submultisets(hand, len(hand) - 1) if c and attack_kind(c) is not None}
    listed = legal_attacks(hand)
    assert len(listed) == len(set(listed))
    assert set(listed) == brute


@given(hand=st.lists(values, max_size=9).map(lambda h: tuple(sorted(h))))
def test_submultisets_list_each_choice_of_interchangeable_copies_once(hand: tuple[int, ...]) -> None:
    subs = submultisets(hand, len(hand))
    assert len(subs) == len(set(subs)) == math.prod(c + 1 for c in Counter(hand).values())


def test_attack_kinds_tac8_e12() -> None:
    assert attack_kind((7,)) == "single"
    assert attack_kind((7, 7)) == "set"
    assert attack_kind((4, 5, 6)) == "sequence"
    assert attack_kind((4, 5)) is None
    assert attack_kind((4, 5, 5, 6)) is None
    assert attack_kind((7, 7, 8)) is None
    assert attack_kind((1, 11, 12)) is None
