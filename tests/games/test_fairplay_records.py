"""Match records checked without the database: the documented encodings, and malformed records.

A record built here from the engine alone, with its commitment and chain computed by the encodings
written in docs/fair-play.md (not by games.record.fairplay), verifies; any damage to what the check covers is a
problem, and no record, however malformed, makes the check raise.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import random
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import registry
from games.dos.rules import engine as dos
from games.record import fairplay

SALT = "0123456789abcdef0123456789abcdef"
SEED = 2**61 + 99


def documented_hash(value: Any) -> str:
    """SHA-256 of canonical JSON as docs/fair-play.md defines it."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build_record() -> dict[str, Any]:
    options = {"target": 30}
    commitment = documented_hash(
        {
            "commitment": "turnwise-commitment/2",
            "game": "dos",
            "players": 2,
            "options": options,
            "seed": str(SEED),
            "salt": SALT,
        }
    )
    state = dos.new_game(2, SEED, options)
    rng = random.Random(3)
    actions, previous, seq = [], commitment, 1
    while dos.result(state) is None:
        seat = dos.to_act(state)[0]
        action = rng.choice(dos.legal_actions(state, seat))
        state = dos.apply(state, seat, action)
        seq += rng.choice((1, 2))  # sequence numbers only increase; they may skip
        state_digest = documented_hash({"salt": SALT, "state": dos.dump(state)})
        previous = documented_hash(
            {"action": action, "previous": previous, "seat": seat, "seq": seq, "state": state_digest}
        )
        actions.append({"seq": seq, "seat": seat, "action": action, "digest": previous})
    return {
        "format": "turnwise-match/2",
        "id": 1,
        "game": "dos",
        "players": 2,
        "options": options,
        "rated": False,
        "seats": [],
        "started_at": None,
        "finished_at": None,
        "commitment_version": 2,
        "commitment": commitment,
        "seed": SEED,
        "salt": SALT,
        "actions": actions,
        "result": json.loads(json.dumps(dos.result(state))),
        "final_state": dos.dump(state),
    }


RECORD = build_record()
# The same match as a record downloaded before the chain: format 1, the old commitment, no digests.
LEGACY = {k: v for k, v in RECORD.items() if k != "commitment_version"} | {
    "format": "turnwise-match/1",
    "commitment": hashlib.sha256(f"{SALT}:{SEED}".encode()).hexdigest(),
    "actions": [{k: v for k, v in a.items() if k != "digest"} for a in RECORD["actions"]],
}


def test_a_record_built_from_the_documented_encodings_verifies() -> None:
    report = fairplay.check(RECORD)
    assert report.problems == [] and report.notes == [] and report.chained
    assert RECORD["commitment"] == fairplay.commitment(
        game="dos", players=2, options={"target": 30}, seed=SEED, salt=SALT
    )
    legacy = fairplay.check(LEGACY)
    assert legacy.problems == [] and len(legacy.notes) == 2 and not legacy.chained


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(st.characters(codec=None, categories=None), max_size=8),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=8,
)

CHECKED_KEYS = [
    "format",
    "game",
    "players",
    "options",
    "commitment_version",
    "commitment",
    "seed",
    "salt",
    "actions",
    "result",
    "final_state",
]
ENTRY_KEYS = ["seq", "seat", "action", "digest"]


def same(a: Any, b: Any) -> bool:
    try:
        return json.dumps(a, sort_keys=True, allow_nan=False) == json.dumps(b, sort_keys=True, allow_nan=False)
    except (ValueError, TypeError):
        return False


@given(legacy=st.booleans(), key=st.sampled_from(CHECKED_KEYS), value=json_values)
def test_any_value_in_place_of_a_checked_field_is_a_problem_never_an_error(legacy: bool, key: str, value: Any) -> None:
    original = LEGACY if legacy else RECORD
    if key not in original:
        return
    problems = fairplay.verify({**original, key: value})
    assert all(isinstance(p, str) and p for p in problems)
    # The final state is compared only when recorded (null: not recorded).
    if not same(value, original[key]) and not (key == "final_state" and value is None):
        assert problems, (key, value)


@given(
    legacy=st.booleans(),
    index=st.integers(0, len(RECORD["actions"]) - 1),
    key=st.sampled_from(ENTRY_KEYS),
    value=json_values,
)
def test_any_value_in_place_of_an_action_field_is_a_problem_never_an_error(
    legacy: bool, index: int, key: str, value: Any
) -> None:
    record = copy.deepcopy(LEGACY if legacy else RECORD)
    if key not in record["actions"][index]:
        return
    before = record["actions"][index][key]
    record["actions"][index][key] = value
    problems = fairplay.verify(record)
    assert all(isinstance(p, str) and p for p in problems)
    if legacy and key == "seq" and in_order([entry["seq"] for entry in record["actions"]]):
        # An unchained (version 1) record's sequence numbers only order its actions, and may skip: one
        # changed within that order is the same record. A chained record's digests cover them.
        return
    if not same(value, before):
        assert problems, (index, key, value)


def in_order(numbers: list[Any]) -> bool:
    whole = all(isinstance(n, int) and not isinstance(n, bool) for n in numbers)
    return whole and all(a < b for a, b in pairwise(numbers))


@given(value=json_values)
def test_any_json_value_as_a_whole_record_is_a_problem_never_an_error(value: Any) -> None:
    assert fairplay.verify(value)


@given(legacy=st.booleans(), index=st.integers(0, len(RECORD["actions"]) - 1), entry=json_values)
def test_any_json_value_as_an_action_entry_is_a_problem_never_an_error(legacy: bool, index: int, entry: Any) -> None:
    record = copy.deepcopy(LEGACY if legacy else RECORD)
    record["actions"][index] = entry
    assert fairplay.verify(record)


def test_values_canonical_json_cannot_write_are_problems() -> None:
    for options in ({"target": math.nan}, {"target": math.inf}, {"name": "\ud800"}):
        problems = fairplay.verify({**RECORD, "options": options})
        assert problems and "canonical JSON" in problems[0], problems


def test_a_deeply_nested_record_is_a_problem() -> None:
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert fairplay.verify({**RECORD, "options": {"x": deep}})


def plain_json(value: Any) -> bool:
    """Objects with string keys, lists, strings, integers, booleans, null: nothing JSON would change."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_json(v) for v in value)
    return value is None or isinstance(value, str | int | bool)


@pytest.mark.parametrize(
    ("game", "players"),
    [(g.slug, n) for g in registry.all_games() for n in range(g.min_players, g.max_players + 1)],
)
def test_every_engine_dump_is_plain_json_so_its_digest_is_that_of_the_stored_copy(game: str, players: int) -> None:
    """The chain hashes the state as the engine dumps it, without a round trip through JSON: that is the
    stored and exported copy's digest only if a dump holds nothing JSON would change (a tuple, an int key).
    Every installed game (the registry's, so a new one too), at each table size it allows."""
    engine = fairplay.engine_for(game)
    for seed in range(4):
        state = engine.new_game(players, seed, {})
        rng = random.Random(seed)
        for _ in range(400):
            dumped = engine.dump(state)
            assert plain_json(dumped)
            assert fairplay.canonical(dumped) == fairplay.canonical(json.loads(json.dumps(dumped)))
            if engine.result(state) is not None:
                break
            seat = engine.to_act(state)[0]
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
