"""Match options: the configurable deck and board (decision register #1, #2), tie_rule, deck stacking."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import InvalidAction
from games.tacocat.cards import DEFAULT_CONFIG, PLACEHOLDER_ARROWS, PLACEHOLDER_HAND_SIZES
from games.tacocat.rules import engine

Options = Callable[..., dict[str, Any]]


def invalid(options: Any, message: str, players: int = 2) -> None:
    with pytest.raises(InvalidAction, match=re.escape(message)):
        engine.new_game(players, 0, options)


def test_the_engine_is_tacocat_for_exactly_two_players() -> None:
    assert (engine.slug, engine.name) == ("tacocat", "Tacocat Spelled Backwards")
    assert engine.min_players == engine.max_players == 2
    invalid(None, "exactly 2 players", players=3)
    invalid(None, "exactly 2 players", players=1)


def test_defaults_are_the_placeholders_and_the_seed_tie_rule() -> None:
    state = engine.new_game(2, 0)
    assert state.config == DEFAULT_CONFIG
    assert state.config.hand_sizes == PLACEHOLDER_HAND_SIZES == (4, 5, 6, 7, 6, 5, 4)
    assert state.config.arrows == PLACEHOLDER_ARROWS
    assert state.config.tie_rule == "stay"


def test_unknown_options_and_non_objects_are_refused() -> None:
    invalid({"colour": "red"}, "Unknown option(s): colour.")
    invalid(["deck"], "Options must be an object.")


def test_distribution_must_hold_38_cards_of_values_1_to_12(options: Options) -> None:
    invalid(options(distribution={str(v): 3 for v in range(1, 13)}), "has 36 cards; the deck has exactly 38")
    invalid(options(distribution={"13": 38}), "names '13', but card values are 1 to 12")
    invalid(options(distribution={"1": -1, "2": 39}), "gives value 1 -1 copies")
    invalid(options(distribution={"1": 2.5}), "gives value 1 2.5 copies")
    invalid(options(distribution=[3] * 12), "must be an object")


def test_distribution_accepts_int_keys_and_missing_values_mean_none(options: Options) -> None:
    state = engine.new_game(2, 0, options(distribution={1: 19, "12": 19}))
    assert sorted({*state.hands[0], *state.hands[1], *state.draw}) == [1, 12]


def test_board_needs_seven_spaces_with_hand_sizes_2_to_9_and_arrows(options: Options) -> None:
    board = options()["board"]
    invalid(options(board=board[:6]), "The board must list the 7 spaces")
    for bad, message in [
        ({"hand_size": 10, "arrow": "A"}, "Space -3 has hand size 10; it must be 2 to 9"),
        ({"hand_size": 1, "arrow": "A"}, "Space -3 has hand size 1; it must be 2 to 9"),
        ({"hand_size": 5, "arrow": "up"}, "Space -3 has arrow 'up'; use 'A', 'B' or 'both'"),
        ({"hand_size": 5}, "Space -3 must be an object with exactly 'hand_size' and 'arrow'"),
    ]:
        invalid(options(board=[bad, *board[1:]]), message)


def test_board_may_not_contradict_the_known_centre(options: Options) -> None:
    board = options()["board"]
    for centre in ({"hand_size": 6, "arrow": "both"}, {"hand_size": 7, "arrow": "A"}):
        invalid(options(board=[*board[:3], centre, *board[4:]]), "The centre space is known")


def test_tie_rule_is_stay_or_arrow(options: Options) -> None:
    assert engine.new_game(2, 0, options(tie_rule="arrow")).config.tie_rule == "arrow"
    invalid(options(tie_rule="coin"), "tie_rule must be 'stay' or 'arrow', not 'coin'.")


def test_deck_option_is_validated_against_the_configured_deck(options: Options) -> None:
    invalid(options(deck=["13"]), "must be a card code, the string '1' to '12', not '13'")
    invalid(options(deck=[7]), "not 7")
    invalid(options(deck="7 7"), "'deck' must be a list of card codes")
    invalid(options(deck=["2"] * 4), "The deck option has 4 cards of value 2, but the deck holds 3.")
    state = engine.new_game(2, 0, options(deck=["12"] * 4))
    assert state.hands[0].count(12) == 2 and state.hands[1].count(12) == 2


def test_options_survive_a_dump_and_load(options: Options) -> None:
    state = engine.new_game(2, 3, options(tie_rule="arrow"))
    assert engine.load(engine.dump(state)).config == state.config
