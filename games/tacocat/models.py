"""Tacocat Spelled Backwards's match model and its declaration: all the core knows of the game."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.models import GameMatchManager, Match
from games.registry import Declaration, GameOption


class TacocatMatch(Match):
    """Match rows of this game: ``TacocatMatch.objects`` sees only Tacocat Spelled Backwards."""

    objects = GameMatchManager()

    class Meta:
        proxy = True

    @staticmethod
    def declare() -> Declaration:
        return Declaration(
            name=_("Tacocat Spelled Backwards"),
            blurb=_(
                "Two players, a cat and a track of seven spaces: duel, attack with sets and runs, "
                "keep your lowest card for the showdown and run the cat into your goal."
            ),
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
