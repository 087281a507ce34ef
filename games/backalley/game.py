"""Back Alley, as the site knows it: the one definition the registry reads (see docs/adding-a-game.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.backalley import action_forms, analysis, bot, present, rules, text
from games.definition import GameDefinition


def rules_examples() -> dict[str, Any]:
    card = present.card
    return {
        "trump_order": [card(c) for c in ("BB", "LB", "AS", "KS", "2S")],
        "trick": [card(c) for c in ("QH", "KH", "3S", "AH")],
    }


GAME = GameDefinition(
    name=_("Back Alley"),
    blurb=_(
        "Four players in two partnerships: bid your tricks, then take them; 25 hands from 13 cards down to 1 and back."
    ),
    engine=rules.engine,
    bot=bot.choose,
    describe_event=text.describe_event,
    card_label=text.card_label,
    present=present.present,
    standing=present.standing,
    seat_label=present.seat_label,
    parse_form=action_forms.parse_form,
    analyser=analysis.analyser,
    rules_examples=rules_examples,
    seating_note=_(
        "Seat 3 is your partner; seats 2 and 4 play against you. "
        "Invite partners or opponents, or let the computer play."
    ),
    teams=((0, 2), (1, 3)),
    hidden_hands=True,
)
