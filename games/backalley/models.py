"""Back Alley's match model: its matches, apart from the other games' (the game itself is in game.py)."""

from __future__ import annotations

from games.models import GameMatchManager, Match


class BackAlleyMatch(Match):
    # Match rows of this game: ``BackAlleyMatch.objects`` sees only Back Alley.
    objects = GameMatchManager()

    class Meta:
        proxy = True
