"""Scoring and the end of the match: BA-17..BA-20, BA-E5, BA-E12, scenarios S3 and S4."""

from __future__ import annotations

import pytest

from games.backalley.positions import E, N, S, W
from games.backalley.positions import position as stacked
from games.backalley.rules import engine
from games.backalley.scoring import match_result, points
from games.backalley.state import Contract, State
from games.engine import is_draw, winners
from tests.games.backalley.backalley_support import bid, play, refusal


@pytest.mark.parametrize(
    ("contract", "tricks", "expected"),
    [
        (Contract(7), 9, 37),  # S3: A bid 4 + 3, took 9
        (Contract(2), 4, 12),  # S3: B bid pass + 2, took 4
        (Contract(7), 6, -35),  # S3 variant: A took 6
        (Contract(2), 7, 15),  # S3 variant: B took 7
        (Contract(7), 7, 35),  # exactly made
        (Contract(0), 0, 0),  # both passed: cannot fail
        (Contract(0), 5, 5),  # +1 a trick
        (Contract(14), 13, -70),  # a numeric total above the hand size cannot be made (BA-11)
    ],
)
def test_ba17_s3_numeric_contracts_score_five_a_bid_trick_plus_overtricks_or_lose_five_a_bid_trick(
    contract: Contract, tricks: int, expected: int
) -> None:
    assert points(contract, tricks, 13) == expected


@pytest.mark.parametrize(
    ("level", "tricks", "cards", "expected"),
    [(1, 5, 5, 50), (2, 5, 5, 100), (1, 0, 5, -50), (3, 12, 13, -390), (4, 13, 13, 520), (1, 1, 1, 10)],
)
def test_ba18_board_scores_ten_per_card_in_hand_times_the_level_won_or_lost(
    level: int, tricks: int, cards: int, expected: int
) -> None:
    assert points(Contract(cards, level), tricks, cards) == expected


def test_ba18_ba_e5_s4_board_against_double_board() -> None:
    # 5-card deal, trump spades; E holds the five top trumps and nobody else holds a trump.
    hands = ["2H 3H 4H 5H 6H", "BB LB AS KS QS", "2D 3D 4D 5D 6D", "2C 3C 4C 5C 6C"]
    state = bid(stacked(hands, "2S", deal=9), "board", "board", "pass", "pass")
    assert engine.to_act(state) == [E]
    for lead in ("BB", "LB", "AS", "KS", "QS"):
        (seat,) = engine.to_act(state)
        assert seat == E
        state = engine.apply(state, E, {"type": "play", "card": lead})
        for follower in (S, W, N):
            state = engine.apply(state, follower, engine.legal_actions(state, follower)[0])
    row = engine.view(state, None)["score_sheet"][0]
    assert row["tricks"] == [0, 5]
    assert row["points"] == [-50, 100] and row["made"] == [False, True]
    assert row["contracts"] == [{"tricks": 5, "board": 1}, {"tricks": 5, "board": 2}]


def test_ba17_ba19_each_team_is_scored_on_its_own_contract() -> None:
    # 2-card deal, trump spades: N bids 1 and takes both tricks; E and W pass and take none.
    hands = ["AH AD", "2H 2D", "3H 3D", "4H 4D"]
    state = bid(stacked(hands, "5S", deal=12), 1, "pass", "pass", "pass")
    state = play(state, "AH", "2H", "3H", "4H", "AD", "2D", "3D", "4D")
    view = engine.view(state, None)
    row = view["score_sheet"][0]
    assert row == {
        "deal": 12,
        "dealer": W,
        "cards": 2,
        "trump": "S",
        "bids": [1, "pass", "pass", "pass"],
        "contracts": [{"tricks": 1, "board": 0}, {"tricks": 0, "board": 0}],
        "tricks": [2, 0],
        "points": [6, 0],
        "made": [True, True],
        "totals": [6, 0],
    }
    assert view["totals"] == [6, 0]
    scored = [e for e in view["events"] if e["type"] == "deal_scored"]
    assert scored == [{"type": "deal_scored", "deal_number": 12, "tricks": [2, 0], "points": [6, 0], "totals": [6, 0]}]


def _last_deal_tied() -> State:
    """Deal 25 with no trump (BB up, LB the last stock card), N and E both bid 8. N cashes six hearts,
    then gives E the lead with a spade; E takes the last seven tricks. Both teams fail: -40 each."""
    hands = [
        "AH KH QH JH 10H 9H 2S 3S 4S 5S 6S 7S 8S",
        "9S 10S JS QS KS AS 8H 7H 6H 5H 4H 3H 2H",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
        "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
    ]
    state = bid(stacked(hands, "BB", deal=25, stock=["LB"]), 8, 8, "pass", "pass")
    diamonds = iter(hands[S].split())
    clubs = iter(hands[W].split())
    for n, e in zip(["AH", "KH", "QH", "JH", "10H", "9H"], ["8H", "7H", "6H", "5H", "4H", "3H"], strict=True):
        state = play(state, n, e, next(diamonds), next(clubs))
    state = play(state, "2S", "9S", next(diamonds), next(clubs))
    for e, n in zip(["10S", "JS", "QS", "KS", "AS", "2H"], ["3S", "4S", "5S", "6S", "7S", "8S"], strict=True):
        state = play(state, e, next(diamonds), next(clubs), n)
    return state


def test_ba20_ba_e12_equal_totals_after_deal_25_are_a_draw() -> None:
    state = _last_deal_tied()
    view = engine.view(state, None)
    assert view["over"] is True and view["phase"] == "over" and view["to_act"] == []
    assert view["score_sheet"][-1]["tricks"] == [6, 7]
    assert view["totals"] == [-40, -40]
    result = engine.result(state)
    assert result is not None and is_draw(result)
    assert result["scores"] == [-40, -40, -40, -40] and result["ranks"] == [1, 1, 1, 1]
    assert view["result"] == result
    assert view["events"][-1] == {"type": "game_end", "totals": [-40, -40], "winner": None}


def test_ba20_nothing_can_be_played_once_the_match_is_over() -> None:
    state = _last_deal_tied()
    for seat in range(4):
        assert engine.legal_actions(state, seat) == []
        assert refusal(state, seat, {"type": "play", "card": "AS"}) == "The game is over."


def test_ba20_the_team_with_more_points_wins_and_partners_share_score_and_rank() -> None:
    result = match_result((120, 95))
    assert result["scores"] == [120, 95, 120, 95]
    assert result["ranks"] == [1, 2, 1, 2]
    assert winners(result) == [N, S] and not is_draw(result)
    assert result["detail"] == {
        "teams": [{"seats": [0, 2], "score": 120, "rank": 1}, {"seats": [1, 3], "score": 95, "rank": 2}],
        "draw": False,
    }
    assert match_result((-5, 30))["ranks"] == [2, 1, 2, 1]


def test_the_match_is_not_over_before_deal_25_is_scored() -> None:
    hands = ["AH AD", "2H 2D", "3H 3D", "4H 4D"]
    state = play(bid(stacked(hands, "5S", deal=12), 1, "pass", "pass", "pass"), "AH", "2H", "3H", "4H")
    assert engine.result(state) is None and engine.view(state, None)["result"] is None
