"""Every event a DOS view can hold reads as a sentence (text.describe_event)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from games.dos.positions import position
from games.dos.rules import engine
from tests.games.dos.dos_support import Q, V, act, bot_policy, match, playout, random_policy

NAMES = ["Ann", "Bea", "Cal", "Dov"]


@pytest.fixture(scope="module", autouse=True)
def _django_translation() -> None:
    """gettext needs settings; without the Django plugin, plain untranslated settings will do."""
    import django
    from django.apps import apps
    from django.conf import settings

    if not settings.configured and not os.environ.get("DJANGO_SETTINGS_MODULE"):
        settings.configure(USE_I18N=False)
    if settings.USE_I18N and not apps.ready:
        django.setup()


def describe(event: dict[str, Any]) -> str:
    from games.dos.text import describe_event

    return describe_event(event, NAMES)


def test_every_event_of_whole_games_reads_as_a_sentence() -> None:
    seen: set[str] = set()
    for players, seed, policy in [(4, 1, random_policy), (3, 2, bot_policy), (2, 3, random_policy)]:
        for _before, seat, _action, after in playout(players, seed, policy):
            for viewer in (seat, None):
                for event in engine.view(after, viewer)["events"]:
                    text = describe(event)
                    assert text.endswith(".")
                    assert "%(" not in text
                    assert text != event["type"]
                    seen.add(event["type"])
    assert seen >= {"deal", "match", "draw", "place", "bonus", "refill", "round_end", "game_end"}


def test_a_double_colour_match_says_everyone_else_draws() -> None:
    state = act(position(hands=[["B4", "B5", "G10"], Q, V], center=["R7", "B9"]), match(1, "B4", "B5"))
    event = [e for e in engine.view(state, None)["events"] if e["type"] == "match"][-1]
    assert describe(event) == "Ann matched blue 4 + blue 5 on blue 9: double colour match, everyone else draws 1."


def test_declared_wilds_are_named_with_their_declaration() -> None:
    state = act(
        position(hands=[["R#", "W2", "G3"], Q, V], center=["G#", "B9"]),
        match(0, "R#", "W2", declare=[5, "G"], target_declare=7),
    )
    event = [e for e in engine.view(state, None)["events"] if e["type"] == "match"][-1]
    assert describe(event) == "Ann matched red Wild # as 5 + Wild DOS as green on green Wild # as 7."


@pytest.mark.parametrize(
    ("event", "text"),
    [
        ({"type": "draw", "seat": 1}, "Bea drew a card."),
        ({"type": "draw", "seat": 1, "card": "Y8"}, "Bea drew yellow 8."),
        ({"type": "no_draw", "seat": 2}, "Cal could not draw: the draw and discard piles are empty."),
        (
            {"type": "place", "seat": 0, "card": "Y10"},
            "Ann made no match after drawing and put yellow 10 in the Center Row.",
        ),
        (
            {"type": "bonus", "seat": 0, "card": "G3", "left": 0},
            "Ann put green 3 in the Center Row as a colour-match bonus.",
        ),
        ({"type": "skip_bonus", "seat": 0, "count": 2}, "Ann skipped 2 bonus placements."),
        ({"type": "refill", "cards": ["R1", "B3"]}, "The Center Row was refilled with red 1, blue 3."),
        (
            {"type": "reshuffle", "count": 40},
            "The discard pile (40 cards) was shuffled into a new draw pile.",
        ),
        (
            {"type": "penalty_draw", "seat": 2, "by": 0, "count": 1, "owed": 1},
            "Cal drew 1 penalty card for Ann's double colour match.",
        ),
        (
            {"type": "penalty_draw", "seat": 2, "by": 0, "count": 2, "owed": 2, "cards": ["G6", "W2"]},
            "Cal drew 2 penalty cards for Ann's double colour matches: green 6, Wild DOS.",
        ),
        (
            {"type": "penalty_draw", "seat": 2, "by": 0, "count": 0, "owed": 1},
            "Cal owed 1 penalty card but could draw only 0: the piles are empty.",
        ),
        (
            {"type": "round_end", "round": 3, "winner": 1, "points": 74, "scores": [0, 74]},
            "Bea went out and scored 74 points in round 3.",
        ),
        (
            {"type": "game_end", "winner": 1, "scores": [10, 250], "rounds": 4},
            "Bea reached 250 points and won the game.",
        ),
        (
            {"type": "deal", "round": 2, "dealer": 3, "center": ["R7", "B9"]},
            "Round 2: Dov dealt; the Center Row shows red 7, blue 9.",
        ),
    ],
)
def test_each_event_type_has_its_sentence(event: dict[str, Any], text: str) -> None:
    assert describe(event) == text
