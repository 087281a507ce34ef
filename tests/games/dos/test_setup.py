"""Deck, options and dealing: DOS-1, DOS-4, DOS-5, DOS-6, DOS-S1."""

from __future__ import annotations

from collections import Counter

import pytest

from games.dos.cards import CODES, FULL_DECK, hand_points, points, sort_cards
from games.dos.positions import position
from games.dos.rules import engine
from games.engine import Engine, InvalidAction


def test_engine_satisfies_the_protocol() -> None:
    assert isinstance(engine, Engine)
    assert (engine.slug, engine.name, engine.min_players, engine.max_players) == ("dos", "DOS", 2, 4)


def test_fresh_deck_has_the_first_edition_composition() -> None:
    """DOS-1 / DOS-S1: 108 cards, 88 coloured numbers, 8 Wild #, 12 Wild DOS, no coloured 2."""
    counts = Counter(FULL_DECK)
    assert len(FULL_DECK) == 108
    assert counts["W2"] == 12
    assert sum(counts[c] for c in CODES if c.endswith("#")) == 8
    assert sum(n for c, n in counts.items() if c != "W2" and not c.endswith("#")) == 88
    for colour in "RGBY":
        assert sum(n for c, n in counts.items() if c.startswith(colour)) == 24
        assert f"{colour}2" not in counts
        for rank in (1, 3, 4, 5):
            assert counts[f"{colour}{rank}"] == 3
        for rank in (6, 7, 8, 9, 10):
            assert counts[f"{colour}{rank}"] == 2
        assert counts[f"{colour}#"] == 2


def test_card_points_are_face_value_and_twenty_and_forty() -> None:
    """DOS-17 / DOS-E12: numbers at face value, Wild DOS 20, Wild # 40."""
    assert points("R1") == 1
    assert points("Y10") == 10
    assert points("W2") == 20
    assert points("G#") == 40
    assert hand_points(["R3", "W2", "B10"]) == 33


def test_hands_are_sorted_by_colour_then_number_with_wilds_last() -> None:
    assert sort_cards(["W2", "Y1", "R10", "R3", "G#", "R#"]) == ("R3", "R10", "R#", "G#", "Y1", "W2")


def _stacked() -> list[str]:
    """A full permutation whose first card goes to the first player: a Wild #, so no forced draw."""
    deck = list(FULL_DECK)
    deck.remove("R#")
    return ["R#", *reversed(deck)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_full_deck_is_dealt_one_at_a_time_from_the_dealers_left(players: int) -> None:
    """DOS-5: 7 each, one card per seat per pass starting left of the dealer; 2 CR cards; rest face down."""
    dealer = players - 1
    deck = _stacked()
    state = engine.new_game(players, 5, {"deck": deck, "dealer": dealer})
    for seat in range(players):
        offset = (seat - dealer - 1) % players
        assert state.hands[seat] == sort_cards(deck[offset : 7 * players : players])
    dealt = 7 * players
    assert [cr.card for cr in state.center] == deck[dealt : dealt + 2]
    assert list(state.draw_pile) == deck[dealt + 2 :]
    view = engine.view(state, None)
    assert view["hand_counts"] == [7] * players
    assert view["draw_count"] == 108 - dealt - 2
    assert view["discard_count"] == 0


def test_a_deck_prefix_is_followed_by_the_other_cards_in_a_seeded_shuffle() -> None:
    prefix = ["R#", "W2", "W2", "B9", "G1", "Y7"]
    one = engine.new_game(2, 11, {"deck": prefix, "dealer": 1})
    again = engine.new_game(2, 11, {"deck": prefix, "dealer": 1})
    other_seed = engine.new_game(2, 12, {"deck": prefix, "dealer": 1})
    assert one == again
    assert Counter(one.hands[0]) >= Counter(["R#", "W2", "G1"])
    assert Counter(one.hands[1]) >= Counter(["W2", "B9", "Y7"])
    assert one.draw_pile != other_seed.draw_pile
    everything = [*one.hands[0], *one.hands[1], *(cr.card for cr in one.center), *one.draw_pile]
    assert Counter(everything) == Counter(FULL_DECK)


def test_first_dealer_is_random_from_the_seed_and_the_player_on_the_left_starts() -> None:
    """DOS-4 (random first dealer, decided by the seed) and DOS-6 (left of the dealer starts)."""
    dealers = Counter()
    for seed in range(120):
        state = engine.new_game(3, seed)
        assert engine.new_game(3, seed).dealer == state.dealer
        dealers[state.dealer] += 1
        assert engine.view(state, None)["current"] == (state.dealer + 1) % 3
    assert set(dealers) == {0, 1, 2}
    assert min(dealers.values()) > 20


def test_dealer_option_chooses_the_first_dealer() -> None:
    state = engine.new_game(4, 3, {"dealer": 2, "deck": ["R#"]})
    assert state.dealer == 2
    assert state.current == 3


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, None, "DOS is played by 2 to 4 players."),
        (5, None, "DOS is played by 2 to 4 players."),
        (2, {"jokers": True}, "Unknown option 'jokers'."),
        (2, {"deck": "R1 R3"}, "The deck option must be a list of card codes."),
        (2, {"deck": ["R2"]}, "'R2' is not a DOS card code."),
        (2, {"deck": ["W2"] * 13}, "The deck has 12 W2, the deck option lists 13."),
        (2, {"deck": ["R#"] * 3}, "The deck has 2 R#, the deck option lists 3."),
        (3, {"dealer": 3}, "The dealer must be a seat from 0 to 2."),
        (3, {"dealer": True}, "The dealer must be a seat from 0 to 2."),
        (2, {"target": 0}, "The target score must be a whole number from 1 to 10000."),
        (2, [], "Options must be an object."),
    ],
)
def test_bad_options_are_rejected_with_a_clear_message(players: int, options: object, message: str) -> None:
    with pytest.raises(InvalidAction) as raised:
        engine.new_game(players, 1, options)  # type: ignore[arg-type]
    assert raised.value.message == message


def test_target_option_changes_the_score_that_ends_the_game() -> None:
    state = engine.new_game(2, 1, {"target": 50})
    assert engine.view(state, 0)["target"] == 50
    assert engine.view(engine.new_game(2, 1), 0)["target"] == 200


def test_a_position_must_be_made_of_the_deck() -> None:
    with pytest.raises(InvalidAction, match="more copies of a card than the deck has"):
        position(hands=[["R#", "R#"], ["R#"]], center=["R7", "B9"])
    with pytest.raises(InvalidAction, match="2 to 4 hands"):
        position(hands=[["R1"]], center=["R7", "B9"])
