"""Every game's state JSON is exactly what it was before games.kit.codec: stored matches load, and the
fair-play digests and chains, which hash dumps, are unchanged.

The five hand-written dumps the codec replaced (the four games' and the example game Nim's) are kept here,
verbatim, as the reference. Thousands of states of each game (seeded random play, with options) must dump
to the same JSON, key order and types included, and load back to themselves. The codec's own behaviour
(sets, enums, dict keys, hooks, formats) is tested on small dataclasses below.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from random import Random
from typing import Any

import pytest

from games.backalley import state as ba
from games.backalley.cards import SUITS
from games.backalley.cards import code as card_code
from games.backalley.rules import engine as backalley
from games.dos import state as dos_state
from games.dos.rules import engine as dos
from games.engine import Engine
from games.kit.codec import Hook, Joint, StateCodec, coded, each
from games.reversi import state as rv
from games.reversi.board import board_string
from games.reversi.rules import engine as reversi
from games.tacocat.rules import engine as tacocat
from tests.nim import rules as nim_rules
from tests.nim.rules import engine as nim

# -- the reference: the hand-written dumps as they were (games/<g>/state.py before games.kit.codec) ------


def old_reversi_dump(state: rv.State) -> dict[str, Any]:
    return {
        "format": 2,
        "board": board_string(state.black, state.white),
        "to_move": None if state.to_move is None else rv.COLOURS[state.to_move],
        "seed": state.seed,
        "placements": state.placements,
        "events": [rv.event_json(e) for e in state.events],
    }


def old_backalley_dump(state: ba.State) -> dict[str, Any]:
    return {
        "format": 2,
        "seed": state.seed,
        "deal_number": state.deal_number,
        "dealer": state.dealer,
        "redeals": state.redeals,
        "phase": state.phase,
        "hands": [[card_code(c) for c in hand] for hand in state.hands],
        "stock": [card_code(c) for c in state.stock],
        "upcard": card_code(state.upcard),
        "trump": None if state.trump is None else SUITS[state.trump],
        "swap": None
        if state.swap is None
        else {"seat": state.swap.seat, "joker": card_code(state.swap.joker), "took": card_code(state.swap.took)},
        "bids": [None if b is None else b.label() for b in state.bids],
        "leader": state.leader,
        "trick": [card_code(c) for c in state.trick],
        "tricks_played": [t.json() for t in state.tricks_played],
        "trump_broken": state.trump_broken,
        "last_trick": None if state.last_trick is None else state.last_trick.json(),
        "score_sheet": [row.json() for row in state.score_sheet],
        "events": [e.dump() for e in state.events],
    }


def old_dos_dump(state: dos_state.State) -> dict[str, Any]:
    return {
        "players": state.players,
        "seed": state.seed,
        "target": state.target,
        "round": state.round,
        "dealer": state.dealer,
        "current": state.current,
        "phase": state.phase,
        "hands": [list(hand) for hand in state.hands],
        "draw_pile": list(state.draw_pile),
        "discard": list(state.discard),
        "center": _old_dos_center(state.center),
        "scores": list(state.scores),
        "drawn": state.drawn,
        "drawn_card": state.drawn_card,
        "matches": state.matches,
        "bonus": state.bonus,
        "penalties": state.penalties,
        "reshuffles": state.reshuffles,
        **({"undo": [old_dos_checkpoint(c) for c in state.undo]} if state.undo else {}),
        "history": [
            {"round": r.round, "winner": r.winner, "points": r.points, "hands": [list(h) for h in r.hands]}
            for r in state.history
        ],
        "events": [e.dump() for e in state.events],
        "event_count": state.event_count,
    }


def _old_dos_center(center: tuple[dos_state.CenterCard, ...]) -> list[dict[str, Any]]:
    return [
        {
            "card": cr.card,
            "new": cr.new,
            "declared": cr.declared,
            "played": [[p.card, p.declared] for p in cr.played],
            "kind": cr.kind,
        }
        for cr in center
    ]


def old_dos_checkpoint(checkpoint: dos_state.Checkpoint) -> dict[str, Any]:
    return {
        "step": checkpoint.step,
        "hand": list(checkpoint.hand),
        "center": _old_dos_center(checkpoint.center),
        "matches": checkpoint.matches,
        "bonus": checkpoint.bonus,
        "penalties": checkpoint.penalties,
    }


def old_tacocat_dump(state: Any) -> dict[str, Any]:
    return {
        "format": 2,
        "config": state.config.to_json(),
        "seed": state.seed,
        "round": state.round_no,
        "cat": state.cat,
        "covered": list(state.covered),
        "hands": [list(h) for h in state.hands],
        "draw": list(state.draw),
        "discard": list(state.discard),
        "phase": state.phase,
        "replaced": list(state.replaced),
        "cap": state.cap,
        "commits": [None if c is None else list(c) for c in state.commits],
        "attacker": state.attacker,
        "attack": list(state.attack),
        "revealed": None if state.revealed is None else list(state.revealed),
        "last_round": None if state.last_round is None else _old_outcome(state.last_round),
        "winner": state.winner,
        "events": [e.dump() for e in state.events],
    }


def _old_outcome(outcome: Any) -> dict[str, Any]:
    return {
        "round": outcome.round_no,
        "cards": [str(c) for c in outcome.cards],
        "winner": outcome.winner,
        "tie": outcome.tie,
        "from": outcome.moved_from,
        "to": outcome.moved_to,
        "skipped": list(outcome.skipped),
        "tile": outcome.tile,
    }


def old_nim_dump(state: nim_rules.State) -> dict[str, Any]:
    return {
        "stones": state.stones,
        "to_move": state.to_move,
        "takes": [list(t) for t in state.takes],
        "seed": state.seed,
    }


# -- many states of each game ----------------------------------------------------------------------------

STATES_PER_GAME = 3000


def states(engine: Engine, tables: list[tuple[int, dict[str, Any] | None]], seed: int) -> Iterator[Any]:
    """Every state of seeded random games, table after table, until STATES_PER_GAME of them."""
    count = 0
    game = 0
    while True:
        players, options = tables[game % len(tables)]
        rng = Random(seed + game)
        state = engine.new_game(players, seed + game, options)
        while True:
            yield state
            count += 1
            if count >= STATES_PER_GAME:
                return
            to_act = engine.to_act(state)
            if not to_act:
                break
            seat = rng.choice(to_act)
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        game += 1


GAMES: dict[str, tuple[Engine, Callable[[Any], dict[str, Any]], list[tuple[int, dict[str, Any] | None]]]] = {
    "reversi": (reversi, old_reversi_dump, [(2, None)]),
    "dos": (dos, old_dos_dump, [(2, None), (3, {"target": 60}), (4, None)]),
    "tacocat": (tacocat, old_tacocat_dump, [(2, None), (2, {"tie_rule": "arrow"})]),
    "backalley": (backalley, old_backalley_dump, [(4, None), (4, {"first_deal": 20})]),
    # The example game (tests/nim) too: its dumps are stored like any game's.
    "nim": (nim, old_nim_dump, [(2, None), (2, {"stones": 50}), (2, {"stones": 1})]),
}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_codec_writes_what_the_hand_written_dump_wrote_and_reads_it_back(slug: str) -> None:
    engine, old_dump, tables = GAMES[slug]
    seen = set()
    for state in states(engine, tables, seed=2026):
        new = engine.dump(state)
        old = old_dump(state)
        # Same values, same Python types (a tuple is not a list) and the same bytes, key order included.
        assert new == old
        assert json.dumps(new) == json.dumps(old)
        assert engine.load(json.loads(json.dumps(new))) == state
        seen.update(new)
    # Every key the game dumps was reached (DOS's "undo" only while a step can be taken back).
    assert seen == set(old_dump(state)) | ({"undo"} if slug == "dos" else set())


def test_nims_json_is_pinned_to_the_byte() -> None:
    """The reference above is code; these are the bytes a stored Nim match holds."""
    state = nim.new_game(2, 7, {"stones": 5})
    assert json.dumps(nim.dump(state)) == '{"stones": 5, "to_move": 0, "takes": [], "seed": 7}'
    for take in ("3", "1"):
        state = nim.apply(state, state.to_move, {"type": "take", "count": take})
    assert json.dumps(nim.dump(state)) == '{"stones": 1, "to_move": 0, "takes": [[0, 3], [1, 1]], "seed": 7}'
    assert nim.load(json.loads(json.dumps(nim.dump(state)))) == state


# -- the codec itself, on small dataclasses -------------------------------------------------------------


class Colour(enum.Enum):
    RED = "R"
    BLUE = "B"


@dataclass(frozen=True)
class Inner:
    a: int
    colour: Colour


@dataclass(frozen=True)
class Outer:
    tags: frozenset[str]
    inner: Inner | None
    pairs: tuple[tuple[int, str], ...]
    by_seat: dict[int, int]
    card: int
    lo: int
    hi: int
    extra: tuple[int, ...] = ()


def test_a_dataclass_dumps_by_its_type_hints_and_loads_back() -> None:
    codec = StateCodec(Outer)
    value = Outer(frozenset({"b", "a", "c"}), Inner(1, Colour.BLUE), ((1, "x"), (2, "y")), {3: 1, 1: 0}, 5, 1, 2)
    data = codec.dump(value)
    assert data == {
        "tags": ["a", "b", "c"],
        "inner": {"a": 1, "colour": "B"},
        "pairs": [[1, "x"], [2, "y"]],
        "by_seat": {"1": 0, "3": 1},
        "card": 5,
        "lo": 1,
        "hi": 2,
        "extra": [],
    }
    assert codec.load(json.loads(json.dumps(data))) == value
    assert codec.dump(Outer(frozenset(), None, (), {}, 0, 0, 0))["inner"] is None


def test_hooks_rename_join_omit_and_version_the_json() -> None:
    codec = StateCodec(
        Outer,
        name="Test",
        format=3,
        older={2: lambda data: {**data, "format": 3, "tags": data["labels"]}},
        names={"tags": "labels"},
        fields={"card": coded(("2", "3", "4", "5", "6", "7")), "extra": each(Hook(str, int), sort=True)},
        joint={"span": Joint(("lo", "hi"), lambda lo, hi: f"{lo}-{hi}", lambda s: tuple(map(int, s.split("-"))))},
        omit_default=("extra",),
        order=("span", "labels", "inner", "pairs", "by_seat", "card", "extra"),
    )
    value = Outer(frozenset({"t"}), None, (), {}, 5, 1, 9)
    data = codec.dump(value)
    assert list(data) == ["format", "span", "labels", "inner", "pairs", "by_seat", "card"]
    assert data["span"] == "1-9" and data["card"] == "7"
    assert codec.load(data) == value
    with_extra = Outer(frozenset({"t"}), None, (), {}, 5, 1, 9, (3, 1))
    assert codec.dump(with_extra)["extra"] == ["3", "1"]
    assert codec.load(codec.dump(with_extra)).extra == (1, 3)  # sorted again on load
    assert codec.load({**data, "format": 2, "tags": ["t"]}) == value
    with pytest.raises(ValueError, match="Unknown Test dump format 1"):
        codec.load({**data, "format": 1})


def test_a_codec_refuses_what_it_cannot_write() -> None:
    @dataclass(frozen=True)
    class Mixed:
        value: Inner | Colour

    with pytest.raises(TypeError, match="give the union"):
        StateCodec(Mixed)
    with pytest.raises(TypeError, match="no field"):
        StateCodec(Inner, names={"b": "c"})
    with pytest.raises(TypeError, match="no default"):
        StateCodec(Inner, omit_default=("a",))
