"""present(): the shapes the board template draws, from a view alone; and the form parser."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.http import QueryDict
from django.utils import translation

from games.backalley.action_forms import parse_form
from games.backalley.present import card, present, unplayable_reason
from games.backalley.rules import engine
from games.engine import InvalidAction


def random_views(seed: int, steps: int) -> list[tuple[dict[str, Any], int]]:
    """(view, seat) of the seat to act, at every step of a random playout."""
    rng = random.Random(seed)
    state = engine.new_game(4, seed, {"first_deal": rng.randint(1, 25)})
    out = []
    for _ in range(steps):
        if engine.result(state) is not None:
            break
        (seat,) = engine.to_act(state)
        out.append((engine.view(state, seat), seat))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_the_translatable_reasons_say_exactly_what_the_engine_says(seed: int) -> None:
    """The page rebuilds the engine's unplayable reasons (BA-13..BA-15) so they can be translated."""
    seen = 0
    with translation.override("en"):
        for view, seat in random_views(seed, 400):
            if not view["unplayable"]:
                continue
            board = present(view, seat)
            for group in board["hand"]:
                for c in group["cards"]:
                    assert c["playable"] == (c["code"] not in view["unplayable"])
                    if not c["playable"]:
                        assert c["reason"] == view["unplayable"][c["code"]]
                        assert c["reason_id"] == "ba-why"
                        seen += 1
    assert seen > 0


@pytest.mark.parametrize(
    ("trick", "trump", "playable", "reason"),
    [
        ([], "S", ["KH"], "Trump may not be led yet: no trump has been played in an earlier trick of this deal."),
        (["BB"], "D", ["LB"], "Big Blooper was led: you must play your highest trump, Little Blooper."),
        (["LB"], "D", ["3D"], "Little Blooper was led: you must play your lowest trump, 3\u2666."),
        (["5S"], "S", ["LB"], "A trump was led: you must play a trump."),
        (["2H"], "S", ["9H"], "You must follow suit: hearts were led."),
    ],
    ids=["BA-S5", "BA-S7a", "BA-S7b", "BA-S9-trump", "BA-S9-suit"],
)
def test_reasons_for_the_rule_scenarios(trick: list[str], trump: str, playable: list[str], reason: str) -> None:
    view = {"trick": [{"seat": 0, "card": c} for c in trick], "trump": trump}
    with translation.override("en"):
        assert unplayable_reason(view, playable) == reason


def test_cards_read_as_rank_and_suit_and_have_spoken_names() -> None:
    with translation.override("en"):
        assert card("QH") == {
            "code": "QH",
            "rank": "Q",
            "symbol": "♥",
            "short": "Q♥",
            "name": "queen of hearts",
            "colour": "red",
        }
        assert card("10C")["name"] == "ten of clubs" and card("10C")["short"] == "10♣"
        assert card("BB")["name"] == "Big Blooper" and card("LB")["colour"] == "joker"


@pytest.mark.parametrize("seat", [0, 1, 2, 3, None])
def test_the_table_is_drawn_from_the_viewers_chair(seat: int | None) -> None:
    view = engine.view(engine.new_game(4, 7, {"dealer": 3}), seat)
    board = present(view, seat)
    bottom = 0 if seat is None else seat
    positions = {p["seat"]: p["pos"] for p in board["seats"]}
    assert positions == {
        bottom: "bottom",
        (bottom + 1) % 4: "left",
        (bottom + 2) % 4: "top",
        (bottom + 3) % 4: "right",
    }
    relations = [p["relation"] for p in board["seats"]]
    assert relations == (["", "", "", ""] if seat is None else ["you", "opponent", "partner", "opponent"])


def test_the_hand_is_grouped_by_suit_with_the_trumps_first() -> None:
    for view, seat in random_views(3, 120):
        board = present(view, seat)
        flat = [c["code"] for g in board["hand"] for c in g["cards"]]
        assert flat == view["hand"]
        keys = [g["key"] for g in board["hand"]]
        assert len(keys) == len(set(keys))  # each suit in one place
        trump = view["trump"]
        for g in board["hand"]:
            for c in g["cards"]:
                is_trump = trump is not None and (c["code"] in ("BB", "LB") or c["code"][-1] == trump)
                assert (g["key"] == "trump") == is_trump
                assert is_trump or g["key"] == c["code"][-1]
        if "trump" in keys:
            assert keys[0] == "trump"


def test_bid_buttons_offer_pass_every_number_below_the_hand_size_and_board_at_the_next_level() -> None:
    state = engine.new_game(4, 1, {"dealer": 3, "first_deal": 20})  # 8 cards; seat 0 bids first
    board = present(engine.view(state, 0), 0)
    assert [b["value"] for b in board["bids"]] == ["pass", 1, 2, 3, 4, 5, 6, 7, "board"]
    assert board["bids"][-1]["label"] == "Board"
    state = engine.apply(state, 0, {"type": "bid", "bid": "board"})
    board = present(engine.view(state, 1), 1)
    assert board["bids"][-1]["label"] == "Double board"
    assert board["bids"][-1]["aria"] == "Bid double board: all 8 tricks"
    assert present(engine.view(state, 0), 0)["bids"] == []  # not seat 0's turn


def qd(**fields: str) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in fields.items():
        data[key] = value
    return data


@pytest.mark.parametrize(
    ("fields", "action"),
    [
        ({"type": "bid", "bid": "3", "version": "4"}, {"type": "bid", "bid": 3}),
        ({"type": "bid", "bid": "pass"}, {"type": "bid", "bid": "pass"}),
        ({"type": "bid", "bid": "board"}, {"type": "bid", "bid": "board"}),
        ({"type": "bid", "bid": "3.0"}, {"type": "bid", "bid": "3.0"}),  # the engine says why not
        ({"type": "play", "card": "QH", "csrfmiddlewaretoken": "x"}, {"type": "play", "card": "QH"}),
        ({"action": '{"type": "bid", "bid": "3"}'}, {"type": "bid", "bid": "3"}),  # JSON is taken as sent
    ],
)
def test_form_fields_become_engine_actions(fields: dict[str, str], action: dict[str, Any]) -> None:
    assert parse_form(qd(**fields)) == action


def test_a_form_without_a_type_is_malformed() -> None:
    with pytest.raises(InvalidAction):
        parse_form(qd(card="QH"))
