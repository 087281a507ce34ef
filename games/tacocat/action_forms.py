"""The Tacocat board's forms (``tacocat/board.html``), turned into the engine's actions.

Every form posts ``type`` (``replace``, ``duel``, ``attack`` or ``defend``) and:

- ``replace``: ``cards[]``, the ticked cards (none ticked = keep every card); a ``keep`` button
  keeps every card whatever is ticked;
- ``duel``: ``card``, the chosen card;
- ``attack``: ``cards[]``, the ticked cards, or ``jumbo`` (a button carrying the cards of one jumbo
  attack, space-separated), which wins over the ticks;
- ``defend``: ``answers[]`` (one button per answer to a single card), or one select per attack card,
  ``answer_0`` .. ``answer_<k-1>`` in the order of the attack's cards (sorted ascending), each a card
  code or ``sacrifice``. A hidden ``hand`` field lists the defender's hand, so the sacrifices can be
  filled in with the lowest cards left once the defences are set aside (the rules file's UI note to
  TAC-9). The engine checks the resulting answers against the real hand: a forged ``hand`` can only
  produce an answer the engine refuses or one the player could have sent anyway.

A JSON ``action`` field (scripts, the API's form twin) is passed through as the core parser does.
"""

from __future__ import annotations

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry
from games.engine import Action, InvalidAction
from games.support import untrusted
from games.tacocat.cards import CODES

TYPES = ("replace", "duel", "attack", "defend")
SACRIFICE = "sacrifice"
MAX_ANSWERS = 38


def parse_form(data: QueryDict) -> Action:
    """The engine action for a submitted Tacocat form; ``InvalidAction`` with a player-facing reason."""
    if "action" in data:
        return registry.parse_form(data)
    kind = untrusted.form_type(data, TYPES)
    if kind == "replace":
        if data.get("keep"):
            return {"type": "replace", "cards": []}
        return {"type": "replace", "cards": data.getlist("cards[]")}
    if kind == "duel":
        card = data.get("card", "")
        if not card:
            raise InvalidAction(_("Choose a card for the duel."))
        return {"type": "duel", "card": card}
    if kind == "attack":
        cards = data["jumbo"].split() if data.get("jumbo") else data.getlist("cards[]")
        if not cards:
            raise InvalidAction(_("Tick the card or cards to attack with."))
        return {"type": "attack", "cards": cards}
    if "answers[]" in data:
        return {"type": "defend", "answers": data.getlist("answers[]")}
    return {"type": "defend", "answers": _answers(data)}


def _value(code: str) -> int:
    if code not in CODES:
        raise InvalidAction(_("%(code)s is not a card.") % {"code": repr(code)})
    return CODES[code]


def _answers(data: QueryDict) -> list[str]:
    """Answers from the per-card selects, sacrifices filled with the lowest cards left over."""
    chosen: list[str] = []
    while f"answer_{len(chosen)}" in data and len(chosen) < MAX_ANSWERS:
        chosen.append(data[f"answer_{len(chosen)}"])
    if not chosen or "" in chosen:
        raise InvalidAction(_("Choose an answer for every attack card."))
    left = sorted((_value(code) for code in data.get("hand", "").split()), reverse=True)
    for code in chosen:
        if code != SACRIFICE and _value(code) in left:
            left.remove(_value(code))
    # The lowest cards left go to the highest attack cards (the last selects): a low card that still
    # beats a low attack card then counts as a defence, and the rest are exactly the lowest cards, as
    # TAC-9 requires.
    for i in reversed(range(len(chosen))):
        if chosen[i] == SACRIFICE:
            if not left:
                raise InvalidAction(_("You have no card left to sacrifice."))
            chosen[i] = str(left.pop())
    return chosen


# The options the new-match form offers for this game.
OPTIONS = (
    registry.GameOption(
        "tie_rule",
        gettext_lazy("A tied showdown"),
        [
            ("stay", gettext_lazy("moves nothing; a new round is dealt on the same space")),
            ("arrow", gettext_lazy("goes to the player the space's arrow points at")),
        ],
        "stay",
    ),
)
