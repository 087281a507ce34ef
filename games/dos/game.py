"""DOS, as the site knows it: the one definition the registry reads (see docs/adding-a-game.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.definition import GameDefinition
from games.dos import action_forms, analysis, bot, present, rules, text


def rules_examples() -> dict[str, Any]:
    card = present.card
    return {
        "single": {"target": card("R7"), "cards": [card("B7")]},
        "colour": {"target": card("G5"), "cards": [card("G5")]},
        "double": {"target": card("B9"), "cards": [card("B4"), card("B5")]},
        "wild": {"target": card("Y6"), "cards": [card("W2"), card("R4")]},
    }


GAME = GameDefinition(
    name=_("DOS"),
    blurb=_(
        "Two to four players: match numbers in the Center Row with one card or two that add up, "
        "colour matches earn bonuses; first to 200 points wins."
    ),
    engine=rules.engine,
    bot=bot.choose,
    describe_event=text.describe_event,
    card_label=text.card_label,
    present=present.present,
    standing=present.standing,
    parse_form=action_forms.parse_form,
    options=action_forms.OPTIONS,
    analyser=analysis.analyser,
    rules_examples=rules_examples,
    hidden_hands=True,
)
