"""Which single and double matches exist, with every declaration they may carry (DOS-2, DOS-3, §2.3).

A declaration is ``None`` for a number card, an ``int`` 1-10 for a Wild #, and a colour letter
(``"R"``, ``"G"``, ``"B"``, ``"Y"``) for a Wild DOS. The answer depends only on card codes, never on a
game, so it is cached: the same few thousand code combinations recur in every game.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from games.dos.cards import COLOURS, ORDER, WILD_DOS, WILD_VALUES

Declaration = int | str | None
#: (declarations of the played cards, declaration of the target) -> kind of match
Options = dict[tuple[tuple[Declaration, ...], Declaration], str]

SINGLE = "single"
SINGLE_COLOUR = "single_colour"
DOUBLE = "double"
DOUBLE_COLOUR = "double_colour"
COLOUR_KINDS = frozenset({SINGLE_COLOUR, DOUBLE_COLOUR})
_KINDS = {(1, False): SINGLE, (1, True): SINGLE_COLOUR, (2, False): DOUBLE, (2, True): DOUBLE_COLOUR}


def declaration_key(declaration: Declaration) -> int:
    """Orders the declarations of one code: values ascending, colours in R, G, B, Y order."""
    if declaration is None:
        return 0
    if isinstance(declaration, int):
        return declaration
    return COLOURS.index(declaration)


def card_key(card: str, declaration: Declaration) -> tuple[int, int]:
    """Canonical order of the cards of a match (see docs/games/dos.md, "Canonical order")."""
    return ORDER[card], declaration_key(declaration)


@cache
def faces(code: str) -> tuple[tuple[Declaration, int, str], ...]:
    """Every (declaration, effective value, effective colour) the card can take."""
    if code == WILD_DOS:
        return tuple((colour, 2, colour) for colour in COLOURS)
    colour = code[0]
    if code.endswith("#"):
        return tuple((value, value, colour) for value in WILD_VALUES)
    return ((None, int(code[1:]), colour),)


@cache
def match_options(target: str, cards: tuple[str, ...]) -> Options:
    """Every legal way to match ``target`` with ``cards`` (one or two codes, in canonical order).

    Two copies of one wild code with swapped declarations are the same play, so only the canonical
    (ascending) order is listed; ``apply`` rejects the other order, which keeps the two in step.
    """
    options: Options = {}
    twins = len(cards) == 2 and cards[0] == cards[1]
    for target_declaration, target_value, target_colour in faces(target):
        for combo in product(*(faces(card) for card in cards)):
            if sum(value for _, value, _ in combo) != target_value:
                continue
            declarations = tuple(declaration for declaration, _, _ in combo)
            if twins and declaration_key(declarations[0]) > declaration_key(declarations[1]):
                continue
            coloured = all(colour == target_colour for _, _, colour in combo)
            options[(declarations, target_declaration)] = _KINDS[len(cards), coloured]
    return options


def effective_value(card: str, declaration: Declaration) -> int:
    """Value of a played or targeted card under a (type-checked) declaration."""
    if card == WILD_DOS:
        return 2
    if card.endswith("#"):
        assert isinstance(declaration, int)
        return declaration
    return int(card[1:])
