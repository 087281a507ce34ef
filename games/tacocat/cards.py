"""Static facts of Tacocat Spelled Backwards and the match options that configure them.

Rule ids (TAC-n) refer to shared/rules/tacocat.md. Two facts of the physical game are unknown
(decision register #1 and #2): the card distribution and the outer spaces' hand sizes and arrows. They
are configuration; the defaults are the rules file's invented placeholders, not the real game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.engine import InvalidAction

VALUES = tuple(range(1, 13))
CODES = {str(v): v for v in VALUES}
DECK_SIZE = 38  # TAC-1
# TAC-2: positions -3..+3 (0 = centre); goal A = -4 behind seat 0, goal B = +4 behind seat 1.
POSITIONS = tuple(range(-3, 4))
LETTERS = "TACOCAT"
GOALS = (-4, 4)
# The physical board's ends are called WOW and YAY [T2], [T7]; which end is whose is our choice.
GOAL_LABELS = ("WOW", "YAY")
SEAT_LETTERS = ("A", "B")
ARROWS = ("A", "B", "both")
TIE_RULES = ("stay", "arrow")
MIN_HAND, MAX_HAND = 2, 9  # TAC-2 / TAC-E1: above 9 the draw pile could run out while replacing
CENTRE_HAND = 7  # TAC-2, known from the seed

# Decision register #1 [DECISION, VERIFY]: three of each value plus an extra 6 and 7. Invented.
PLACEHOLDER_DISTRIBUTION: dict[int, int] = {v: 3 for v in VALUES} | {6: 4, 7: 4}
# Decision register #2 [DECISION, VERIFY]: 4-5-6-7-6-5-4, each outer arrow at the player behind.
PLACEHOLDER_HAND_SIZES = (4, 5, 6, 7, 6, 5, 4)
PLACEHOLDER_ARROWS = ("B", "B", "B", "both", "A", "A", "A")

OPTION_KEYS = ("distribution", "board", "tie_rule", "deck")


@dataclass(frozen=True, slots=True)
class Config:
    """One match's fixed setup: validated by :func:`parse_options`."""

    distribution: tuple[int, ...]  # copies of each value 1..12
    hand_sizes: tuple[int, ...]  # per position -3..+3
    arrows: tuple[str, ...]  # per position -3..+3: "A", "B" or "both"
    tie_rule: str = "stay"

    def hand_size(self, position: int) -> int:
        return self.hand_sizes[position + 3]

    def arrow(self, position: int) -> str:
        return self.arrows[position + 3]

    def first_replacer(self, position: int) -> int | None:
        """The seat the arrow points at, or None on a two-arrow space (both replace at once)."""
        arrow = self.arrow(position)
        return None if arrow == "both" else SEAT_LETTERS.index(arrow)

    def deck(self) -> tuple[int, ...]:
        """The whole deck, sorted."""
        return tuple(v for v, copies in zip(VALUES, self.distribution, strict=True) for _ in range(copies))

    def to_json(self) -> dict[str, Any]:
        return {
            "distribution": {str(v): c for v, c in zip(VALUES, self.distribution, strict=True)},
            "board": [{"hand_size": n, "arrow": a} for n, a in zip(self.hand_sizes, self.arrows, strict=True)],
            "tie_rule": self.tie_rule,
        }


DEFAULT_CONFIG = Config(
    distribution=tuple(PLACEHOLDER_DISTRIBUTION[v] for v in VALUES),
    hand_sizes=PLACEHOLDER_HAND_SIZES,
    arrows=PLACEHOLDER_ARROWS,
)


def code(value: int) -> str:
    return str(value)


def codes(values: Iterable[int]) -> list[str]:
    return [str(v) for v in values]


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


def deal_order(config: Config, seed: int, round_no: int, stacked: tuple[int, ...] | None = None) -> list[int]:
    """The deck in dealing order for a round: stacked cards first, the rest in a seeded shuffle.

    TAC-5 reshuffles all cards every round, so the order depends only on the seed and the round number,
    never on how the previous round was played.
    """
    rest = Counter(config.deck())
    rest.subtract(stacked or ())
    remaining = sorted(rest.elements())
    random.Random(f"tacocat:{seed}:{round_no}").shuffle(remaining)
    return [*(stacked or ()), *remaining]
