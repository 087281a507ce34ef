"""Components, the deal sequence and bidding: BA-1..BA-12 and their edge cases and scenarios."""

from __future__ import annotations

import pytest

from games.backalley.cards import ALL_CARDS, BB, LB, code, deck_for, hand_size, parse, rank
from games.backalley.positions import E, N, S, W
from games.backalley.positions import position as stacked
from games.backalley.rules import engine
from games.backalley.state import DEALS, State
from games.engine import Engine, IllegalAction, InvalidAction
from tests.games.backalley.backalley_support import bid, hand, play, refusal

SUIT_CARDS = [code(c) for c in ALL_CARDS if c < 52]


def test_engine_identity_and_protocol() -> None:
    assert isinstance(engine, Engine)
    assert (engine.slug, engine.name, engine.min_players, engine.max_players) == ("backalley", "Back Alley", 4, 4)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_back_alley_needs_exactly_four_players(players: int) -> None:
    with pytest.raises(InvalidAction, match="exactly 4 players"):
        engine.new_game(players, 1)


def test_ba1_the_deck_has_54_distinct_cards_with_both_bloopers() -> None:
    codes = [code(c) for c in ALL_CARDS]
    assert len(set(codes)) == 54
    assert {"BB", "LB", "AS", "10D", "2C", "KH"} <= set(codes)
    assert all(parse(c) == i for i, c in enumerate(codes))


@pytest.mark.parametrize("bad", ["as", "1S", "11H", "TS", "JK", "", "10", "S", 10, None, "BJ"])
def test_card_codes_are_exact(bad: object) -> None:
    with pytest.raises(ValueError):
        parse(bad)


def test_ba2_partners_sit_opposite() -> None:
    view = engine.view(engine.new_game(4, 3), None)
    assert view["teams"] == [[0, 2], [1, 3]]


def test_ba3_trump_ranking_puts_big_then_little_blooper_above_the_ace() -> None:
    assert rank(BB) > rank(LB) > rank(parse("AS")) > rank(parse("KS")) > rank(parse("10S")) > rank(parse("2S"))


@pytest.mark.parametrize(("deal", "cards"), [(1, 13), (2, 12), (12, 2), (13, 1), (14, 2), (24, 12), (25, 13)])
def test_ba4_s1_hand_sizes_go_down_to_one_and_back_up(deal: int, cards: int) -> None:
    assert hand_size(deal) == cards
    state = engine.new_game(4, 7, {"first_deal": deal})
    view = engine.view(state, 0)
    assert view["cards_per_hand"] == cards and len(view["hand"]) == cards
    assert view["hand_counts"] == [cards] * 4


def test_ba4_there_are_25_deals_with_exactly_one_one_card_deal() -> None:
    sizes = [hand_size(d) for d in range(1, DEALS + 1)]
    assert DEALS == 25 and sizes.count(1) == 1 and sizes[12] == 1


def test_ba5_first_dealer_comes_from_the_seed_and_is_repeatable() -> None:
    dealers = {engine.view(engine.new_game(4, seed), None)["dealer"] for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert engine.new_game(4, 11) == engine.new_game(4, 11)


def test_ba5_the_deal_passes_clockwise_to_the_next_deal() -> None:
    state = _finish_one_card_deal(stacked(["AS", "KS", "QS", "JS"], "2H", dealer=W, deal=13))
    view = engine.view(state, None)
    assert (view["deal_number"], view["dealer"], view["cards_per_hand"]) == (14, N, 2)
    assert view["to_act"] == [E]


def test_ba6_cards_are_dealt_one_at_a_time_from_the_dealers_left_then_the_upcard() -> None:
    deck = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "KH"]
    # Dealer E: S gets deck[0], W deck[1], N deck[2], E deck[3], S deck[4], ...
    state = engine.new_game(4, 5, {"deck": deck, "dealer": E, "first_deal": 12})
    assert [hand(state, s) for s in (S, W, N, E)] == [["6C", "2C"], ["7C", "3C"], ["8C", "4C"], ["9C", "5C"]]
    view = engine.view(state, None)
    assert view["upcard"] == "KH" and view["trump"] == "H"
    assert view["stock_count"] == 54 - 8 - 1


