"""DOS's match model: its matches, apart from the other games' (the game itself is in game.py)."""

from __future__ import annotations

from games.models import GameMatchManager, Match


class DosMatch(Match):
    # Match rows of this game: ``DosMatch.objects`` sees only DOS.
    objects = GameMatchManager()

    class Meta:
        proxy = True
