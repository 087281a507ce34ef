"""Back Alley after the end: at each bid and play of a person's seat, what the hard computer player
would have chosen from that seat's view at the time (``games.kit.analysis.choice_tasks``), never from
the hands the finished match reveals; and, asked again within the same budget, what it would have
chosen with the other three hands known (its bid plays out the one true deal instead of 64 sampled
ones; its card play reads the hands as facts instead of inferring them)."""

from __future__ import annotations

from typing import Any

from games.backalley import bot, rules
from games.backalley.cards import code
from games.engine import Action
from games.kit.analysis import Analyser, Record, Task, choice_record, choice_tasks, unmarked

# The hard level's budget per decision, as the site gives it in play (BOT_BUDGET_SECONDS' default):
# its bids simulate 10,000 card plays; its card play needs well under a millisecond.
BUDGET_S = 0.5


def hands(state: Any) -> list[list[str]]:
    """Every seat's hand as card codes, as a seat's view writes its own."""
    return [[code(card) for card in hand] for hand in state.hands]


def tasks(states: list[Any], log: list[tuple[int, Action]]) -> list[Task]:
    return choice_tasks(rules.engine, states, log, hands)


def evaluate(task: Task) -> Record:
    return choice_record(bot.choose, task, budget_s=BUDGET_S)


def describe(action: Action) -> str:
    """A bid or a card as the table says it, in the viewer's language (web side only)."""
    from django.utils.translation import gettext as _

    from games.backalley import text

    if action.get("type") == "bid":
        return _("bid %(bid)s") % {"bid": text.bid_label(action["bid"])}
    return _("play %(card)s") % {"card": text.card_label(str(action.get("card")))}


def bids_and_tricks(final_state: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Each deal's bids against the tricks taken, team by team, from the score sheet (web side only)."""
    from django.utils.translation import gettext as _

    from games.backalley import present, text
    from games.support.i18n import digits

    rows = []
    for row in rules.engine.load(final_state).score_sheet:
        for team in (0, 1):
            bids = ", ".join(f"{names[seat]} {text.bid_label(row.bids[seat].label())}" for seat in (team, team + 2))
            contract = present.contract_text(row.contracts[team].json())
            rows.append(
                [
                    digits(row.deal),
                    text.team_label(team, names),
                    bids,
                    contract["long"] if contract else "",
                    digits(row.tricks[team]),
                    _("made") if row.points[team] >= 0 else _("failed"),
                ]
            )
    return {
        "title": _("Bids and tricks taken"),
        "headers": [_("Deal"), _("Team"), _("Bids"), _("Contract"), _("Tricks taken"), _("Contract made")],
        "rows": rows,
    }


analyser = Analyser(
    tasks=tasks,
    evaluate=evaluate,
    mark_best=unmarked,
    unit="",
    kind="choice",
    people_only=True,
    describe=describe,
    extra_table=bids_and_tricks,
)
