"""Tacocat Spelled Backwards's match model and its declaration: all the core knows of the game."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.models import GameMatchManager, Match
from games.registry import Game, GameOption
from games.tacocat import bot, forms, present, rules, text


class TacocatMatch(Match):
    """Match rows of this game: ``TacocatMatch.objects`` sees only Tacocat Spelled Backwards."""

    objects = GameMatchManager()

    class Meta:
        proxy = True

    @staticmethod
    def declare() -> Game:
        return Game(
            name=_("Tacocat Spelled Backwards"),
            engine=rules.engine,
            bot=bot.choose,
            describe_event=text.describe_event,
            parse_form=forms.parse_form,
            seat_label=present.seat_label,
            present=present.present,
            blurb=_(
                "Two players, a cat and a track of seven spaces: duel, attack with sets and runs, "
                "keep your lowest card for the showdown and run the cat into your goal."
            ),
            # Two players: when one runs out of time, the other may claim the win.
            timeout_policy="claim",
            stylesheet="css/tacocat.css",
            options=(
                GameOption(
                    "tie_rule",
                    _("A tied showdown"),
                    [
                        ("stay", _("moves nothing; a new round is dealt on the same space")),
                        ("arrow", _("goes to the player the space's arrow points at")),
                    ],
                    "stay",
                ),
            ),
        )
