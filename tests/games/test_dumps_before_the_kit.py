"""Matches stored before games.kit (one event type for every game) still load: each engine reads the
event shape it dumped before, so a match in play survives the upgrade unchanged."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from games.backalley.rules import engine as backalley
from games.dos.rules import engine as dos
from games.engine import Engine
from games.tacocat.rules import engine as tacocat


def played(engine: Engine, players: int, seed: int, steps: int) -> Any:
    """A state with secret-carrying events in its log (draws, deals, joker swaps)."""
    rng = Random(seed)
    state = engine.new_game(players, seed)
    for _ in range(steps):
        seat = rng.choice(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


def test_dos_reads_events_with_their_type_among_the_public_fields() -> None:
    state = played(dos, 3, 7, 40)
    dumped = dos.dump(state)
    assert any(e["owner"] is not None for e in dumped["events"])
    old = {
        **dumped,
        "events": [
            {"data": {"type": e["type"], **e["public"]}, "owner": e["owner"], "secret": e["secret"]}
            for e in dumped["events"]
        ],
    }
    assert dos.load(old) == state


def test_tacocat_reads_format_1_which_named_the_public_fields_data() -> None:
    state = played(tacocat, 2, 7, 30)
    dumped = tacocat.dump(state)
    old = {
        **dumped,
        "format": 1,
        "events": [
            {"type": e["type"], "data": e["public"], "owner": e["owner"], "secret": e["secret"]}
            for e in dumped["events"]
        ],
    }
    assert tacocat.load(old) == state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_backalley_reads_format_1_which_dumped_fields_as_pairs(seed: int) -> None:
    state = played(backalley, 4, seed, 20)
    dumped = backalley.dump(state)
    old = {
        **dumped,
        "format": 1,
        "events": [
            {
                "type": e["type"],
                "public": [[k, v] for k, v in e["public"].items()],
                "owner": e["owner"],
                "secret": [[k, v] for k, v in e["secret"].items()],
            }
            for e in dumped["events"]
        ],
    }
    assert backalley.load(old) == state
