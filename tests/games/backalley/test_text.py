"""Every event a view can hold reads as a sentence (text.describe_event)."""

from __future__ import annotations

import os
import random

import pytest

from games.backalley.positions import W
from games.backalley.positions import position as stacked
from games.backalley.rules import engine
from tests.games.backalley.backalley_support import bid, playout, random_policy

NAMES = ["Ann", "Bob", "Cat", "Dan"]


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


def describe(event: dict) -> str:
    from games.backalley.text import describe_event

    return describe_event(event, NAMES)


def test_every_event_of_a_match_reads_as_a_sentence() -> None:
    seen: dict[str, str] = {}
    for state in playout(engine.new_game(4, 12), random_policy, random.Random(12)):
        for seat in (0, None):
            for event in engine.view(state, seat)["events"]:
                text = describe(event)
                assert text and "%(" not in text and text.endswith("."), (event, text)
                seen.setdefault(event["type"], text)
    assert {"deal", "upcard", "bid", "bidding_over", "play", "trick", "deal_scored", "game_end"} <= set(seen)


def test_sentences_name_players_cards_and_scores() -> None:
    assert describe({"type": "play", "seat": 1, "card": "QH"}) == "Bob plays Q\u2665."
    assert describe({"type": "play", "seat": 1, "card": "BB"}) == "Bob plays Big Blooper."
    assert describe({"type": "bid", "seat": 2, "bid": "pass"}) == "Cat passes."
    assert describe({"type": "bid", "seat": 2, "bid": 4}) == "Cat bids 4."
    assert describe({"type": "bid", "seat": 3, "bid": "double_board"}) == "Dan bids double board."
    assert describe({"type": "upcard", "card": "10D", "trump": "D"}) == "The upcard is 10\u2666: diamonds are trump."
    assert describe({"type": "upcard", "card": "LB", "trump": None}) == (
        "The upcard is Little Blooper: there is no trump this hand."
    )
    assert describe({"type": "deal", "seat": 0, "deal_number": 13, "cards": 1}) == (
        "Hand 13 of 25: Ann deals 1 card each."
    )
    assert describe({"type": "trick", "seat": 3, "leader": 0, "cards": []}) == "Dan wins the trick."
    assert describe({"type": "deal_scored", "deal_number": 2, "tricks": [9, 4], "points": [37, -5],
                     "totals": [40, 10]}) == (
        "Hand 2 scored: Ann and Cat +37 (40), Bob and Dan -5 (10)."
    )  # fmt: skip
    assert describe({"type": "game_end", "totals": [10, 30], "winner": 1}) == "Bob and Dan win the game, 30 to 10."
    assert describe({"type": "game_end", "totals": [5, 5], "winner": None}) == ("The game is drawn at 5 points each.")


def test_the_joker_swap_names_the_card_taken_only_for_its_holder() -> None:
    public = {"type": "joker_swap", "seat": W, "card": "BB"}
    assert describe(public) == "Dan discards Big Blooper face up and takes a card from the stock."
    assert describe({**public, "took": "2C"}) == "Dan discards Big Blooper face up and takes 2\u2663 from the stock."


def test_the_redeal_after_four_passes_is_announced() -> None:
    state = bid(stacked(["AS", "KS", "QS", "JS"], "2H", deal=13), "pass", "pass", "pass", "pass")
    events = engine.view(state, None)["events"]
    redeal = next(e for e in events if e["type"] == "redeal")
    assert describe(redeal) == "Everyone passed: the cards are dealt again by the next dealer."