def test_ba_e1_the_stock_is_never_empty_when_the_upcard_is_turned() -> None:
    for seed in range(30):
        view = engine.view(engine.new_game(4, seed), None)
        assert view["stock_count"] in (0, 1)  # 52 dealt, the upcard, and one left unless a joker swap took it


def test_stacked_deck_accepts_a_full_permutation_and_deals_it_exactly() -> None:
    deck = [code(c) for c in reversed(ALL_CARDS)]
    state = engine.new_game(4, 1, {"deck": deck, "dealer": W})
    assert code(state.upcard) == deck[52] and [code(c) for c in state.stock] == deck[53:]
    assert sorted(hand(state, N)) == sorted(deck[0:52:4])


def test_stacked_prefix_is_completed_by_a_seeded_shuffle() -> None:
    options = {"deck": ["AS", "KS"], "dealer": W}
    first, again = engine.new_game(4, 9, options), engine.new_game(4, 9, options)
    assert first == again
    assert "AS" in hand(first, N) and "KS" in hand(first, E)
    other_seed = engine.new_game(4, 10, options)
    assert first.hands != other_seed.hands


def _finish_one_card_deal(state: State) -> State:
    return play(bid(state, "board", "pass", "pass", "pass"), "AS", "KS", "QS", "JS")


