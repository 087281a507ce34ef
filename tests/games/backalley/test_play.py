"""Trick play: the lead restriction, following, Blooper leads and winning (BA-13..BA-16), the
refusal messages and the view's ``unplayable`` reasons."""

from __future__ import annotations

import pytest

from games.backalley.cards import parse
from games.backalley.positions import E, N, S, W
from games.backalley.positions import position as stacked
from games.backalley.rules import engine
from games.backalley.state import State
from games.engine import InvalidAction
from tests.games.backalley.backalley_support import bid, legal_cards, play, refusal

TRUMP_NOT_BROKEN = "Trump may not be led yet: no trump has been played in an earlier trick of this deal."


def _play(card: str) -> dict[str, str]:
    return {"type": "play", "card": card}


def n_leads_two_cards(n: str, upcard: str = "5S", **others: str) -> State:
    """A 2-card deal (trump from ``upcard``) where N bid 1 and everyone else passed, so N leads."""
    hands = [n, others.get("e", "2H 3H"), others.get("s", "2D 3D"), others.get("w", "2C 3C")]
    return bid(stacked(hands, upcard, deal=12), 1, "pass", "pass", "pass")


# --- BA-13: leading trump ---------------------------------------------------------------------------


def test_ba13_s5_trump_may_not_be_led_on_the_first_trick() -> None:
    state = n_leads_two_cards("AS KH")
    assert refusal(state, N, _play("AS")) == TRUMP_NOT_BROKEN
    assert legal_cards(state, N) == ["KH"]
    assert engine.view(state, N)["unplayable"] == {"AS": TRUMP_NOT_BROKEN}
    engine.apply(state, N, _play("KH"))


def test_ba13_a_joker_counts_as_a_trump_for_the_lead_restriction() -> None:
    state = n_leads_two_cards("LB KH")
    assert refusal(state, N, _play("LB")) == TRUMP_NOT_BROKEN


def test_ba13_ba_e3_s5_a_hand_of_only_trumps_may_lead_trump() -> None:
    state = n_leads_two_cards("AS 3S")
    assert legal_cards(state, N) == ["AS", "3S"]
    engine.apply(state, N, _play("AS"))


def test_ba13_a_hand_of_only_trumps_and_jokers_may_lead_a_joker() -> None:
    state = n_leads_two_cards("BB 3S")
    assert legal_cards(state, N) == ["BB", "3S"]
    assert engine.view(state, N)["unplayable"] == {}
    after = engine.apply(state, N, _play("BB"))
    assert after.trick == (parse("BB"),)


def test_ba13_the_board_bidder_may_lead_trump_at_once() -> None:
    state = bid(stacked(["AS KH", "2H 3H", "2D 3D", "2C 3C"], "5S", deal=12), "board", "pass", "pass", "pass")
    assert legal_cards(state, N) == ["AS", "KH"]


def test_ba13_ba_e4_the_partner_of_a_board_bidder_may_lead_trump() -> None:
    # N bids board, S (N's partner) is the leader of the second trick after winning the first.
    hands = ["4H 5D", "2H 3C", "AH 6S", "3H 4C"]
    state = bid(stacked(hands, "9S", deal=12), "board", "pass", "pass", "pass")
    state = play(state, "4H", "2H", "AH", "3H")  # S wins with AH; no trump played
    view = engine.view(state, S)
    assert view["leader"] == S and view["trump_broken"] is False
    assert legal_cards(state, S) == ["6S"]  # the only card left, but a trump: allowed by the team rule
    engine.apply(state, S, _play("6S"))


def test_ba13_opponents_of_a_board_team_are_still_restricted() -> None:
    hands = ["4H 5D 9H", "AH 6S 7C", "2H 3C 8C", "3H 7D 9D"]
    state = bid(stacked(hands, "9S", deal=11), "board", "pass", "pass", "pass")
    state = play(state, "4H", "AH", "2H", "3H")  # E wins the first trick and leads
    assert legal_cards(state, E) == ["7C"]
    assert refusal(state, E, _play("6S")) == TRUMP_NOT_BROKEN


def test_ba13_s6_a_trump_played_in_a_trick_breaks_trump_for_every_later_leader() -> None:
    hands = ["AH 4S 5C", "KH 6C 7C", "2S 3S 4D", "QH 8C 9C"]
    state = bid(stacked(hands, "9S", deal=11), 1, "pass", "pass", "pass")
    assert refusal(state, N, _play("4S")) == TRUMP_NOT_BROKEN
    state = play(state, "AH", "KH")
    assert legal_cards(state, S) == ["3S", "2S", "4D"]  # void in hearts: anything, trump included
    state = play(state, "2S")
    assert engine.view(state, None)["trump_broken"] is False  # only a finished trick counts
    state = play(state, "QH")
    view = engine.view(state, S)
    assert view["last_trick"]["winner"] == S and view["trump_broken"] is True
    assert legal_cards(state, S) == ["3S", "4D"]
    engine.apply(state, S, _play("3S"))


