"""The cards, the board and the other static facts of Tacocat Spelled Backwards, and the match setup
(``Config``) that the options configure (parsed in ``actions.py``).

Rule ids (TAC-n) refer to shared/rules/tacocat.md. Two facts of the physical game are unknown
(decision register #1 and #2): the card distribution and the outer spaces' hand sizes and arrows. They
are configuration; the defaults are the rules file's invented placeholders, not the real game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.kit.shuffle import shuffled

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


def deal_order(config: Config, seed: int, round_no: int, stacked: tuple[int, ...] | None = None) -> list[int]:
    """The deck in dealing order for a round: stacked cards first, the rest in a seeded shuffle.

    TAC-5 reshuffles all cards every round, so the order depends only on the seed and the round number,
    never on how the previous round was played.
    """
    rest = Counter(config.deck())
    rest.subtract(stacked or ())
    remaining = shuffled(sorted(rest.elements()), "tacocat", seed, round_no)
    return [*(stacked or ()), *remaining]
