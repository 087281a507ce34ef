"""Verifiable shuffles and a chained action log: a match's record can be checked with only the pure engine.

When a match is created it publishes a **commitment**: the SHA-256 of a canonical JSON document that
holds everything that decides the deal (the game, the player count, every option, the seed and a
secret salt). Every shuffle and deal of the engine derives from the seed. Each accepted action is then
**chained**: its digest covers the previous digest, the action, its seat and sequence number, and a
salted digest of the state it produced, starting from the commitment. When the match ends, the seed
and salt are revealed; then :func:`check` confirms the commitment, refuses options that stack the deal,
replays the action log from the seed, checks every link of the chain, and compares the replay with the
final state and result that were recorded. The check itself needs only the game's pure engine (pass it
to :func:`check`, as a verifier without the site does); given none, it takes the engine of the game the
record names from the registry (the game's definition), wherever that game's app lives.

The encodings are documented exactly in docs/fair-play.md, so anyone can write their own verifier.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import Engine, IllegalAction
from games.record import takeback

FORMAT = "turnwise-match/2"
# Records downloaded before the log was chained: still checked, by the rule of their time.
LEGACY_FORMAT = "turnwise-match/1"
# Version 1 hashed "salt:seed" only; version 2 binds the whole setup. Stored per match.
LEGACY_COMMITMENT = 1
COMMITMENT_VERSION = 2
COMMITMENT_KIND = "turnwise-commitment/2"

_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")


def canonical(value: Any) -> bytes:
    """The one byte string a JSON value hashes as: object keys sorted, no whitespace, UTF-8.

    ``value`` must be JSON as it is stored and exported: objects with string keys, lists, strings,
    integers, booleans and null (engine dumps are: ``tests/games/test_fairplay_records.py`` checks).
    It is written once, without a round trip through JSON, because every move hashes its state.
    ``allow_nan=False``: NaN and infinities are not JSON.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def digest(value: Any) -> str:
    """SHA-256 of the canonical encoding, in lower-case hex."""
    return hashlib.sha256(canonical(value)).hexdigest()


