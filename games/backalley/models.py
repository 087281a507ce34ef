"""Back Alley's match model and its declaration: all the core knows of the game."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.backalley import present
from games.models import GameMatchManager, Match
from games.registry import Declaration


def rules_examples() -> dict[str, Any]:
    card = present.card
    return {
        "trump_order": [card(c) for c in ("BB", "LB", "AS", "KS", "2S")],
        "trick": [card(c) for c in ("QH", "KH", "3S", "AH")],
    }


class BackAlleyMatch(Match):
    # Match rows of this game: ``BackAlleyMatch.objects`` sees only Back Alley.
    objects = GameMatchManager()

    class Meta:
        proxy = True

    declaration = Declaration(
        name=_("Back Alley"),
        blurb=_(
            "Four players in two partnerships: bid your tricks, then take them; "
            "25 hands from 13 cards down to 1 and back."
        ),
        rules_examples=rules_examples,
        seating_note=_(
            "Seat 3 is your partner; seats 2 and 4 play against you. "
            "Invite partners or opponents, or let the computer play."
        ),
        teams=((0, 2), (1, 3)),
        hidden_hands=True,
    )
