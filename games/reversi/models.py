"""Reversi's match model: its matches, apart from the other games' (the game itself is in game.py)."""

from __future__ import annotations

from games.models import GameMatchManager, Match


class ReversiMatch(Match):
    # Match rows of this game: ``ReversiMatch.objects`` sees only Reversi.
    objects = GameMatchManager()

    class Meta:
        proxy = True
