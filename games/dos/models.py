"""DOS's match model and its declaration: all the core knows of the game."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.dos import present
from games.models import GameMatchManager, Match
from games.registry import Declaration


def rules_examples() -> dict[str, Any]:
    card = present.card
    return {
        "single": {"target": card("R7"), "cards": [card("B7")]},
        "colour": {"target": card("G5"), "cards": [card("G5")]},
        "double": {"target": card("B9"), "cards": [card("B4"), card("B5")]},
        "wild": {"target": card("Y6"), "cards": [card("W2"), card("R4")]},
    }


class DosMatch(Match):
    # Match rows of this game: ``DosMatch.objects`` sees only DOS.
    objects = GameMatchManager()

    class Meta:
        proxy = True

    declaration = Declaration(
        name=_("DOS"),
        blurb=_(
            "Two to four players: match numbers in the Center Row with one card or two that add up, "
            "colour matches earn bonuses; first to 200 points wins."
        ),
        rules_examples=rules_examples,
        hidden_hands=True,
    )
