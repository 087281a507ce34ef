"""Text notation: square names and 64-character board strings (the same as the data files use).

A board string lists a1 b1 ... h1, a2 ... h8 (row by row, row 1 first), one character per square:
``B`` black, ``W`` white, ``.`` empty.
"""

from __future__ import annotations

from typing import Any

from games.engine import Text
from games.engine import gettext_noop as _

FILES = "abcdefgh"
SQUARE_NAMES: tuple[str, ...] = tuple(FILES[i % 8] + str(i // 8 + 1) for i in range(64))
SQUARE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARE_NAMES)}


def squares(b: int) -> list[str]:
    """Names of the set bits of ``b``, sorted as strings (a1, a2, ..., h8), the order views use."""
    names = []
    while b:
        low = b & -b
        names.append(SQUARE_NAMES[low.bit_length() - 1])
        b ^= low
    return sorted(names)


def board_string(black: int, white: int) -> str:
    # Reversed binary strings put bit 0 (a1) first; three strings merged beat 64 bit tests in CPython.
    b = f"{black:064b}"[::-1]
    w = f"{white:064b}"[::-1]
    return "".join("B" if x == "1" else "W" if y == "1" else "." for x, y in zip(b, w, strict=True))


class BadBoard(ValueError):
    """A string that is not a board; ``text`` says what is wrong, for the player."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


def parse_board(text: str) -> tuple[int, int]:
    """(black, white) bitboards of a board string; BadBoard saying what is wrong."""
    if len(text) != 64:
        raise BadBoard(Text(_("A board has 64 squares, this one has %(count)s."), {"count": len(text)}))
    black = white = 0
    for i, ch in enumerate(text):
        if ch == "B":
            black |= 1 << i
        elif ch == "W":
            white |= 1 << i
        elif ch != ".":
            raise BadBoard(
                Text(
                    _("Square %(square)s holds %(char)s; use B, W or '.'."),
                    {"square": SQUARE_NAMES[i], "char": repr(ch)},
                )
            )
    return black, white


def diagram(black: int, white: int) -> str:
    """Eight lines, row 1 on top, for debugging and test failure messages."""
    text = board_string(black, white)
    rows = ["  " + " ".join(FILES)]
    for r in range(8):
        rows.append(f"{r + 1} " + " ".join(text[r * 8 : r * 8 + 8]))
    return "\n".join(rows)


def transcript(actions: list[dict[str, Any]]) -> str:
    """The usual move list, e.g. ``f5d6c3d3c4``: one square per move; passes are implied."""
    return "".join(action["square"] for action in actions)