def legacy_commitment(seed: int, salt: str) -> str:
    """Commitment version 1 (matches created before it bound the setup): SHA-256 of ``"<salt>:<seed>"``."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def commitment(*, game: str, players: int, options: dict[str, Any], seed: int, salt: str) -> str:
    """Commitment version 2: binds everything that decides the deal.

    The seed is written as a decimal string: a 62-bit number does not fit a JavaScript number, and a
    verifier in any language must be able to write the same bytes. The options are hashed in their JSON
    form, the one stored and exported (Python code may pass Tacocat's distribution as ``{6: 4}``).
    """
    return digest(
        {
            "commitment": COMMITMENT_KIND,
            "game": game,
            "players": players,
            "options": json.loads(json.dumps(options, allow_nan=False)),
            "seed": str(seed),
            "salt": salt,
        }
    )


def state_digest(state: dict[str, Any], salt: str) -> str:
    """A digest of a dumped state that reveals nothing while the salt is secret.

    The state holds every hidden card; a bare hash of it, shown during play, would let an opponent who
    knows all but a few cards try each possibility. With the 128-bit salt inside, nobody can.
    """
    return digest({"salt": salt, "state": state})


def link(*, previous: str, seq: int, seat: int, action: dict[str, Any], state: str) -> str:
    """The digest of one action of the log: ``state`` is :func:`state_digest` of the state it produced."""
    return digest({"action": action, "previous": previous, "seat": seat, "seq": seq, "state": state})


def stacking_options(engine: Engine) -> frozenset[str]:
    """The options of ``engine`` that choose cards or a dealer instead of the seed (tests only)."""
    return frozenset(getattr(engine, "stacking_options", ()))


# How an installed game's engine is found by its name: the registry sits above this pure module, so it
# hands the lookup down at start-up (``games.apps``); outside Django a caller passes the engine.
_find_engine: Callable[[str], Engine] | None = None


def use_engines(find: Callable[[str], Engine]) -> None:
    """Find the engine of an installed game by its name with ``find`` (raising LookupError if none)."""
    global _find_engine
    _find_engine = find


def engine_for(game: str) -> Engine:
    """The rules engine of the installed game ``game`` (its definition's): ValueError if there is none.

    From the registry, not from a module path built from the name: a game's app need not live in
    ``games/`` (the example game Nim is ``tests.nim``), and a record cannot name a module to import.
    """
    try:
        if _find_engine is None:
            raise LookupError(game)
        engine = _find_engine(game)
    except LookupError:
        raise ValueError(f"There is no game {game!r}.") from None
    if not isinstance(engine, Engine):
        raise ValueError(f"The game {game!r} has no rules engine.")
    return engine


@dataclass
class Report:
    """What :func:`check` found: ``problems`` fail the record; ``notes`` say what it could not prove."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Which commitment rule the record was checked by, and whether its log is chained.
    commitment_version: int | None = None
    chained: bool = False


def verify(record: Any, engine: Engine | None = None) -> list[str]:
    """The problems found in an exported match record; an empty list means it verifies."""
    return check(record, engine).problems


def check(record: Any, engine: Engine | None = None) -> Report:
    """Check an exported match record (any JSON value: a malformed one gets problems, never an error).

    In order: the record's shape; the revealed seed and salt against the commitment published at the
    start; no option that stacks the deal; every logged action legal for its seat when replayed from
    that seed; every link of the action chain; and the replay ending in the recorded final state and
    result.
    """
    try:
        return _check(record, engine)
    except RecursionError:
        return Report(problems=["The record is nested too deeply to be a match record."])
    except ValueError as exc:  # from canonical(): NaN or infinity, or text that is not Unicode
        return Report(problems=[f"The record holds a value that canonical JSON cannot write: {exc}"])


def _check(record: Any, engine: Engine | None) -> Report:
    report = Report()
    shape = _shape_problems(record)
    if shape:
        report.problems = shape
        return report
    version = record["commitment_version"] if record["format"] == FORMAT else LEGACY_COMMITMENT
    report.commitment_version = version
    seed, salt = record["seed"], record["salt"]
    if seed is None or salt is None:
        report.problems.append("The seed and salt are revealed only when the match has ended.")
        return report
    options = record["options"]
    if version == LEGACY_COMMITMENT:
        expected = legacy_commitment(seed, salt)
        report.notes.append(
            "This match was created before its commitment covered the game and its options (commitment "
            "version 1): the commitment binds the seed only, so the options are as the record says, unproven."
        )
    else:
        expected = commitment(game=record["game"], players=record["players"], options=options, seed=seed, salt=salt)
    if expected != record["commitment"]:
        report.problems.append(
            "The revealed seed and salt do not hash to the commitment published at the start"
            + (" (with this game, player count and options)." if version != LEGACY_COMMITMENT else ".")
        )
    if engine is None:
        try:
            engine = engine_for(record["game"])
        except (ImportError, ValueError):
            report.problems.append(f"There is no game {record['game']!r} to replay the record with.")
            return report
    stacked = sorted(stacking_options(engine) & set(options))
    if stacked:
        report.problems.append(
            f"The options choose the deal instead of the seed ({', '.join(stacked)}): "
            "only tests may stack a deal, a real match never does."
        )
    actions = record["actions"]
    report.chained = version != LEGACY_COMMITMENT
    if not report.chained:
        report.notes.append(
            "The action log of this record is not chained (it predates the chain): only the final state "
            "is compared, so an action changed to another with no lasting effect would not be noticed."
        )
    elif any(entry.get("digest") is None for entry in actions):
        report.problems.append("The record's action log is chained, but an action has no digest.")
        report.chained = False
    state = _replay(engine, record, report)
    if state is None:
        return report
    dumped = engine.dump(state)
    if record["final_state"] is not None and _as_json(dumped) != record["final_state"]:
        report.problems.append("Replaying the actions from the seed does not give the recorded final state.")
    replayed = engine.result(state)
    # A resignation or a timeout ends a match before the engine does; then the engine has no result.
    if replayed is not None and _as_json(replayed) != record["result"]:
        report.problems.append("Replaying the actions from the seed does not give the recorded result.")
    return report


def _replay(engine: Engine, record: dict[str, Any], report: Report) -> Any:
    """The replayed final state, checking each action's legality and (if chained) its link; None if
    the replay cannot go on."""
    try:
        state = engine.new_game(record["players"], record["seed"], record["options"])
    except Exception as exc:  # a malformed record may upset an engine in any way
        report.problems.append(f"The game cannot be set up from the record's players, seed and options: {exc}")
        return None
    salt = record["salt"]
    previous = record["commitment"]
    broken: list[int] = []
    # Kept only for a game that allows takebacks: a takeback entry returns to one of them.
    states = [state] if takeback.allowed(engine) else None
    line = takeback.Line()
    for position, entry in enumerate(record["actions"], start=1):
        seq, seat = entry["seq"], entry["seat"]
        try:
            if takeback.is_takeback(entry["action"]) and states is not None:
                try:
                    to = line.record(position, seat, entry["action"])
                except ValueError as exc:
                    report.problems.append(f"Action {seq} by seat {seat} is not an allowed takeback: {exc}.")
                    return None
                assert to is not None
                state = states[to]
            else:
                state = engine.apply(state, seat, entry["action"])
                line.record(position, seat, entry["action"])
            if states is not None:
                states.append(state)
        except IllegalAction as exc:
            report.problems.append(f"Action {seq} by seat {seat} is not legal in the replay: {exc.message}")
            return None
        except Exception as exc:
            report.problems.append(f"Action {seq} by seat {seat} cannot be replayed: {type(exc).__name__}: {exc}")
            return None
        if report.chained:
            expected = link(
                previous=previous,
                seq=seq,
                seat=seat,
                action=entry["action"],
                state=state_digest(engine.dump(state), salt),
            )
            if expected != entry["digest"]:
                broken.append(seq)
            # Each link is checked against the digest published before it, so the first broken one
            # names the first action that differs from what was committed to step by step.
            previous = entry["digest"]
    if broken:
        later = f" ({len(broken) - 1} later links fail too)" if len(broken) > 1 else ""
        report.problems.append(
            f"The action chain breaks at action {broken[0]}: its digest does not cover that action, seat, "
            f"sequence number and resulting state{later}."
        )
    return state


def _as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shape_problems(record: Any) -> list[str]:
    """What makes ``record`` not a well-formed match record, before anything is replayed."""
    if not isinstance(record, dict):
        return [f"A match record is a JSON object, not {type(record).__name__}."]
    fmt = record.get("format")
    if fmt not in (FORMAT, LEGACY_FORMAT):
        return [f"Not a Turnwise match record (format {fmt!r}, expected {FORMAT!r})."]
    problems = []
    expected: Sequence[tuple[str, str, Any]] = (
        ("game", "a game name", lambda v: isinstance(v, str) and v.isidentifier()),
        ("players", "a whole number", lambda v: _is_int(v) and 1 <= v <= 64),
        ("options", "an object", lambda v: isinstance(v, dict)),
        ("commitment", "64 lower-case hex digits", lambda v: isinstance(v, str) and _HEX_DIGEST.fullmatch(v)),
        ("seed", "a whole number or null", lambda v: v is None or _is_int(v)),
        ("salt", "text or null", lambda v: v is None or isinstance(v, str)),
        ("actions", "a list", lambda v: isinstance(v, list)),
        ("result", "an object or null", lambda v: v is None or isinstance(v, dict)),
        ("final_state", "an object or null", lambda v: v is None or isinstance(v, dict)),
    )
    for key, what, ok in expected:
        if key not in record:
            problems.append(f"The record has no {key!r}.")
        elif not ok(record[key]):
            problems.append(f"The record's {key!r} must be {what}, not {_short(record[key])}.")
    if fmt == FORMAT and record.get("commitment_version") not in (LEGACY_COMMITMENT, COMMITMENT_VERSION):
        problems.append(
            f"The record's 'commitment_version' must be {LEGACY_COMMITMENT} or {COMMITMENT_VERSION}, "
            f"not {_short(record.get('commitment_version'))}."
        )
    if problems:
        return problems
    last = None
    for i, entry in enumerate(record["actions"]):
        if not isinstance(entry, dict):
            return [f"Action entry {i} must be an object, not {_short(entry)}."]
        if not (_is_int(entry.get("seq")) and _is_int(entry.get("seat")) and isinstance(entry.get("action"), dict)):
            return [f"Action entry {i} must have a whole-number 'seq' and 'seat' and an object 'action'."]
        if not 0 <= entry["seat"] < record["players"]:
            return [f"Action entry {i} names seat {entry['seat']}; the match has {record['players']} seats."]
        if last is not None and entry["seq"] <= last:
            return [f"Action entry {i}: sequence numbers must increase ({entry['seq']} after {last})."]
        last = entry["seq"]
        found = entry.get("digest")
        if not (found is None or (isinstance(found, str) and _HEX_DIGEST.fullmatch(found))):
            return [f"Action entry {i}: 'digest' must be 64 lower-case hex digits or null."]
    return []


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
