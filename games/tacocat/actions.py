"""Parsing Tacocat actions and options from the wire: the well-formedness checks (``InvalidAction``).

Card codes are the strings "1".."12"; each card has exactly one spelling, so actions compare equal to
the engine's ``legal_actions``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import InvalidAction
from games.engine import gettext_noop as _
from games.tacocat.cards import (
    ARROWS,
    CENTRE_HAND,
    CODES,
    DECK_SIZE,
    DEFAULT_CONFIG,
    MAX_HAND,
    MIN_HAND,
    OPTION_KEYS,
    POSITIONS,
    TIE_RULES,
    VALUES,
    Config,
)

FIELDS = {"replace": "cards", "duel": "card", "attack": "cards", "defend": "answers"}


def parse_action(action: Any) -> tuple[str, Any]:
    """``(type, payload)`` of a well-formed action; InvalidAction otherwise. Payload cards are values."""
    if not isinstance(action, dict):
        raise InvalidAction(_("An action must be an object such as {'type': 'duel', 'card': '7'}."))
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise InvalidAction(
            _("Unknown action type %(kind)s; use replace, duel, attack or defend."), {"kind": repr(kind)}
        )
    field = FIELDS[kind]
    extra = sorted(map(str, set(action) - {"type", field}))
    if extra:
        raise InvalidAction(
            _("Unexpected field(s) in this %(kind)s action: %(extra)s."), {"kind": kind, "extra": ", ".join(extra)}
        )
    if field not in action:
        if kind == "replace":
            # An HTML form with no box ticked sends no field at all: that is "keep every card".
            return kind, ()
        raise InvalidAction(_("This %(kind)s action needs '%(field)s'."), {"kind": kind, "field": field})
    if kind == "duel":
        return kind, parse_code(action[field], "The duel card")
    return kind, parse_codes(action[field], field)


def parse_code(raw: Any, what: str = "A card") -> int:
    """The value of a card code; strict, so each card has exactly one spelling."""
    if isinstance(raw, str) and raw in CODES:
        return CODES[raw]
    raise InvalidAction(
        _("%(what)s must be a card code, the string '1' to '12', not %(raw)s."), {"what": what, "raw": repr(raw)}
    )


def parse_codes(raw: Any, field: str) -> tuple[int, ...]:
    if not isinstance(raw, list):
        raise InvalidAction(_("'%(field)s' must be a list of card codes such as ['3', '12']."), {"field": field})
    return tuple(parse_code(item, f"Each entry of '{field}'") for item in raw)


def _parse_distribution(raw: Any) -> tuple[int, ...]:
    if not isinstance(raw, dict):
        raise InvalidAction(_("The distribution must be an object mapping each value '1'..'12' to its copies."))
    copies = dict.fromkeys(VALUES, 0)
    for key, count in raw.items():
        # JSON turns keys into strings; Python callers may use ints. Both name the same value.
        value: int | None = None
        if isinstance(key, str):
            value = CODES.get(key)
        elif isinstance(key, int) and not isinstance(key, bool) and key in VALUES:
            value = key
        if value is None:
            raise InvalidAction(_("The distribution names %(key)s, but card values are 1 to 12."), {"key": repr(key)})
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise InvalidAction(
                _("The distribution gives value %(value)s %(count)s copies; use a whole number >= 0."),
                {"value": value, "count": repr(count)},
            )
        copies[value] = count
    total = sum(copies.values())
    if total != DECK_SIZE:
        raise InvalidAction(
            _("The distribution has %(total)s cards; the deck has exactly %(deck_size)s."),
            {"total": total, "deck_size": DECK_SIZE},
        )
    return tuple(copies[v] for v in VALUES)


def _parse_board(raw: Any) -> tuple[tuple[int, ...], tuple[str, ...]]:
    if not isinstance(raw, list) or len(raw) != len(POSITIONS):
        raise InvalidAction(
            _(
                "The board must list the 7 spaces from seat 0's end to seat 1's end, each as {'hand_size': 2..9, "
                "'arrow': 'A', 'B' or 'both'}."
            )
        )
    sizes: list[int] = []
    arrows: list[str] = []
    for position, space in zip(POSITIONS, raw, strict=True):
        if not isinstance(space, dict) or set(space) != {"hand_size", "arrow"}:
            raise InvalidAction(
                _("Space %(position)s must be an object with exactly 'hand_size' and 'arrow'."),
                {"position": format(position, "+d")},
            )
        size, arrow = space["hand_size"], space["arrow"]
        if not isinstance(size, int) or isinstance(size, bool) or not MIN_HAND <= size <= MAX_HAND:
            raise InvalidAction(
                _(
                    "Space %(position)s has hand size %(size)s; it must be %(min_hand)s to %(max_hand)s (above 9 the "
                    "draw pile could run out, TAC-E1)."
                ),
                {"position": format(position, "+d"), "size": repr(size), "min_hand": MIN_HAND, "max_hand": MAX_HAND},
            )
        if arrow not in ARROWS:
            raise InvalidAction(
                _("Space %(position)s has arrow %(arrow)s; use 'A', 'B' or 'both'."),
                {"position": format(position, "+d"), "arrow": repr(arrow)},
            )
        sizes.append(size)
        arrows.append(arrow)
    # TAC-2: the centre is known from the seed (7 cards, both replace freely); refuse to contradict it.
    if sizes[3] != CENTRE_HAND or arrows[3] != "both":
        raise InvalidAction(_("The centre space is known: hand size 7 and arrow 'both'."))
    return tuple(sizes), tuple(arrows)


def _parse_deck(raw: Any, config: Config) -> tuple[int, ...]:
    stacked = parse_codes(raw, "deck")
    available = Counter(config.deck())
    used = Counter(stacked)
    for value in sorted(used):
        if used[value] > available[value]:
            raise InvalidAction(
                _("The deck option has %(used)s cards of value %(value)s, but the deck holds %(available)s."),
                {"used": used[value], "value": value, "available": available[value]},
            )
    return stacked


def parse_options(options: dict[str, Any] | None) -> tuple[Config, tuple[int, ...] | None]:
    """The match's Config and the stacked start of the first deal (None if not stacked)."""
    if options is None:
        return DEFAULT_CONFIG, None
    if not isinstance(options, dict):
        raise InvalidAction(_("Options must be an object."))
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise InvalidAction(_("Unknown option(s): %(unknown)s."), {"unknown": ", ".join(map(str, unknown))})
    distribution = DEFAULT_CONFIG.distribution
    if "distribution" in options:
        distribution = _parse_distribution(options["distribution"])
    sizes, arrows = DEFAULT_CONFIG.hand_sizes, DEFAULT_CONFIG.arrows
    if "board" in options:
        sizes, arrows = _parse_board(options["board"])
    tie_rule = options.get("tie_rule", "stay")
    if tie_rule not in TIE_RULES:
        raise InvalidAction(_("tie_rule must be 'stay' or 'arrow', not %(tie_rule)s."), {"tie_rule": repr(tie_rule)})
    config = Config(distribution, sizes, arrows, tie_rule)
    stacked = _parse_deck(options["deck"], config) if "deck" in options else None
    return config, stacked
