"""The board's choices and its forms: the page offers only what ``legal_actions`` allows, and every
choice it offers, posted as the form posts it, is an action ``apply`` accepts (no database needed)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.http import QueryDict

from games.engine import IllegalAction, InvalidAction
from games.tacocat.action_forms import parse_form
from games.tacocat.positions import position
from games.tacocat.present import present
from games.tacocat.rules import engine
from tests.games.tacocat.test_view import random_state


def form(data: dict[str, Any]) -> QueryDict:
    q = QueryDict(mutable=True)
    for key, value in data.items():
        if isinstance(value, list):
            q.setlist(key, value)
        else:
            q[key] = value
    return q


def seat_states(count: int, seed: int) -> list[tuple[Any, int]]:
    """Random states paired with a seat that is to act in them, many of them answering a jumbo attack."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = random_state(rng.randrange(2**40), rng, rng.randint(0, 150), None)
        jumbos = [a for a in engine.legal_actions(state, state.attacker or 0) if len(a.get("cards", ())) > 1]
        if state.phase == "attack" and jumbos and rng.random() < 0.6:
            # Jumbo attacks are rare in random play; their answers are what the selects are for.
            state = engine.apply(state, state.attacker, rng.choice(jumbos))
        if not state.over:
            out.append((state, rng.choice(engine.to_act(state))))
    return out


@pytest.mark.parametrize(("state", "seat"), seat_states(120, 7))
def test_the_page_offers_only_legal_choices_and_each_is_accepted(state: Any, seat: int) -> None:
    board = present(engine.view(state, seat), seat)
    legal = engine.legal_actions(state, seat)
    assert board["form"]
    if state.phase == "duel":
        assert board["mode"] == "duel"
        assert sorted({c["code"] for c in board["hand"]}, key=int) == [a["card"] for a in legal]
    elif state.phase == "replace":
        assert board["max_replace"] == max(len(a["cards"]) for a in legal)
        keep = parse_form(form({"type": "replace", "keep": "1", "cards[]": ["5"]}))
        assert keep in legal
    elif state.phase == "attack":
        jumbos = [j["value"].split() for j in board["jumbo_attacks"]]
        assert jumbos == [a["cards"] for a in legal if len(a["cards"]) >= 2]
        for cards in jumbos:
            engine.apply(state, seat, parse_form(form({"type": "attack", "jumbo": " ".join(cards)})))
    else:
        defence = board["defence"]
        if defence["single"]:
            assert sorted([b["value"]] for b in defence["buttons"]) == sorted(a["answers"] for a in legal)
            assert [b["won"] for b in defence["buttons"]] == sorted(
                (b["won"] for b in defence["buttons"]), reverse=True
            )
        else:
            slots = defence["slots"]
            base = {"type": "defend", "hand": board["hand_codes"]}
            defaults = {s["field"]: s["default"] for s in slots}
            after = engine.apply(state, seat, parse_form(form(base | defaults)))
            exchange = next(e.for_viewer(None) for e in reversed(after.events) if e.type == "exchange")
            assert exchange["defended"] == defence["can_win"]
            # Any one choice, with every other attack card sacrificed, is a legal answer.
            for slot in slots:
                for choice in slot["choices"]:
                    others = {s["field"]: "sacrifice" for s in slots if s is not slot}
                    engine.apply(state, seat, parse_form(form(base | others | {slot["field"]: choice["value"]})))


def test_a_seat_that_has_committed_waits_and_sees_its_choice() -> None:
    state = position(([1, 5, 9], [2, 6, 10]), phase="duel")
    state = engine.apply(state, 0, {"type": "duel", "card": "9"})
    mine, theirs, watching = present(engine.view(state, 0), 0), present(engine.view(state, 1), 1), None
    watching = present(engine.view(state, None), None)
    assert (mine["mode"], mine["form"], mine["your_commit"]) == ("committed", False, ["9"])
    assert (theirs["mode"], theirs["other_committed"], theirs["your_commit"]) == ("duel", True, None)
    assert watching["mode"] == "watching" and [p["committed"] for p in watching["players"]] == [True, False]


def test_the_second_replacer_may_tick_up_to_the_cap() -> None:
    state = position(([1, 5, 9, 11], [2, 6, 10, 12]), phase="replace", cat=2, replaced=(2, None), cap=2)
    board = present(engine.view(state, 1), 1)
    assert (board["mode"], board["max_replace"]) == ("replace_second", 2)


# --- parse_form ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "action"),
    [
        ({"type": "replace"}, {"type": "replace", "cards": []}),
        ({"type": "replace", "cards[]": ["9", "2"]}, {"type": "replace", "cards": ["9", "2"]}),
        ({"type": "replace", "cards[]": ["9"], "keep": "1"}, {"type": "replace", "cards": []}),
        ({"type": "duel", "card": "7"}, {"type": "duel", "card": "7"}),
        ({"type": "attack", "cards[]": ["5", "4", "6"]}, {"type": "attack", "cards": ["5", "4", "6"]}),
        ({"type": "attack", "cards[]": ["1"], "jumbo": "7 7"}, {"type": "attack", "cards": ["7", "7"]}),
        ({"type": "defend", "answers[]": ["8"]}, {"type": "defend", "answers": ["8"]}),
        # Sacrifices take the lowest cards left, the lowest against the highest attack card.
        ({"type": "defend", "hand": "1 6 9 12", "answer_0": "9", "answer_1": "sacrifice"},
         {"type": "defend", "answers": ["9", "1"]}),
        ({"type": "defend", "hand": "2 3 4 9", "answer_0": "sacrifice", "answer_1": "sacrifice"},
         {"type": "defend", "answers": ["3", "2"]}),
        ({"action": '{"type": "duel", "card": "3"}', "version": "4"}, {"type": "duel", "card": "3"}),
        ({"type": "defend", "answers[]": ["8"], "version": "3", "csrfmiddlewaretoken": "x"},
         {"type": "defend", "answers": ["8"]}),
    ],
)  # fmt: skip
def test_forms_become_engine_actions(data: dict[str, Any], action: dict[str, Any]) -> None:
    assert parse_form(form(data)) == action


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "The action has no type."),
        ({"type": "pass"}, "Unknown action type 'pass'."),
        ({"type": "duel"}, "Choose a card for the duel."),
        ({"type": "attack"}, "Tick the card or cards to attack with."),
        ({"type": "defend"}, "Choose an answer for every attack card."),
        ({"type": "defend", "answer_0": "", "hand": "1 2"}, "Choose an answer for every attack card."),
        ({"type": "defend", "answer_0": "x", "hand": "1 2"}, "'x' is not a card."),
        ({"type": "defend", "answer_0": "sacrifice", "hand": ""}, "You have no card left to sacrifice."),
    ],
)
def test_incomplete_forms_are_refused_with_a_reason(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidAction) as error:
        parse_form(form(data))
    assert error.value.message == message


def test_the_same_card_chosen_twice_is_refused_by_the_engine() -> None:
    state = engine.apply(
        position(([3, 7, 7, 10], [1, 6, 9, 12]), attacker=0), 0, {"type": "attack", "cards": ["7", "7"]}
    )
    action = parse_form(form({"type": "defend", "hand": "1 6 9 12", "answer_0": "9", "answer_1": "9"}))
    with pytest.raises(IllegalAction, match=r"You do not hold another 9\."):
        engine.apply(state, 1, action)
