"""DOS cards: codes, the 108-card deck, values and the canonical order (DOS-1..DOS-3).

A card is named by its public code: ``R1``..``R10`` (no coloured 2s), ``R#`` for the red Wild #, the same
for ``G``, ``B`` and ``Y``, and ``W2`` for the colourless Wild DOS. Identical copies share a code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

COLOURS: tuple[str, ...] = ("R", "G", "B", "Y")
NUMBERS: tuple[int, ...] = (1, 3, 4, 5, 6, 7, 8, 9, 10)
WILD_DOS = "W2"
WILD_VALUES: tuple[int, ...] = tuple(range(1, 11))

#: Every code in canonical order: by colour (R, G, B, Y), numbers ascending, then the colour's Wild #;
#: the Wild DOS last. Hands, listings and the cards of a match follow this order.
CODES: tuple[str, ...] = (
    *(f"{colour}{rank}" for colour in COLOURS for rank in (*NUMBERS, "#")),
    WILD_DOS,
)
ORDER: dict[str, int] = {code: index for index, code in enumerate(CODES)}

COPIES: dict[str, int] = {
    code: 12 if code == WILD_DOS else 2 if code.endswith("#") else 3 if int(code[1:]) <= 5 else 2 for code in CODES
}
FULL_DECK: tuple[str, ...] = tuple(code for code in CODES for _ in range(COPIES[code]))
DECK_COUNTS: Counter[str] = Counter(FULL_DECK)

HAND_SIZE = 7
CENTER_SIZE = 2


def is_wild(code: str) -> bool:
    return code == WILD_DOS or code.endswith("#")


def colour_of(code: str) -> str | None:
    """Printed colour; ``None`` for the Wild DOS, whose colour is declared each time."""
    return None if code == WILD_DOS else code[0]


def number_of(code: str) -> int | None:
    """Printed value of a number card; ``None`` for both kinds of wild."""
    return None if is_wild(code) else int(code[1:])


def points(code: str) -> int:
    """What the card scores for the round winner while left in a hand (DOS-17, DOS-E12)."""
    if code == WILD_DOS:
        return 20
    if code.endswith("#"):
        return 40
    return int(code[1:])


def hand_points(cards: Iterable[str]) -> int:
    return sum(points(code) for code in cards)


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))
