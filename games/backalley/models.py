from __future__ import annotations

from django.db import models

from games.models import Match


class BackAlleyMatchManager(models.Manager["BackAlleyMatch"]):
    def get_queryset(self) -> models.QuerySet[BackAlleyMatch]:
        return super().get_queryset().filter(game="backalley")


class BackAlleyMatch(Match):
    """Match rows of this game: ``BackAlleyMatch.objects`` sees only Back Alley."""

    objects = BackAlleyMatchManager()

    class Meta:
        proxy = True
