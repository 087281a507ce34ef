"""Parsing Reversi actions and options: the well-formedness checks (``InvalidAction``)."""

from __future__ import annotations

from typing import Any

from games.engine import InvalidAction
from games.engine import gettext_noop as _
from games.reversi.board import SQUARE_INDEX, BadBoard, parse_board
from games.reversi.state import BLACK, COLOURS, START_BLACK, START_WHITE


def parse_action(action: Any) -> int:
    """The square index of a well-formed place action; InvalidAction otherwise."""
    if not isinstance(action, dict):
        raise InvalidAction(_("An action must be an object like {'type': 'place', 'square': 'd3'}."))
    kind = action.get("type")
    if kind == "pass":
        # REV-E1 / REV-S7: passing is never a player's choice.
        raise InvalidAction(_("There is no pass action: you pass automatically when you have no move."))
    if kind != "place":
        raise InvalidAction(_("Unknown action type %(kind)s; the only action is 'place'."), {"kind": repr(kind)})
    extra = sorted(set(action) - {"type", "square"})
    if extra:
        raise InvalidAction(_("Unexpected field(s) in a place action: %(extra)s."), {"extra": ", ".join(extra)})
    if "square" not in action:
        raise InvalidAction(_("A place action needs a 'square', e.g. 'd3'."))
    square = action["square"]
    # Strict on purpose: one spelling per square keeps actions comparable with legal_actions().
    if not isinstance(square, str) or square not in SQUARE_INDEX:
        raise InvalidAction(
            _("%(square)s is not a square: write a lower-case column a-h and a row 1-8, e.g. d3."),
            {"square": repr(square)},
        )
    return SQUARE_INDEX[square]


def parse_options(options: dict[str, Any] | None) -> tuple[int, int, int]:
    if options is None:
        return START_BLACK, START_WHITE, BLACK
    if not isinstance(options, dict):
        raise InvalidAction(_("Options must be an object."))
    unknown = sorted(set(options) - {"board", "to_move"})
    if unknown:
        raise InvalidAction(_("Unknown option(s): %(unknown)s."), {"unknown": ", ".join(unknown)})
    black, white = START_BLACK, START_WHITE
    if "board" in options:
        board = options["board"]
        if not isinstance(board, str):
            raise InvalidAction(_("The board option must be a 64-character string of B, W and '.'."))
        try:
            black, white = parse_board(board)
        except BadBoard as exc:
            raise InvalidAction(exc.text) from None
    to_move = options.get("to_move", "B")
    if to_move not in COLOURS:
        raise InvalidAction(_("to_move must be 'B' or 'W', not %(to_move)s."), {"to_move": repr(to_move)})
    return black, white, COLOURS.index(to_move)
