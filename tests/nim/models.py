"""Nim's match model: its matches, apart from the other games' (the game itself is in game.py)."""

from __future__ import annotations

from games.models import GameMatchManager, Match


class NimMatch(Match):
    # Match rows of this game: ``NimMatch.objects`` sees only Nim.
    objects = GameMatchManager()

    class Meta:
        proxy = True