def test_ba13_trump_broken_resets_with_a_new_deal() -> None:
    hands = ["AH", "KH", "2S", "QH"]
    state = bid(stacked(hands, "9S", deal=13), "board", "pass", "pass", "pass")
    state = play(state, "AH", "KH", "2S", "QH")
    view = engine.view(state, None)
    assert view["deal_number"] == 14 and view["trump_broken"] is False


# --- BA-14: following -------------------------------------------------------------------------------


def test_ba14_ba_e11_s9_a_plain_suit_lead_must_be_followed_and_a_joker_is_not_that_suit() -> None:
    state = play(n_leads_two_cards("2H 4C", e="9H BB"), "2H")
    reason = "You must follow suit: hearts were led."
    assert legal_cards(state, E) == ["9H"]
    assert engine.view(state, E)["unplayable"] == {"BB": reason}
    assert refusal(state, E, _play("BB")) == reason


def test_ba14_a_player_void_in_the_led_suit_may_play_anything() -> None:
    state = play(n_leads_two_cards("2H 4C", e="BB 4D"), "2H")
    assert legal_cards(state, E) == ["BB", "4D"]


def test_ba14_s9_a_trump_lead_must_be_followed_by_a_trump_and_a_joker_is_one() -> None:
    state = play(n_leads_two_cards("6S 7S", e="LB 9H"), "6S")
    reason = "A trump was led: you must play a trump."
    assert legal_cards(state, E) == ["LB"]
    assert refusal(state, E, _play("9H")) == reason
    assert engine.view(state, E)["unplayable"] == {"9H": reason}


def test_ba14_any_trump_may_follow_a_trump_lead() -> None:
    state = play(n_leads_two_cards("6S 7S", e="AS 2S"), "6S")
    assert legal_cards(state, E) == ["AS", "2S"]


# --- BA-15: Blooper leads ---------------------------------------------------------------------------


def _n_wins_first_trick_by_ruffing(n: str, e: str, s: str, w: str) -> State:
    """A 4-card deal, trump diamonds: E leads 6H, S and W follow, N ruffs with 5D and wins, so trump is
    broken and N leads the second trick (section 3.9, S7 preamble)."""
    hands = [f"5D {n}", f"6H {e}", f"7H {s}", f"9H {w}"]
    state = bid(stacked(hands, "7D", deal=10), "pass", 1, "pass", "pass")
    state = play(state, "6H", "7H", "9H", "5D")
    view = engine.view(state, N)
    assert view["leader"] == N and view["trump_broken"] is True
    return state


def test_ba15_ba_e9_s7a_big_blooper_lead_forces_every_highest_trump_including_little_blooper() -> None:
    state = _n_wins_first_trick_by_ruffing("BB 9S 10S", "LB 3D KC", "AD 4D 8H", "2C 5H 3C")
    state = play(state, "BB")
    assert legal_cards(state, E) == ["LB"]
    assert refusal(state, E, _play("3D")) == "Big Blooper was led: you must play your highest trump, Little Blooper."
    state = play(state, "LB")
    assert legal_cards(state, S) == ["AD"]  # partners too
    assert engine.view(state, S)["unplayable"] == {
        "4D": "Big Blooper was led: you must play your highest trump, A\u2666.",
        "8H": "Big Blooper was led: you must play your highest trump, A\u2666.",
    }
    state = play(state, "AD")
    assert sorted(legal_cards(state, W)) == ["2C", "3C", "5H"]  # no trump: any card
    state = play(state, "2C")
    assert engine.view(state, None)["last_trick"]["winner"] == N


def test_ba15_ba_e10_s7b_little_blooper_lead_forces_lowest_trumps_and_a_lone_big_blooper() -> None:
    state = _n_wins_first_trick_by_ruffing("LB 9S 10S", "3D QD KC", "BB 4H 8H", "2C 5H 3C")
    state = play(state, "LB")
    assert legal_cards(state, E) == ["3D"]
    assert refusal(state, E, _play("QD")) == "Little Blooper was led: you must play your lowest trump, 3\u2666."
    state = play(state, "3D")
    assert legal_cards(state, S) == ["BB"]
    state = play(state, "BB")
    assert len(legal_cards(state, W)) == 3  # no trump: any card
    state = play(state, "5H")
    assert engine.view(state, None)["last_trick"]["winner"] == S


# --- BA-16: winning a trick -------------------------------------------------------------------------


def _trick_winner(hands: list[str], upcard: str, cards: list[str]) -> int:
    state = bid(stacked(hands, upcard, deal=13), "board", "pass", "pass", "pass")
    state = play(state, *cards)
    return engine.view(state, None)["last_trick"]["winner"]


