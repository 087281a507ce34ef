"""Tacocat Spelled Backwards's match model: its matches, apart from the other games' (the game itself is
in game.py)."""

from __future__ import annotations

from games.models import GameMatchManager, Match


class TacocatMatch(Match):
    # Match rows of this game: ``TacocatMatch.objects`` sees only Tacocat Spelled Backwards.
    objects = GameMatchManager()

    class Meta:
        proxy = True
