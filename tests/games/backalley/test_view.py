"""The view: its keys, what each seat may see (section 3.7), the hand order and the event list."""

from __future__ import annotations

import json
import random

from games.backalley.cards import ALL_CARDS, code
from games.backalley.positions import E, N, S, W
from games.backalley.positions import position as stacked
from games.backalley.rules import engine
from games.backalley.state import EVENT_WINDOW
from tests.games.backalley.backalley_support import bid, play, playout, random_policy

KEYS = {
    "seat", "players", "teams", "to_act", "current", "over", "result", "phase", "deal_number", "deals",
    "cards_per_hand", "redeals", "dealer", "hand", "hand_counts", "stock_count", "upcard", "trump", "swap",
    "bids", "next_board_level", "contracts", "tricks", "leader", "trick", "tricks_played", "last_trick",
    "trump_broken", "unplayable", "score_sheet", "totals", "events",
}  # fmt: skip


def test_every_documented_key_is_present_for_players_and_spectators() -> None:
    state = engine.new_game(4, 21)
    for seat in (0, 1, 2, 3, None):
        view = engine.view(state, seat)
        assert set(view) == KEYS
        assert view["seat"] == seat and view["players"] == 4
        json.dumps(view)


def test_a_spectator_sees_no_hand_and_partners_see_only_each_others_counts() -> None:
    state = engine.new_game(4, 21, {"dealer": W})
    assert engine.view(state, None)["hand"] is None
    north = json.dumps(engine.view(state, N))
    for card in engine.view(state, S)["hand"]:
        assert f'"{card}"' not in north
    assert engine.view(state, N)["hand_counts"] == [13, 13, 13, 13]


def test_the_seed_and_the_stock_never_appear_in_a_view() -> None:
    state = engine.new_game(4, 987654321, {"dealer": W})
    stock = engine.dump(state)["stock"]
    assert stock
    for seat in (0, 1, 2, 3, None):
        text = json.dumps(engine.view(state, seat))
        assert "987654321" not in text
        for card in stock:
            assert f'"{card}"' not in text


def test_the_hand_shows_trumps_first_then_alternating_colours_high_to_low() -> None:
    north = ["BB", "4D", "AD", "2S", "KC", "9H", "QS", "LB", "3C", "10H", "JD", "7S", "5C"]
    others = [code(c) for c in ALL_CARDS if code(c) not in [*north, "5D"]]
    hands = [" ".join(north), " ".join(others[0:13]), " ".join(others[13:26]), " ".join(others[26:39])]
    state = stacked(hands, "5D")
    assert engine.view(state, N)["hand"] == [
        "BB", "LB", "AD", "JD", "4D",  # trumps: diamonds
        "QS", "7S", "2S",  # then spades, hearts, clubs (the cycle S H C D starting after diamonds)
        "10H", "9H",
        "KC", "5C", "3C",
    ]  # fmt: skip


def test_with_no_trump_the_hand_starts_with_spades() -> None:
    state = stacked(["2D AS", "3H 3C", "4D 4S", "5C 5H"], "BB", deal=12, stock=["LB"])
    assert engine.view(state, N)["hand"] == ["AS", "2D"]


def test_trick_and_tricks_are_reported_with_seats() -> None:
    hands = ["5H 2C", "KH 3C", "AC 4C", "9H 5C"]
    state = bid(stacked(hands, "2S", deal=12), "board", "pass", "pass", "pass")
    state = play(state, "5H", "KH")
    view = engine.view(state, None)
    assert view["leader"] == N and view["current"] == S
    assert view["trick"] == [{"seat": N, "card": "5H"}, {"seat": E, "card": "KH"}]
    state = play(state, "AC", "9H")
    view = engine.view(state, None)
    assert view["trick"] == [] and view["leader"] == E
    assert view["tricks"] == {"teams": [0, 1], "seats": [0, 1, 0, 0]}
    expected = {
        "leader": N,
        "cards": [
            {"seat": N, "card": "5H"},
            {"seat": E, "card": "KH"},
            {"seat": S, "card": "AC"},
            {"seat": W, "card": "9H"},
        ],
        "winner": E,
    }
    assert view["last_trick"] == expected and view["tricks_played"] == [expected]


def test_the_last_trick_stays_visible_into_the_next_deal() -> None:
    state = bid(stacked(["AH", "KH", "2S", "QH"], "9S", deal=13), "board", "pass", "pass", "pass")
    state = play(state, "AH", "KH", "2S", "QH")
    view = engine.view(state, None)
    assert view["deal_number"] == 14 and view["tricks_played"] == []
    assert view["last_trick"]["winner"] == S


def test_events_keep_only_the_most_recent_window() -> None:
    states = list(playout(engine.new_game(4, 3), random_policy, random.Random(3)))
    for state in states[::50]:
        assert len(engine.view(state, None)["events"]) <= EVENT_WINDOW
    assert len(engine.view(states[-1], None)["events"]) == EVENT_WINDOW


def test_every_event_has_a_type_and_seats_are_valid() -> None:
    types = set()
    for state in playout(engine.new_game(4, 8), random_policy, random.Random(8)):
        for event in engine.view(state, 0)["events"]:
            types.add(event["type"])
            if "seat" in event:
                assert event["seat"] in (0, 1, 2, 3)
    assert {"deal", "upcard", "bid", "bidding_over", "play", "trick", "deal_scored", "game_end"} <= types
