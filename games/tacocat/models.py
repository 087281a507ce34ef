from __future__ import annotations

from django.db import models

from games.models import Match


class TacocatMatchManager(models.Manager["TacocatMatch"]):
    def get_queryset(self) -> models.QuerySet[TacocatMatch]:
        return super().get_queryset().filter(game="tacocat")


class TacocatMatch(Match):
    """Match rows of this game: ``TacocatMatch.objects`` sees only Tacocat Spelled Backwards."""

    objects = TacocatMatchManager()

    class Meta:
        proxy = True
