"""Nim's match model and its declaration (see docs/adding-a-game.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.models import GameMatchManager, Match
from games.registry import Declaration


class NimMatch(Match):
    # Match rows of this game: ``NimMatch.objects`` sees only Nim.
    objects = GameMatchManager()

    class Meta:
        proxy = True

    declaration = Declaration(
        name=_("Nim"), blurb=_("Two players, one heap: take 1 to 3 stones; take the last to win.")
    )
