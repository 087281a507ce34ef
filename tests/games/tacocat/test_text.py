"""describe_event gives a sentence for every event type the engine emits."""

from __future__ import annotations

import random

import pytest

django = pytest.importorskip("django")

from django.conf import settings  # noqa: E402

if not settings.configured:
    # Run without pytest-django (-p no:django): gettext needs settings, and no translation is active.
    settings.configure(USE_I18N=False)

from games.tacocat.rules import engine  # noqa: E402
from games.tacocat.text import describe_event  # noqa: E402

NAMES = ["Alice", "Bob"]


def all_events() -> list[dict]:
    seen: dict[tuple, dict] = {}
    for seed in range(40):
        rng = random.Random(seed)
        state = engine.new_game(2, seed, {"tie_rule": "arrow" if seed % 2 else "stay"})
        while not state.over:
            for viewer in (0, 1, None):
                for e in engine.view(state, viewer)["events"]:
                    key = (
                        e["type"],
                        e.get("step"),
                        e.get("kind"),
                        e.get("forced"),
                        "drawn" in e,
                        e.get("winner") is None,
                        e.get("tie"),
                        bool(e.get("skipped")),
                        e.get("count") == 0,
                    )
                    seen.setdefault(key, e)
            seat = rng.choice(engine.to_act(state))
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        for e in engine.view(state, 0)["events"]:
            seen.setdefault((e["type"], "end"), e)
    return list(seen.values())


def test_every_event_type_has_a_sentence_naming_the_players() -> None:
    events = all_events()
    kinds = {e["type"] for e in events}
    assert kinds == {
        "round_start",
        "replace",
        "commit",
        "reveal",
        "attack",
        "defend",
        "sacrifice",
        "exchange",
        "showdown",
        "cat_move",
        "tile",
        "win",
    }
    for event in events:
        sentence = describe_event(event, NAMES)
        assert sentence.endswith((".", "!")) and "%(" not in sentence, (event, sentence)
        if "seat" in event:
            assert NAMES[event["seat"]] in sentence, (event, sentence)


def test_sentences_say_exactly_what_happened() -> None:
    assert (
        describe_event({"type": "attack", "seat": 0, "cards": ["4", "5", "6"], "kind": "sequence"}, NAMES)
        == "Alice makes a jumbo attack with a sequence: 4, 5, 6."
    )
    assert (
        describe_event(
            {"type": "replace", "seat": 1, "count": 2, "discarded": ["3", "9"], "forced": False, "drawn": ["1", "12"]},
            NAMES,
        )
        == "Bob replaces 2 cards: discards 3, 9, draws 1, 12."
    )
    assert (
        describe_event({"type": "cat_move", "seat": 0, "from": 1, "to": -4, "skipped": [0]}, NAMES)
        == "The cat runs from C (+1) to the WOW goal for Alice, skipping covered spaces."
    )
    assert describe_event({"type": "commit", "seat": 1, "step": "duel"}, NAMES) == "Bob has chosen a duel card."
