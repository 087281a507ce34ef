from __future__ import annotations

from django.db import models

from games.models import Match


class ReversiMatchManager(models.Manager["ReversiMatch"]):
    def get_queryset(self) -> models.QuerySet[ReversiMatch]:
        return super().get_queryset().filter(game="reversi")


class ReversiMatch(Match):
    """Match rows of this game: ``ReversiMatch.objects`` sees only Reversi."""

    objects = ReversiMatchManager()

    class Meta:
        proxy = True
