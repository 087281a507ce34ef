"""Nim, as the site knows it: the one definition the registry reads (see docs/adding-a-game.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.definition import GameDefinition
from tests.nim import bot, rules, text

GAME = GameDefinition(
    name=_("Nim"),
    blurb=_("Two players, one heap: take 1 to 3 stones; take the last to win."),
    engine=rules.engine,
    bot=bot.choose,
    describe_event=text.describe_event,
)
