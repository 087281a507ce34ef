"""Tacocat after the end: at each decision of a person's seat, what the hard computer player would
have chosen from that seat's view at the time (``games.kit.analysis.choice_tasks``), never from the
cards the finished match reveals; and, asked again within the same budget, what it would have chosen
knowing the opponent's hand (its search then solves that one hand instead of samples of the unseen
cards; the draw pile stays unknown)."""

from __future__ import annotations

from typing import Any

from games.engine import Action
from games.kit.analysis import Analyser, Record, Task, choice_record, choice_tasks, unmarked
from games.tacocat import bot, rules

BUDGET_S = 0.5  # the hard level's budget per decision in play (BOT_BUDGET_SECONDS' default)


def hands(state: Any) -> list[list[str]]:
    """Both hands as a seat's view writes its own (during a defence the attacker's without the attack)."""
    return [[str(v) for v in hand] for hand in state.hands]


def tasks(states: list[Any], log: list[tuple[int, Action]]) -> list[Task]:
    return choice_tasks(rules.engine, states, log, hands)


def canonical(action: Action) -> tuple[Any, ...]:
    """One decision whatever order its cards were named in; a defence's answers keep their order
    (each answers one attack card)."""
    kind = action.get("type")
    if kind in ("replace", "attack"):
        return (kind, tuple(sorted(str(c) for c in action.get("cards") or [])))
    if kind == "duel":
        return (kind, str(action.get("card")))
    return (kind, tuple(str(c) for c in action.get("answers") or []))


def same(a: Action, b: Action) -> bool:
    return canonical(a) == canonical(b)


def evaluate(task: Task) -> Record:
    return choice_record(bot.choose, task, budget_s=BUDGET_S, same=same)


def describe(action: Action) -> str:
    """A decision as the page says it, in the viewer's language (web side only)."""
    from django.utils.translation import gettext as _

    kind = action.get("type")
    if kind == "replace":
        cards = action.get("cards") or []
        return _("replace %(cards)s") % {"cards": ", ".join(map(str, cards))} if cards else _("keep every card")
    if kind == "duel":
        return _("duel with %(card)s") % {"card": action.get("card")}
    if kind == "attack":
        return _("attack with %(cards)s") % {"cards": ", ".join(map(str, action.get("cards") or []))}
    return _("answer with %(cards)s") % {"cards": ", ".join(map(str, action.get("answers") or []))}


analyser = Analyser(
    tasks=tasks, evaluate=evaluate, mark_best=unmarked, unit="", kind="choice", people_only=True, describe=describe
)
