"""Parsing DOS actions and options: the well-formedness checks (``InvalidAction``).

Whether a well-formed action is allowed now is decided in ``play.py`` (``IllegalAction``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.dos.cards import COLOURS, DECK_COUNTS, ORDER, WILD_DOS, WILD_VALUES, is_wild
from games.dos.moves import Declaration, card_key
from games.engine import Action, InvalidAction
from games.engine import gettext_noop as _
from games.kit.parsing import is_int

DEFAULT_TARGET = 200
OPTION_KEYS = frozenset({"deck", "dealer", "target"})

DRAW: Action = {"type": "draw"}
FINISH: Action = {"type": "finish"}
SKIP_BONUS: Action = {"type": "skip_bonus"}
UNDO: Action = {"type": "undo"}

_FIELDS: dict[str, frozenset[str]] = {
    "match": frozenset({"type", "target", "cards", "declare", "target_declare"}),
    "draw": frozenset({"type"}),
    "finish": frozenset({"type"}),
    "place": frozenset({"type", "card"}),
    "bonus": frozenset({"type", "card"}),
    "skip_bonus": frozenset({"type"}),
    "undo": frozenset({"type"}),
}


@dataclass(frozen=True)
class Move:
    """A parsed, well-formed action. Whether it is allowed now is decided against the state."""

    type: str
    target: int = -1
    cards: tuple[str, ...] = ()
    declare: tuple[Declaration, ...] = ()
    has_target_declare: bool = False
    target_declare: Declaration = None
    card: str = ""


def check_code(code: Any) -> str:
    if not isinstance(code, str) or code not in ORDER:
        raise InvalidAction(_("%(code)s is not a DOS card code."), {"code": repr(code)})
    return code


def check_declaration(card: str, declaration: Any, field: str) -> Declaration:
    """Type-checks the declaration that ``card`` needs (none for a number card)."""
    if card == WILD_DOS:
        if declaration not in COLOURS or not isinstance(declaration, str):
            raise InvalidAction(
                _("Declare the colour of %(card)s in %(field)s as one of R, G, B, Y."), {"card": card, "field": field}
            )
        return declaration
    if card.endswith("#"):
        if not is_int(declaration) or declaration not in WILD_VALUES:
            raise InvalidAction(
                _("Declare the value of %(card)s in %(field)s as a whole number from 1 to 10."),
                {"card": card, "field": field},
            )
        return declaration
    if declaration is not None:
        raise InvalidAction(_("%(card)s is not a wild card, so its declaration must be null."), {"card": card})
    return None


def parse_action(action: Any) -> Move:
    if not isinstance(action, dict):
        raise InvalidAction(_("An action must be an object with a type."))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise InvalidAction(_("Unknown action type %(kind)s."), {"kind": repr(kind)})
    extra = sorted(set(action) - _FIELDS[kind])
    if extra:
        raise InvalidAction(_("A %(kind)s action has no field %(extra)s."), {"kind": kind, "extra": repr(extra[0])})
    if kind in ("place", "bonus"):
        if "card" not in action:
            raise InvalidAction(_("A %(kind)s action needs a card."), {"kind": kind})
        return Move(kind, card=check_code(action["card"]))
    if kind != "match":
        return Move(kind)
    return _parse_match(action)


def _parse_match(action: dict[str, Any]) -> Move:
    target = action.get("target")
    if not is_int(target) or target < 0:
        raise InvalidAction(_("A match needs a target: the position of a Center Row card (0, 1, ...)."))
    cards = action.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= 2:
        raise InvalidAction(_("A match uses one or two cards from your hand."))
    codes = tuple(check_code(code) for code in cards)
    wild = any(is_wild(code) for code in codes)
    if wild:
        declare = action.get("declare")
        if not isinstance(declare, list) or len(declare) != len(codes):
            raise InvalidAction(_("Give one declaration per card in declare (null for a number card)."))
        declarations = tuple(
            check_declaration(code, value, "declare") for code, value in zip(codes, declare, strict=True)
        )
    else:
        if "declare" in action:
            raise InvalidAction(_("Leave out declare when you play no wild card."))
        declarations = (None,) * len(codes)
    keys = [card_key(code, value) for code, value in zip(codes, declarations, strict=True)]
    if keys != sorted(keys):
        raise InvalidAction(
            _("List the cards of a match in card order (as in your hand; two equal wilds by declaration).")
        )
    return Move(
        "match",
        target=target,
        cards=codes,
        declare=declarations,
        has_target_declare="target_declare" in action,
        target_declare=action.get("target_declare"),
    )


def parse_options(players: int, options: dict[str, Any] | None) -> tuple[list[str], int | None, int]:
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidAction(_("Options must be an object."))
    unknown = sorted(set(options) - OPTION_KEYS)
    if unknown:
        raise InvalidAction(_("Unknown option %(unknown)s."), {"unknown": repr(unknown[0])})
    deck = options.get("deck", [])
    if not isinstance(deck, list):
        raise InvalidAction(_("The deck option must be a list of card codes."))
    codes = [check_code(code) for code in deck]
    for code, count in Counter(codes).items():
        if count > DECK_COUNTS[code]:
            raise InvalidAction(
                _("The deck has %(deck_counts)s %(code)s, the deck option lists %(count)s."),
                {"deck_counts": DECK_COUNTS[code], "code": code, "count": count},
            )
    dealer = options.get("dealer")
    if dealer is not None and (not is_int(dealer) or not 0 <= dealer < players):
        raise InvalidAction(_("The dealer must be a seat from 0 to %(last)s."), {"last": players - 1})
    target = options.get("target", DEFAULT_TARGET)
    if not is_int(target) or not 1 <= target <= 10_000:
        raise InvalidAction(_("The target score must be a whole number from 1 to 10000."))
    return codes, dealer, target
