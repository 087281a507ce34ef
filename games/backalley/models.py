"""Back Alley's match model and its declaration: all the core knows of the game."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.backalley import bot, present, rules, text, web
from games.models import GameMatchManager, Match
from games.registry import Game


class BackAlleyMatch(Match):
    """Match rows of this game: ``BackAlleyMatch.objects`` sees only Back Alley."""

    objects = GameMatchManager()

    class Meta:
        proxy = True

    @staticmethod
    def declare() -> Game:
        return Game(
            name=_("Back Alley"),
            engine=rules.engine,
            bot=bot.choose,
            describe_event=text.describe_event,
            parse_form=web.parse_form,
            seat_label=present.seat_label,
            present=present.present,
            card_label=text.card_label,
            blurb=_(
                "Four players in two partnerships: bid your tricks, then take them; "
                "25 hands from 13 cards down to 1 and back."
            ),
            # A player who runs out of time is replaced by a computer player; the others play on.
            timeout_policy="substitute",
            stylesheet="css/backalley.css",
            rules_examples=rules_examples,
        )


def rules_examples() -> dict[str, Any]:
    card = present.card
    return {
        "trump_order": [card(c) for c in ("BB", "LB", "AS", "KS", "2S")],
        "trick": [card(c) for c in ("QH", "KH", "3S", "AH")],
    }
