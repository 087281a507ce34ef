"""Verifiable shuffles: a match's record can be checked by anyone with only the pure rules engine.

When a match is created it publishes a commitment, the SHA-256 of "salt:seed". Every shuffle and deal
of the engine derives from the seed. When the match ends, the seed and salt are revealed; then
:func:`verify` checks that they match the commitment and that replaying the action log from that seed
gives exactly the final state and result that were recorded. No Django here: the check needs only
``games.<game>.rules``.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from typing import Any

from games.engine import Engine, IllegalAction

FORMAT = "turnwise-match/1"


def commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def engine_for(game: str) -> Engine:
    if not game.isidentifier():
        raise ValueError(f"Not a game name: {game!r}")
    return importlib.import_module(f"games.{game}.rules").engine


def verify(record: dict[str, Any], engine: Engine | None = None) -> list[str]:
    """The problems found in an exported match record; an empty list means it verifies.

    Checks, in order: the revealed seed and salt hash to the commitment published at the start;
    every logged action was legal for its seat when it was taken, replayed from that seed; and the
    replay ends in the recorded final state and result.
    """
    if record.get("format") != FORMAT:
        return [f"Not a Turnwise match record (format {record.get('format')!r}, expected {FORMAT!r})."]
    seed, salt = record.get("seed"), record.get("salt")
    if seed is None or salt is None:
        return ["The seed and salt are revealed only when the match has ended."]
    problems = []
    if commitment(seed, salt) != record["commitment"]:
        problems.append("The revealed seed and salt do not hash to the commitment published at the start.")
    engine = engine or engine_for(record["game"])
    try:
        state = engine.new_game(record["players"], seed, record.get("options") or {})
        for entry in record["actions"]:
            state = engine.apply(state, entry["seat"], entry["action"])
    except IllegalAction as exc:
        problems.append(f"Action {entry['seq']} by seat {entry['seat']} is not legal in the replay: {exc.message}")
        return problems
    if record.get("final_state") is not None and engine.dump(state) != record["final_state"]:
        problems.append("Replaying the actions from the seed does not give the recorded final state.")
    replayed = engine.result(state)
    # A resignation or a timeout ends a match before the engine does; then the engine has no result.
    if replayed is not None and json.loads(json.dumps(replayed)) != record.get("result"):
        problems.append("Replaying the actions from the seed does not give the recorded result.")
    return problems
