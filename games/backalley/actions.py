"""Parsing Back Alley actions and options from the wire: the well-formedness checks (``InvalidAction``).

Whether a well-formed bid or card is allowed now is decided in ``rules.py`` (``IllegalAction``).
"""

from __future__ import annotations

from typing import Any

from games.backalley.cards import DECK_SIZE, is_card_code, parse
from games.backalley.state import BOARD_NAMES, DEALS
from games.engine import InvalidAction
from games.engine import gettext_noop as _
from games.kit.parsing import is_int

OPTION_KEYS = ("deck", "dealer", "first_deal")


def parse_options(options: dict[str, Any] | None) -> tuple[list[int] | None, int | None, int]:
    """(stacked deck prefix or None, dealer or None, first deal number)."""
    if options is None:
        return None, None, 1
    if not isinstance(options, dict):
        raise InvalidAction(_("Options must be an object."))
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise InvalidAction(
            _("Unknown option(s): %(unknown)s. Known options: deck, dealer, first_deal."),
            {"unknown": ", ".join(map(str, unknown))},
        )
    dealer = options.get("dealer")
    if dealer is not None and (not is_int(dealer) or not 0 <= dealer <= 3):
        raise InvalidAction(_("The dealer must be a seat number 0 to 3, not %(dealer)s."), {"dealer": repr(dealer)})
    first = options.get("first_deal", 1)
    if not is_int(first) or not 1 <= first <= DEALS:
        raise InvalidAction(
            _("first_deal must be a deal number 1 to %(deals)s, not %(first)s."), {"deals": DEALS, "first": repr(first)}
        )
    deck = options.get("deck")
    if deck is None:
        return None, dealer, first
    if not isinstance(deck, list):
        raise InvalidAction(_('The deck must be a list of card codes, e.g. ["AS", "10D", "BB"].'))
    if len(deck) > DECK_SIZE:
        raise InvalidAction(
            _("The deck has %(count)s cards; there are only %(deck_size)s."),
            {"count": len(deck), "deck_size": DECK_SIZE},
        )
    cards: list[int] = []
    seen: set[int] = set()
    for i, text in enumerate(deck):
        if not is_card_code(text):
            raise InvalidAction(
                _("Deck position %(position)s: %(text)s is not a card code (rank then suit: AS, 10D, 2C; or BB, LB)."),
                {"position": i, "text": repr(text)},
            )
        card = parse(text)
        if card in seen:
            raise InvalidAction(_("Deck position %(position)s: %(text)s appears twice."), {"position": i, "text": text})
        seen.add(card)
        cards.append(card)
    return cards, dealer, first


def parse_action(action: Any) -> tuple[str, Any]:
    """("bid", "pass" | "board" | int) or ("play", card); InvalidAction for anything malformed."""
    if not isinstance(action, dict):
        raise InvalidAction(_("An action must be an object like {'type': 'play', 'card': 'QH'}."))
    kind = action.get("type")
    if kind == "bid":
        _no_extra(action, "bid")
        if "bid" not in action:
            raise InvalidAction(_("A bid action needs a 'bid': 'pass', a number of tricks, or 'board'."))
        value = action["bid"]
        if value in ("pass", "board") or is_int(value):
            return "bid", value
        if value in BOARD_NAMES:
            raise InvalidAction(
                _("Bid 'board': its level (double, triple, quadruple) follows from the board bids before it.")
            )
        raise InvalidAction(
            _("%(bid)s is not a bid: bid 'pass', a whole number of tricks, or 'board'."), {"bid": repr(value)}
        )
    if kind == "play":
        _no_extra(action, "card")
        if "card" not in action:
            raise InvalidAction(_("A play action needs a 'card', e.g. 'QH'."))
        text = action["card"]
        if not is_card_code(text):
            raise InvalidAction(
                _("%(text)s is not a card code: write rank then suit (AS, 10D, 2C) or BB / LB for the jokers."),
                {"text": repr(text)},
            )
        return "play", parse(text)
    if kind in ("swap", "discard", "redeal"):
        raise InvalidAction(_("The joker swap and the redeal happen by themselves; there is no such action."))
    raise InvalidAction(
        _("Unknown action type %(kind)s; Back Alley actions are 'bid' and 'play'."), {"kind": repr(kind)}
    )


def _no_extra(action: dict[str, Any], field: str) -> None:
    extra = sorted(str(k) for k in set(action) - {"type", field})
    if extra:
        raise InvalidAction(
            _("Unexpected field(s) in a %(action)s action: %(extra)s."),
            {"action": action["type"], "extra": ", ".join(extra)},
        )
