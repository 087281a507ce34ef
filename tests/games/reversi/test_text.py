"""Event sentences (games/reversi/text.py), checked against events the engine really produces."""

from __future__ import annotations

import pytest
from django.conf import settings

from games.reversi.rules import engine
from games.reversi.text import describe_event

if not settings.configured:  # running with -p no:django: translation off, English source strings
    settings.configure(USE_I18N=False)

NAMES = ["Alice", "Bob"]


def test_a_placement_names_the_player_the_square_and_the_flips() -> None:
    state = engine.apply(engine.new_game(2, 0), 0, {"type": "place", "square": "f5"})
    (event,) = engine.view(state, None)["events"]
    assert describe_event(event, NAMES) == "Alice played f5 and flipped 1 disc."
    event = {"type": "place", "seat": 1, "square": "d6", "flipped": ["d5", "e5"]}
    assert describe_event(event, NAMES) == "Bob played d6 and flipped 2 discs."


def test_a_forced_pass_names_the_player_who_passes() -> None:
    state = engine.new_game(2, 0, {"board": "BW" + "." * 62, "to_move": "W"})
    (event,) = engine.view(state, None)["events"]
    assert describe_event(event, NAMES) == "Bob has no move and passes."


def test_the_end_line_names_the_winner_with_the_raw_counts() -> None:
    state = engine.apply(engine.new_game(2, 0, {"board": "BW" + "." * 62}), 0, {"type": "place", "square": "c1"})
    event = engine.view(state, None)["events"][-1]
    assert describe_event(event, NAMES) == "Game over: Alice wins 3 to 0."
    assert describe_event({"type": "end", "counts": {"B": 20, "W": 40}}, NAMES) == "Game over: Bob wins 40 to 20."
    assert describe_event({"type": "end", "counts": {"B": 32, "W": 32}}, NAMES) == "Game over: a draw, 32 discs each."


def test_an_unknown_event_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="Unknown Reversi event type 'resign'"):
        describe_event({"type": "resign", "seat": 0}, NAMES)