def test_ba16_the_highest_card_of_the_led_suit_wins_without_trumps() -> None:
    assert _trick_winner(["5H", "KH", "AC", "9H"], "2S", ["5H", "KH", "AC", "9H"]) == E


def test_ba16_any_trump_beats_the_led_suit() -> None:
    assert _trick_winner(["AH", "KH", "2S", "QH"], "9S", ["AH", "KH", "2S", "QH"]) == S


def test_ba16_the_highest_trump_wins_and_bloopers_top_the_ace() -> None:
    assert _trick_winner(["4H", "AS", "LB", "BB"], "9S", ["4H", "AS", "LB", "BB"]) == W
    assert _trick_winner(["4H", "AS", "LB", "2H"], "9S", ["4H", "AS", "LB", "2H"]) == S


def test_ba16_in_a_no_trump_deal_only_the_led_suit_wins() -> None:
    # Upcard BB, LB in the stock: no trump, so the ace of spades played on a heart lead does not win.
    assert _trick_winner(["5H", "AS", "6H", "2H"], "BB", ["5H", "AS", "6H", "2H"]) == S


def test_ba16_the_trick_winner_leads_next() -> None:
    hands = ["5H 2C", "KH 3C", "AC 4C", "9H 5C"]
    state = bid(stacked(hands, "2S", deal=12), "board", "pass", "pass", "pass")
    state = play(state, "5H", "KH", "AC", "9H")
    assert engine.to_act(state) == [E]


# --- Refusals in general ----------------------------------------------------------------------------


def test_a_card_not_in_hand_is_refused() -> None:
    state = n_leads_two_cards("AS KH")
    assert refusal(state, N, _play("QD")) == "You do not hold Q\u2666."


def test_playing_out_of_turn_is_refused_before_anything_else() -> None:
    state = n_leads_two_cards("AS KH")
    assert refusal(state, E, _play("2H")) == "It is not your turn."
    assert engine.legal_actions(state, E) == []


def test_playing_during_the_bidding_and_bidding_during_play_are_refused() -> None:
    state = stacked(["AS KH", "2H 3H", "2D 3D", "2C 3C"], "5S", deal=12)
    assert refusal(state, N, _play("KH")) == "Cards are played after the bidding: make your bid first."
    state = bid(state, 1, "pass", "pass", "pass")
    assert refusal(state, N, {"type": "bid", "bid": 1}) == "The bidding is over: play a card."


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("play QH", "An action must be an object"),
        ({}, "Unknown action type None"),
        ({"type": "discard", "card": "BB"}, "happen by themselves"),
        ({"type": "lead", "card": "AS"}, "Unknown action type 'lead'"),
        ({"type": "play"}, "needs a 'card'"),
        ({"type": "play", "card": "qh"}, "'qh' is not a card code"),
        ({"type": "play", "card": 12}, "12 is not a card code"),
        ({"type": "play", "card": "KH", "seat": 0}, "Unexpected field"),
        ({"type": "bid"}, "needs a 'bid'"),
        ({"type": "bid", "bid": "3"}, "'3' is not a bid"),
        ({"type": "bid", "bid": True}, "True is not a bid"),
        ({"type": "bid", "bid": 2.0}, "2.0 is not a bid"),
    ],
)
def test_malformed_actions_are_invalid(action: object, message: str) -> None:
    state = n_leads_two_cards("AS KH")
    with pytest.raises(InvalidAction, match=message):
        engine.apply(state, N, action)  # type: ignore[arg-type]


def test_an_unknown_seat_is_invalid() -> None:
    state = n_leads_two_cards("AS KH")
    with pytest.raises(InvalidAction, match="There is no seat 4"):
        engine.apply(state, 4, _play("KH"))
    # The same refusal from every method (games.kit.seats): False is not seat 0.
    for seat in (4, -1, False, "0"):
        with pytest.raises(InvalidAction, match="There is no seat"):
            engine.legal_actions(state, seat)  # type: ignore[arg-type]
        with pytest.raises(InvalidAction, match="There is no seat"):
            engine.apply(state, seat, _play("KH"))  # type: ignore[arg-type]


def test_unplayable_is_only_filled_for_the_seat_to_play() -> None:
    state = n_leads_two_cards("AS KH")
    assert engine.view(state, N)["unplayable"] == {"AS": TRUMP_NOT_BROKEN}
    assert engine.view(state, E)["unplayable"] == {}
    assert engine.view(state, None)["unplayable"] == {}


def test_legal_actions_list_the_hand_in_display_order() -> None:
    state = bid(stacked(["AS KH", "2H 3H", "2D 3D", "2C 3C"], "5H", deal=12), "board", "pass", "pass", "pass")
    assert legal_cards(state, N) == ["KH", "AS"]  # trump hearts first
    assert engine.view(state, N)["hand"] == ["KH", "AS"]