def test_later_deals_are_shuffled_from_the_seed_and_deal_number() -> None:
    a, b, c = (stacked(["AS", "KS", "QS", "JS"], "2H", deal=13, seed=seed) for seed in (4, 4, 5))
    assert _finish_one_card_deal(a) == _finish_one_card_deal(b)
    assert _finish_one_card_deal(a).hands != _finish_one_card_deal(c).hands


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("deck", "Options must be an object"),
        ({"decks": []}, "Unknown option"),
        ({"dealer": 4}, "dealer must be a seat"),
        ({"dealer": True}, "dealer must be a seat"),
        ({"dealer": "1"}, "dealer must be a seat"),
        ({"first_deal": 0}, "first_deal must be"),
        ({"first_deal": 26}, "first_deal must be"),
        ({"deck": "AS KS"}, "must be a list"),
        ({"deck": ["AS", "as"]}, "position 1: 'as' is not a card code"),
        ({"deck": ["AS", "KH", "AS"]}, "position 2: AS appears twice"),
        ({"deck": [*SUIT_CARDS, "BB", "LB", "AS"]}, "there are only 54"),
    ],
)
def test_bad_options_are_rejected_with_a_clear_message(options: object, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        engine.new_game(4, 1, options)  # type: ignore[arg-type]


# --- BA-7: a joker upcard ---------------------------------------------------------------------------


def _joker_upcard_deal(upcard: str, holder_gets_other: bool) -> tuple[list[str], str]:
    """A 13-card deal (dealer W) turning up ``upcard``; W holds the other joker if asked, else the other
    joker is the last stock card. Returns the deck and the last stock card."""
    other = "BB" if upcard == "LB" else "LB"
    cards = list(SUIT_CARDS)
    last = cards.pop()
    if holder_gets_other:
        pool, stock = [*cards, other], [last]
    else:
        pool, stock = [*cards, last], [other]
    hands = [pool[0:13], pool[13:26], pool[26:39], pool[39:52]]
    return deck_for(hands, upcard, dealer=W, stock=stock), stock[0]


def test_ba7_s8_joker_upcard_means_no_trump_and_the_other_joker_is_swapped_for_the_last_card() -> None:
    deck, last = _joker_upcard_deal("LB", holder_gets_other=True)
    state = engine.new_game(4, 1, {"deck": deck, "dealer": W})
    public = engine.view(state, N)
    assert public["trump"] is None and public["upcard"] == "LB"
    assert public["swap"] == {"seat": W, "card": "BB"}
    assert public["stock_count"] == 0
    own = engine.view(state, W)
    assert own["swap"] == {"seat": W, "card": "BB", "took": last}
    assert "BB" not in own["hand"] and last in own["hand"] and len(own["hand"]) == 13
    swap_events = [e for e in public["events"] if e["type"] == "joker_swap"]
    assert swap_events == [{"type": "joker_swap", "seat": W, "card": "BB"}]
    assert [e for e in own["events"] if e["type"] == "joker_swap"] == [
        {"type": "joker_swap", "seat": W, "card": "BB", "took": last}
    ]


def test_ba7_s8_in_a_no_trump_deal_no_card_counts_as_trump() -> None:
    deck, _ = _joker_upcard_deal("BB", holder_gets_other=True)
    state = engine.new_game(4, 1, {"deck": deck, "dealer": W})
    state = bid(state, 1, "pass", "pass", "pass")
    # BA-13 has nothing to restrict: N may lead any card.
    assert len(engine.legal_actions(state, N)) == 13
    view = engine.view(state, N)
    assert view["unplayable"] == {} and view["trump"] is None


def test_ba_e2_joker_upcard_with_the_other_joker_in_the_stock_means_nobody_swaps() -> None:
    deck, _ = _joker_upcard_deal("LB", holder_gets_other=False)
    state = engine.new_game(4, 1, {"deck": deck, "dealer": W})
    view = engine.view(state, None)
    assert view["trump"] is None and view["swap"] is None and view["stock_count"] == 1
    assert not any(e["type"] == "joker_swap" for e in view["events"])


# --- Bidding ----------------------------------------------------------------------------------------


def test_ba8_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last() -> None:
    state = engine.new_game(4, 2, {"dealer": S})
    order = []
    for b in ("pass", 2, 3, 1):
        (seat,) = engine.to_act(state)
        order.append(seat)
        state = engine.apply(state, seat, {"type": "bid", "bid": b})
    assert order == [W, N, E, S]
    assert engine.view(state, None)["phase"] == "play"


def test_ba8_a_bid_out_of_turn_is_rejected() -> None:
    state = engine.new_game(4, 2, {"dealer": W})
    assert refusal(state, E, {"type": "bid", "bid": 2}) == "It is not your turn."
    assert engine.legal_actions(state, E) == []


def test_ba9_s1_with_13_cards_numbers_1_to_12_and_board_are_allowed() -> None:
    state = engine.new_game(4, 2, {"dealer": W})
    offered = [a["bid"] for a in engine.legal_actions(state, N)]
    assert offered == ["pass", *range(1, 13), "board"]
    for b in offered:
        engine.apply(state, N, {"type": "bid", "bid": b})


def test_ba9_ba_e8_s1_a_bid_of_every_trick_as_a_number_is_rejected() -> None:
    state = engine.new_game(4, 2, {"dealer": W})
    assert refusal(state, N, {"type": "bid", "bid": 13}) == (
        "With 13 cards you may bid at most 12; bid board to claim every trick."
    )


def test_ba9_s1_in_the_one_card_deal_only_pass_or_board() -> None:
    state = engine.new_game(4, 2, {"dealer": W, "first_deal": 13})
    assert [a["bid"] for a in engine.legal_actions(state, N)] == ["pass", "board"]
    assert refusal(state, N, {"type": "bid", "bid": 1}) == "With 1 card you may only pass or bid board."


def test_ba9_zero_and_negative_numbers_are_not_bids() -> None:
    state = engine.new_game(4, 2, {"dealer": W})
    with pytest.raises(IllegalAction, match="Bid 'pass'"):
        engine.apply(state, N, {"type": "bid", "bid": 0})
    with pytest.raises(IllegalAction, match="negative"):
        engine.apply(state, N, {"type": "bid", "bid": -2})


def test_ba9_a_bid_need_not_be_higher_than_earlier_bids() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), 6, 2, 1)
    assert engine.view(state, None)["bids"] == [6, 2, 1, None]


def test_ba9_board_levels_rise_with_each_board_bid() -> None:
    state = engine.new_game(4, 2, {"dealer": W})
    assert engine.view(state, None)["next_board_level"] == 1
    state = bid(state, "board", "board", "board")
    assert engine.view(state, None)["next_board_level"] == 4
    state = bid(state, "board")
    view = engine.view(state, None)
    assert view["bids"] == ["board", "double_board", "triple_board", "quadruple_board"]
    assert view["contracts"] == [{"tricks": 13, "board": 3}, {"tricks": 13, "board": 4}]
    assert view["next_board_level"] is None


def test_ba9_decision_17_a_partner_of_a_board_bidder_may_raise_the_board() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), "board", "pass", "board", "pass")
    assert engine.view(state, None)["contracts"][0] == {"tricks": 13, "board": 2}


