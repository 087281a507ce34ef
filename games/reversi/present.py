"""Template-ready shapes of a Reversi view: rows of squares, top row (1) first.

The board grid is the hot part of every match page and of every push after a move (64 squares, each
with its label, classes and button state). Looping over it in the template cost most of a move's
CPU, so the grid's HTML is built here, in Python, once per position, and reused: by the three
renders a move makes (each seat's and the spectators'), by the mover's reply and by every page that
loads that position. The markup is what the template loop produced.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

FILES = "abcdefgh"


def seat_label(seat: int) -> str:
    return _("Black") if seat == 0 else _("White")


# A position as the grid shows it: (board string, legal squares, last move, flipped squares, language).
type Position = tuple[str, tuple[str, ...], str | None, tuple[str, ...], str | None]


@lru_cache(maxsize=512)
def _rows(position: Position) -> tuple[dict[str, Any], ...]:
    board, legal, last_move, flipped, _language = position
    names = {"B": _("black"), "W": _("white")}
    empty, legal_text, last_text, flipped_text = _("empty"), _("legal move"), _("last move"), _("just flipped")
    rows = []
    for r in range(8):
        squares = []
        for c in range(8):
            square = f"{FILES[c]}{r + 1}"
            disc = board[r * 8 + c]
            parts = [square, names.get(disc, empty)]
            if square in legal:
                parts.append(legal_text)
            if square == last_move:
                parts.append(last_text)
            elif square in flipped:
                parts.append(flipped_text)
            squares.append(
                {
                    "square": square,
                    "disc": disc if disc in "BW" else "",
                    "legal": square in legal,
                    "last": square == last_move,
                    "flipped": square in flipped,
                    "label": ", ".join(parts),
                }
            )
        rows.append({"number": r + 1, "squares": tuple(squares)})
    return tuple(rows)


@lru_cache(maxsize=512)
def _grid_html(position: Position, can_act: bool, best: str | None = None) -> SafeString:
    """The board's table rows: each square a submit button, enabled only where the viewer may play;
    ``best`` (a replay with its analysis) is framed as the best move."""
    out = []
    best_text = _("best move") if best else ""
    for row in _rows(position):
        cells = []
        for col, sq in enumerate(row["squares"]):
            playable = sq["legal"] and can_act
            classes = "sq" + (" legal" if playable else "") + (" last" if sq["last"] else "")
            classes += " flipped" if sq["flipped"] else ""
            label = sq["label"]
            if sq["square"] == best:
                classes += " best"
                label = f"{label}, {best_text}"
            if sq["disc"]:
                inner = f'<span class="disc disc-{sq["disc"]}" aria-hidden="true"></span>'
            elif playable:
                inner = '<span class="hint" aria-hidden="true"></span>'
            else:
                inner = ""
            cells.append(
                f'<td><button type="submit" name="square" value="{sq["square"]}" id="sq-{sq["square"]}"'
                f' data-row="{row["number"] - 1}" data-col="{col}" data-key="{sq["square"]}" data-face="{sq["disc"]}"'
                f' aria-label="{escape(label)}" class="{classes}"{" data-move" if playable else " disabled"}>'
                f"{inner}</button></td>"
            )
        # A row number is half a square's name (d4), which stays ASCII everywhere: translate="no".
        out.append(f'<tr><th scope="row" translate="no">{row["number"]}</th>{"".join(cells)}</tr>')
    return mark_safe("\n".join(out))  # square names and escaped labels only


class Grid:
    """The grid's HTML for a viewer who may play now (``playable``) or not (``still``), built on use."""

    def __init__(self, position: Position, best: str | None = None) -> None:
        self.position = position
        self.best = best

    @property
    def playable(self) -> SafeString:
        return _grid_html(self.position, True, self.best)

    @property
    def still(self) -> SafeString:
        return _grid_html(self.position, False, self.best)


def present(view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    position: Position = (
        view["board"],
        tuple(view["legal"]),
        view["last_move"],
        tuple(view["flipped"]),
        get_language(),
    )
    to_move = view["to_move"]
    return {
        "rows": _rows(position),
        "grid": Grid(position),
        "files": list(FILES),
        "to_move_name": seat_label(0 if to_move == "B" else 1) if to_move else "",
        "my_colour": ("B" if seat == 0 else "W") if seat is not None else "",
    }


def standing(view: dict[str, Any]) -> list[int]:
    """The score as the board stands (discs of Black, White): what a resigned game ended at."""
    return [view["counts"]["B"], view["counts"]["W"]]
