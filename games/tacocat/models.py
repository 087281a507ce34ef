"""Tacocat Spelled Backwards's match model and its declaration: all the core knows of the game."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.models import GameMatchManager, Match
from games.registry import Declaration


class TacocatMatch(Match):
    # Match rows of this game: ``TacocatMatch.objects`` sees only Tacocat Spelled Backwards.
    objects = GameMatchManager()

    class Meta:
        proxy = True

    declaration = Declaration(
        name=_("Tacocat Spelled Backwards"),
        blurb=_(
            "Two players, a cat and a track of seven spaces: duel, attack with sets and runs, "
            "keep your lowest card for the showdown and run the cat into your goal."
        ),
        hidden_hands=True,
    )
