"""Parsing Tacocat actions and options from the wire: the well-formedness checks (``InvalidAction``).

Card codes are the strings "1".."12"; each card has exactly one spelling, so actions compare equal to
the engine's ``legal_actions``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import InvalidAction
from games.tacocat.cards import (
    ARROWS,
    CENTRE_HAND,
    CODES,
    DECK_SIZE,
    DEFAULT_CONFIG,
    MAX_HAND,
    MIN_HAND,
    OPTION_KEYS,
    POSITIONS,
    TIE_RULES,
    VALUES,
    Config,
)

FIELDS = {"replace": "cards", "duel": "card", "attack": "cards", "defend": "answers"}


def parse_action(action: Any) -> tuple[str, Any]:
    """``(type, payload)`` of a well-formed action; InvalidAction otherwise. Payload cards are values."""
    if not isinstance(action, dict):
        raise InvalidAction("An action must be an object such as {'type': 'duel', 'card': '7'}.")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise InvalidAction(f"Unknown action type {kind!r}; use replace, duel, attack or defend.")
    field = FIELDS[kind]
    extra = sorted(map(str, set(action) - {"type", field}))
    if extra:
        raise InvalidAction(f"Unexpected field(s) in this {kind} action: {', '.join(extra)}.")
    if field not in action:
        if kind == "replace":
            # An HTML form with no box ticked sends no field at all: that is "keep every card".
            return kind, ()
        raise InvalidAction(f"This {kind} action needs '{field}'.")
    if kind == "duel":
        return kind, parse_code(action[field], "The duel card")
    return kind, parse_codes(action[field], field)


def parse_code(raw: Any, what: str = "A card") -> int:
    """The value of a card code; strict, so each card has exactly one spelling."""
    if isinstance(raw, str) and raw in CODES:
        return CODES[raw]
    raise InvalidAction(f"{what} must be a card code, the string '1' to '12', not {raw!r}.")


def parse_codes(raw: Any, field: str) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise InvalidAction(f"'{field}' must be a list of card codes such as ['3', '12'].")
    return tuple(parse_code(item, f"Each entry of '{field}'") for item in raw)


def _parse_distribution(raw: Any) -> tuple[int, ...]:
    if not isinstance(raw, dict):
        raise InvalidAction("The distribution must be an object mapping each value '1'..'12' to its copies.")
    copies = dict.fromkeys(VALUES, 0)
    for key, count in raw.items():
        # JSON turns keys into strings; Python callers may use ints. Both name the same value.
        value: int | None = None
        if isinstance(key, str):
            value = CODES.get(key)
        elif isinstance(key, int) and not isinstance(key, bool) and key in VALUES:
            value = key
        if value is None:
            raise InvalidAction(f"The distribution names {key!r}, but card values are 1 to 12.")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InvalidAction(f"The distribution gives value {value} {count!r} copies; use a whole number >= 0.")
        copies[value] = count
    total = sum(copies.values())
    if total != DECK_SIZE:
        raise InvalidAction(f"The distribution has {total} cards; the deck has exactly {DECK_SIZE}.")
    return tuple(copies[v] for v in VALUES)


def _parse_board(raw: Any) -> tuple[tuple[int, ...], tuple[str, ...]]:
    if not isinstance(raw, list) or len(raw) != len(POSITIONS):
        raise InvalidAction(
            "The board must list the 7 spaces from seat 0's end to seat 1's end, "
            "each as {'hand_size': 2..9, 'arrow': 'A', 'B' or 'both'}."
        )
    sizes: list[int] = []
    arrows: list[str] = []
    for position, space in zip(POSITIONS, raw, strict=True):
        if not isinstance(space, dict) or set(space) != {"hand_size", "arrow"}:
            raise InvalidAction(f"Space {position:+d} must be an object with exactly 'hand_size' and 'arrow'.")
        size, arrow = space["hand_size"], space["arrow"]
        if not isinstance(size, int) or isinstance(size, bool) or not MIN_HAND <= size <= MAX_HAND:
            raise InvalidAction(
                f"Space {position:+d} has hand size {size!r}; it must be {MIN_HAND} to {MAX_HAND} "
                "(above 9 the draw pile could run out, TAC-E1)."
            )
        if arrow not in ARROWS:
            raise InvalidAction(f"Space {position:+d} has arrow {arrow!r}; use 'A', 'B' or 'both'.")
        sizes.append(size)
        arrows.append(arrow)
    # TAC-2: the centre is known from the seed (7 cards, both replace freely); refuse to contradict it.
    if sizes[3] != CENTRE_HAND or arrows[3] != "both":
        raise InvalidAction("The centre space is known: hand size 7 and arrow 'both'.")
    return tuple(sizes), tuple(arrows)


def _parse_deck(raw: Any, config: Config) -> tuple[int, ...]:
    stacked = parse_codes(raw, "deck")
    available = Counter(config.deck())
    used = Counter(stacked)
    for value in sorted(used):
        if used[value] > available[value]:
            raise InvalidAction(
                f"The deck option has {used[value]} cards of value {value}, but the deck holds {available[value]}."
            )
    return stacked


def parse_options(options: dict[str, Any] | None) -> tuple[Config, tuple[int, ...] | None]:
    """The match's Config and the stacked start of the first deal (None if not stacked)."""
    if options is None:
        return DEFAULT_CONFIG, None
    if not isinstance(options, dict):
        raise InvalidAction("Options must be an object.")
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise InvalidAction(f"Unknown option(s): {', '.join(map(str, unknown))}.")
    distribution = DEFAULT_CONFIG.distribution
    if "distribution" in options:
        distribution = _parse_distribution(options["distribution"])
    sizes, arrows = DEFAULT_CONFIG.hand_sizes, DEFAULT_CONFIG.arrows
    if "board" in options:
        sizes, arrows = _parse_board(options["board"])
    tie_rule = options.get("tie_rule", "stay")
    if tie_rule not in TIE_RULES:
        raise InvalidAction(f"tie_rule must be 'stay' or 'arrow', not {tie_rule!r}.")
    config = Config(distribution, sizes, arrows, tie_rule)
    stacked = _parse_deck(options["deck"], config) if "deck" in options else None
    return config, stacked
