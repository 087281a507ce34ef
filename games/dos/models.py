from __future__ import annotations

from django.db import models

from games.models import Match


class DosMatchManager(models.Manager["DosMatch"]):
    def get_queryset(self) -> models.QuerySet[DosMatch]:
        return super().get_queryset().filter(game="dos")


class DosMatch(Match):
    """Match rows of this game: ``DosMatch.objects`` sees only DOS."""

    objects = DosMatchManager()

    class Meta:
        proxy = True
