"""Leading trump beside a board contract (BA-13), the joker swap (BA-7) and a played deal's scores
(BA-17..BA-20): rules the other modules cover only loosely (a mutation of the engine there would go
unnoticed, or be caught only by chance by the randomised oracle)."""

from __future__ import annotations

from games.backalley.positions import E, N, S, W
from games.backalley.positions import position as stacked
from games.backalley.rules import engine
from tests.games.backalley.backalley_support import bid, legal_cards, play, refusal

TRUMP_NOT_BROKEN = "Trump may not be led yet: no trump has been played in an earlier trick of this deal."


def test_ba13_b_ba_e4_partner_of_a_board_bidder_may_lead_trump_while_holding_other_suits() -> None:
    # 3-card deal, trump spades. N bids board; S (partner) wins trick 1 without any trump being played
    # and still holds a trump and a plain card: the team rule (b), not the only-trumps rule (c), lets
    # S lead the trump.
    hands = ["4H 5D 6D", "2H 3C 4C", "AH 6S 7D", "3H 5C 6C"]
    state = bid(stacked(hands, "9S", deal=11), "board", "pass", "pass", "pass")
    state = play(state, "4H", "2H", "AH", "3H")
    view = engine.view(state, S)
    assert view["leader"] == S and view["trump_broken"] is False
    assert sorted(legal_cards(state, S)) == ["6S", "7D"]
    engine.apply(state, S, {"type": "play", "card": "6S"})


def test_ba13_b_the_opponents_of_a_board_team_are_restricted_and_their_own_board_frees_them() -> None:
    hands = ["4H 5D 6C", "AH 6S 7C", "2H 3D 8C", "3H 4D 9C"]
    # E bid board: E leads and may lead trump at once.
    state = bid(stacked(hands, "9S", deal=11), 1, "board", "pass", "pass")
    assert engine.to_act(state) == [E]
    assert sorted(legal_cards(state, E)) == ["6S", "7C", "AH"]
    # N bid board, E a number: E wins trick 1 (no trump played) and may not lead the trump.
    state = bid(stacked(hands, "9S", deal=11), "board", 1, "pass", "pass")
    state = play(state, "4H", "AH", "2H", "3H")
    assert engine.to_act(state) == [E]
    assert refusal(state, E, {"type": "play", "card": "6S"}) == TRUMP_NOT_BROKEN


def test_ba13_a_a_joker_discarded_on_a_plain_lead_breaks_trump() -> None:
    # Trump spades. Trick 1: hearts led, S is void and throws LB (a trump, BA-3) and wins with it.
    # No card of the spade suit has been played, yet trump is broken for trick 2.
    hands = ["AH 4S 5C", "KH 6C 7C", "LB 3S 4D", "QH 8C 9C"]
    state = bid(stacked(hands, "9S", deal=11), 1, "pass", "pass", "pass")
    state = play(state, "AH", "KH", "LB", "QH")
    view = engine.view(state, S)
    assert view["last_trick"]["winner"] == S and view["trump_broken"] is True
    assert sorted(legal_cards(state, S)) == ["3S", "4D"]


def test_ba7_the_joker_swap_takes_the_top_card_of_the_stock() -> None:
    # 2-card deal, upcard LB, W holds BB: W discards BB and takes the first stock card, not another.
    hands = ["2H 3H", "2D 3D", "2C 3C", "BB 4C"]
    state = stacked(hands, "LB", deal=12, stock=["AS", "KS", "QS"])
    assert engine.view(state, None)["trump"] is None
    own = engine.view(state, W)
    assert own["swap"] == {"seat": W, "card": "BB", "took": "AS"}
    assert sorted(own["hand"]) == ["4C", "AS"]
    assert own["stock_count"] == 54 - 8 - 1 - 1
    assert engine.dump(state)["stock"][:2] == ["KS", "QS"]


def test_ba17_ba19_a_failed_numeric_contract_and_a_zero_contract_in_a_played_deal() -> None:
    # 2-card deal, trump spades. N 1 + S 1 = 2 for team A; E and W pass (0). N takes trick 1, E trick 2:
    # A took 1 of 2 -> -10; B took 1 with a zero contract -> +1. Tricks are summed per partnership.
    hands = ["AH 2D", "2H AD", "3H 3D", "4H 4D"]
    state = bid(stacked(hands, "5S", deal=12), 1, "pass", 1, "pass")
    assert engine.to_act(state) == [N]
    state = play(state, "AH", "2H", "3H", "4H", "2D", "AD", "3D", "4D")
    row = engine.view(state, None)["score_sheet"][0]
    assert row["contracts"] == [{"tricks": 2, "board": 0}, {"tricks": 0, "board": 0}]
    assert row["tricks"] == [1, 1]
    assert row["points"] == [-10, 1] and row["made"] == [False, True]


def test_ba17_tricks_won_by_the_partner_count_for_the_team() -> None:
    # S (seat 2) takes both tricks for N's bid of 1: team A made 1 with one overtrick, +6.
    hands = ["2H 2D", "3H 3D", "AH AD", "4H 4D"]
    state = bid(stacked(hands, "5S", deal=12), 1, "pass", "pass", "pass")
    state = play(state, "2H", "3H", "AH", "4H")
    assert engine.to_act(state) == [S]
    state = play(state, "AD", "4D", "2D", "3D")
    row = engine.view(state, None)["score_sheet"][0]
    assert row["tricks"] == [2, 0] and row["points"] == [6, 0]


def test_ba18_ba20_a_board_made_in_deal_25_wins_the_match_for_that_team() -> None:
    # Deal 25, trump hearts (2H up). N holds BB and the twelve top hearts, bids board and takes all 13
    # tricks: team A +130, team B (both passed) 0. Team A wins the match.
    hands = [
        "BB AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H",
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
        "LB AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C",
    ]
    state = bid(stacked(hands, "2H", deal=25, stock=["2C"]), "board", "pass", "pass", "pass")
    state = play(state, "BB")
    state = play(state, "AS", "AD")
    assert legal_cards(state, W) == ["LB"]  # BA-15: the highest (only) trump
    state = play(state, "LB")
    for card in hands[N].split()[1:]:
        state = play(state, card)
        for seat in (E, S, W):
            state = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    view = engine.view(state, None)
    assert view["over"] is True
    row = view["score_sheet"][-1]
    assert row["tricks"] == [13, 0] and row["points"] == [130, 0]
    assert view["events"][-1] == {"type": "game_end", "totals": [130, 0], "winner": 0}
    result = engine.result(state)
    assert result is not None and result["ranks"] == [1, 2, 1, 2] and result["scores"] == [130, 0, 130, 0]
