"""The DOS match form, posted by the board (``dos/board.html``), turned into the engine's action.

One form serves every action of a turn. Its fields:

- ``type``: the pressed button: ``match``, ``draw``, ``finish``, ``place``, ``bonus``, ``skip_bonus`` or
  ``undo``;
- ``cards[]``: the codes of the chosen hand cards (two copies of a code are two entries of that code);
- ``target``: the Center Row position chosen for a match;
- ``declare_<code>`` (one per copy held, up to two, e.g. ``declare_W2``): what a wild card played from
  hand stands for: a colour letter for ``W2``, a value 1-10 for a Wild #. The first chosen copy of a
  code takes the first non-empty one, the second copy the next;
- ``target_declare_<position>``: what a wild Center Row card counts as when that position is the target.

The engine wants the cards of a match in canonical order (two equal wilds by their declarations) and a
declaration exactly where a wild is played, so the parser sorts and maps here and the player never has
to. A JSON ``action`` field (scripts, the API's form twin) is passed through as the core parser does.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry
from games.dos.actions import check_code
from games.dos.cards import COLOURS, WILD_DOS, WILD_VALUES, is_wild
from games.dos.moves import Declaration, card_key
from games.dos.present import card, declaration_field, target_declaration_field
from games.engine import Action, InvalidAction
from games.support import untrusted
from games.support.i18n import LocalNumber

TYPES = ("match", "draw", "finish", "place", "bonus", "skip_bonus", "undo")


def parse_form(data: QueryDict) -> Action:
    """The engine action for a submitted DOS form; ``InvalidAction`` with a player-facing reason."""
    if "action" in data:
        return registry.parse_form(data)
    kind = untrusted.form_type(data, TYPES)
    if kind in ("draw", "finish", "skip_bonus", "undo"):
        return {"type": kind}
    cards = [_code(code) for code in data.getlist("cards[]")]
    if kind in ("place", "bonus"):
        if len(cards) != 1:
            raise InvalidAction(_("Choose exactly one card from your hand to put in the Center Row."))
        return {"type": kind, "card": cards[0]}
    return _parse_match(data, cards)


def _code(value: str) -> str:
    try:
        return check_code(value)
    except InvalidAction:
        raise InvalidAction(_("%(value)s is not a DOS card.") % {"value": repr(value)}) from None


def _parse_match(data: QueryDict, cards: list[str]) -> Action:
    raw_target = data.get("target", "")
    if not raw_target:
        raise InvalidAction(_("Choose the Center Row card to match."))
    try:
        target = int(raw_target)
    except ValueError:
        raise InvalidAction(_("Choose the Center Row card to match.")) from None
    if target < 0:
        raise InvalidAction(_("Choose the Center Row card to match."))
    if not 1 <= len(cards) <= 2:
        raise InvalidAction(_("Choose one or two cards from your hand for a match."))
    pairs: list[tuple[str, Declaration]] = []
    for code, copy in _copies(cards):
        pairs.append((code, _declaration(data, code, copy) if is_wild(code) else None))
    # The engine accepts one spelling of each play: card order, two equal wilds by their declarations.
    pairs.sort(key=lambda pair: card_key(*pair))
    action: Action = {"type": "match", "target": target, "cards": [code for code, _ in pairs]}
    if any(is_wild(code) for code in cards):
        action["declare"] = [declared for _, declared in pairs]
    field = target_declaration_field(target)
    if field in data:
        action["target_declare"] = _target_declaration(data.get(field, ""))
    return action


def _copies(cards: list[str]) -> list[tuple[str, int]]:
    """Each chosen code with its copy number: ``["W2", "R3", "W2"]`` -> ``[("W2", 0), ("R3", 0), ("W2", 1)]``."""
    seen: Counter[str] = Counter()
    numbered = []
    for code in cards:
        numbered.append((code, seen[code]))
        seen[code] += 1
    return numbered


def _declaration(data: QueryDict, code: str, copy: int) -> Declaration:
    given = [value for value in data.getlist(declaration_field(code)) if value]
    value = given[copy] if copy < len(given) else ""
    declared = _declared_value(code, value)
    if declared is None:
        if code == WILD_DOS:
            raise InvalidAction(_("Choose the colour your Wild DOS stands for."))
        raise InvalidAction(
            _("Choose the value (%(low)s to %(high)s) your %(card)s stands for.")
            % {"low": LocalNumber(min(WILD_VALUES)), "high": LocalNumber(max(WILD_VALUES)), "card": card(code)["short"]}
        )
    return declared


def _declared_value(code: str, value: str) -> Declaration:
    if code == WILD_DOS:
        return value if value in COLOURS else None
    if value.isdigit() and int(value) in WILD_VALUES:
        return int(value)
    return None


def _target_declaration(value: str) -> Any:
    if value in COLOURS:
        return value
    if value.isdigit() and int(value) in WILD_VALUES:
        return int(value)
    raise InvalidAction(_("Choose what the wild card in the Center Row counts as."))


# The options the new-match form offers for this game.
OPTIONS = (
    registry.GameOption(
        "target",
        gettext_lazy("Points to win"),
        [
            ("100", gettext_lazy("100 points (short)")),
            ("200", gettext_lazy("200 points (standard)")),
            ("300", gettext_lazy("300 points (long)")),
        ],
        "200",
        int,
    ),
)
