"""Reversi, as the site knows it: the one definition the registry reads (see docs/adding-a-game.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.definition import GameDefinition
from games.reversi import analysis, board, bot, present, rules, text


def rules_examples() -> dict[str, Any]:
    """The opening and Black's f5, from the engine itself: what the board shows before and after."""
    start = rules.engine.new_game(2, 0, {})
    after = rules.engine.apply(start, 0, {"type": "place", "square": "f5"})
    return {
        "start": present.present(rules.engine.view(start, None), None),
        "after": present.present(rules.engine.view(after, None), None),
        "after_view": rules.engine.view(after, None),
    }


GAME = GameDefinition(
    name=_("Reversi"),
    blurb=_("Two players, 8 by 8: outflank and flip your opponent's discs."),
    engine=rules.engine,
    bot=bot.choose,
    warm_up=bot.warm_up,
    describe_event=text.describe_event,
    present=present.present,
    standing=present.standing,
    seat_label=present.seat_label,
    analyser=analysis.analyser,
    transcript=board.transcript,
    rules_examples=rules_examples,
    offered_first=True,
    shuffles=False,
)
