"""DOS after the end: at each decision of a person's seat, what the hard computer player would have
chosen from that seat's view at the time (``games.kit.analysis.choice_tasks``), never from the cards
the finished match reveals; and, asked again within the same budget, what it would have chosen with
every other hand known (its playouts deal only the draw and discard piles, whose order stays
unknown)."""

from __future__ import annotations

from typing import Any

from games.dos import bot, rules
from games.engine import Action
from games.kit.analysis import Analyser, Record, Task, choice_record, choice_tasks, unmarked

BUDGET_S = 0.5  # the hard level's budget per decision in play (BOT_BUDGET_SECONDS' default)


def hands(state: Any) -> list[list[str]]:
    """Every seat's hand as its view writes it."""
    return [list(hand) for hand in state.hands]


def tasks(states: list[Any], log: list[tuple[int, Action]]) -> list[Task]:
    return choice_tasks(rules.engine, states, log, hands)


def canonical(action: Action) -> tuple[Any, ...]:
    """One decision whatever order its cards were named in (each card keeps what it was declared)."""
    kind = action.get("type")
    if kind != "match":
        return (kind, action.get("card"))
    cards = [str(c) for c in action.get("cards") or []]
    declare = list(action.get("declare") or []) + [None] * len(cards)
    pairs = sorted(zip(cards, (str(d) if d is not None else "" for d in declare), strict=False))
    target_declare = action.get("target_declare")
    return (kind, action.get("target"), tuple(pairs), None if target_declare is None else str(target_declare))


def same(a: Action, b: Action) -> bool:
    return canonical(a) == canonical(b)


def evaluate(task: Task) -> Record:
    return choice_record(bot.choose, task, budget_s=BUDGET_S, same=same)


def describe(action: Action) -> str:
    """A decision as the page says it, in the viewer's language (web side only)."""
    from django.utils.translation import gettext as _

    from games.dos import text
    from games.support.i18n import digits

    kind = action.get("type")
    if kind == "match":
        cards = action.get("cards") or []
        declare = list(action.get("declare") or []) + [None] * len(cards)
        named = ", ".join(text.card_label(str(c), d) for c, d in zip(cards, declare, strict=False))
        return _("match %(cards)s on Center Row card %(n)s") % {"cards": named, "n": digits(int(action["target"]) + 1)}
    if kind == "draw":
        return _("draw a card")
    if kind == "finish":
        return _("end the turn")
    if kind == "place":
        return _("place %(card)s on the Center Row") % {"card": action.get("card")}
    if kind == "bonus":
        return _("place %(card)s as a bonus") % {"card": action.get("card")}
    return _("skip the bonus placement")


analyser = Analyser(
    tasks=tasks, evaluate=evaluate, mark_best=unmarked, unit="", kind="choice", people_only=True, describe=describe
)
