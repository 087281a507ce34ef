"""Template-ready shapes of a Reversi view: rows of squares, top row (1) first."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

FILES = "abcdefgh"


def seat_label(seat: int) -> str:
    return _("Black") if seat == 0 else _("White")


def present(view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    board: str = view["board"]
    legal = set(view["legal"])
    flipped = set(view["flipped"])
    names = {"B": _("black"), "W": _("white")}
    rows = []
    for r in range(8):
        squares = []
        for c in range(8):
            square = f"{FILES[c]}{r + 1}"
            disc = board[r * 8 + c]
            state = names.get(disc, _("empty"))
            parts = [square, state]
            if square in legal:
                parts.append(_("legal move"))
            if square == view["last_move"]:
                parts.append(_("last move"))
            elif square in flipped:
                parts.append(_("just flipped"))
            squares.append(
                {
                    "square": square,
                    "disc": disc if disc in "BW" else "",
                    "legal": square in legal,
                    "last": square == view["last_move"],
                    "flipped": square in flipped,
                    "label": ", ".join(parts),
                }
            )
        rows.append({"number": r + 1, "squares": squares})
    to_move = view["to_move"]
    return {
        "rows": rows,
        "files": list(FILES),
        "to_move_name": seat_label(0 if to_move == "B" else 1) if to_move else "",
        "my_colour": ("B" if seat == 0 else "W") if seat is not None else "",
    }


def standing(view: dict[str, Any]) -> list[int]:
    """The score as the board stands (discs of Black, White): what a resigned game ended at."""
    return [view["counts"]["B"], view["counts"]["W"]]