def test_ba9_the_level_of_a_board_bid_is_not_chosen_by_the_bidder() -> None:
    state = engine.new_game(4, 2, {"dealer": W})
    with pytest.raises(InvalidAction, match="Bid 'board'"):
        engine.apply(state, N, {"type": "bid", "bid": "double_board"})


def test_ba10_ba_e7_s10_all_pass_redeals_by_the_next_dealer_with_the_same_hand_size() -> None:
    state = engine.new_game(4, 2, {"dealer": W, "first_deal": 13})
    before = state.hands
    state = bid(state, "pass", "pass", "pass", "pass")
    view = engine.view(state, None)
    assert (view["deal_number"], view["cards_per_hand"], view["dealer"]) == (13, 1, N)
    assert view["phase"] == "bid" and view["to_act"] == [E] and view["bids"] == [None] * 4
    assert view["redeals"] == 1 and view["score_sheet"] == []
    types = [e["type"] for e in view["events"]]
    assert types[-7:] == ["bid", "bid", "bid", "bid", "redeal", "deal", "upcard"]
    assert state.hands != before  # a fresh shuffle, not the same cards again


def test_ba5_ba10_after_a_redeal_the_deal_keeps_passing_clockwise() -> None:
    state = engine.new_game(4, 2, {"dealer": W, "first_deal": 13})
    state = bid(state, "pass", "pass", "pass", "pass")  # N redeals deal 13
    state = bid(state, "board", "pass", "pass", "pass")  # E bids first now and leads
    (card,) = hand(state, E)
    state = play(state, card, *(hand(state, s)[0] for s in (S, W, N)))
    view = engine.view(state, None)
    assert (view["deal_number"], view["dealer"]) == (14, E)


def test_ba10_redeals_repeat_until_someone_bids() -> None:
    state = engine.new_game(4, 2, {"dealer": W, "first_deal": 13})
    for k in range(1, 6):
        state = bid(state, "pass", "pass", "pass", "pass")
        assert engine.view(state, None)["redeals"] == k
    assert engine.view(state, None)["deal_number"] == 13


def test_ba11_ba_e6_s3_a_team_contract_is_the_sum_of_numbers_and_a_pass_adds_nothing() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), 4, "pass", 3, 2)
    assert engine.view(state, None)["contracts"] == [{"tricks": 7, "board": 0}, {"tricks": 2, "board": 0}]


def test_ba11_board_makes_the_partners_number_irrelevant() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), 5, "board", "pass", 9)
    assert engine.view(state, None)["contracts"][1] == {"tricks": 13, "board": 1}


def test_ba11_a_numeric_team_total_of_all_tricks_or_more_stays_a_number() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), 7, "pass", 7, "pass")
    assert engine.view(state, None)["contracts"][0] == {"tricks": 14, "board": 0}


def test_contracts_are_shown_only_once_the_bidding_is_complete() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), 7, "pass", 7)
    assert engine.view(state, None)["contracts"] == [None, None]


def test_ba12_s2a_the_highest_number_leads_and_the_earliest_of_equal_bids_wins() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), 3, 5, 5, "pass")
    view = engine.view(state, None)
    assert view["leader"] == E and view["to_act"] == [E]


def test_ba12_s2b_board_beats_numbers_and_the_last_board_bidder_leads() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), "board", "board", 4, "pass")
    view = engine.view(state, None)
    assert view["leader"] == E
    assert view["contracts"] == [{"tricks": 13, "board": 1}, {"tricks": 13, "board": 2}]


def test_ba12_a_single_board_beats_the_highest_number() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), 12, 11, "board", "pass")
    assert engine.view(state, None)["leader"] == S


def test_ba12_earliest_bidder_is_counted_from_the_dealers_left() -> None:
    # Dealer S: W bids first, so W's 4 beats E's later 4.
    state = bid(engine.new_game(4, 2, {"dealer": S}), 4, "pass", 4, "pass")
    assert engine.view(state, None)["leader"] == W


def test_ba_e5_both_teams_may_bid_board() -> None:
    state = bid(engine.new_game(4, 2, {"dealer": W}), "board", "board", "pass", "pass")
    contracts = engine.view(state, None)["contracts"]
    assert contracts[0]["board"] == 1 and contracts[1]["board"] == 2
