"""Tacocat Spelled Backwards, as the site knows it: the one definition the registry reads (see
docs/adding-a-game.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.definition import GameDefinition
from games.tacocat import action_forms, analysis, bot, present, rules, text

GAME = GameDefinition(
    name=_("Tacocat Spelled Backwards"),
    blurb=_(
        "Two players, a cat and a track of seven spaces: duel, attack with sets and runs, "
        "keep your lowest card for the showdown and run the cat into your goal."
    ),
    engine=rules.engine,
    bot=bot.choose,
    describe_event=text.describe_event,
    card_label=text.card_label,
    present=present.present,
    standing=present.standing,
    seat_label=present.seat_label,
    parse_form=action_forms.parse_form,
    options=action_forms.OPTIONS,
    analyser=analysis.analyser,
    hidden_hands=True,
)
