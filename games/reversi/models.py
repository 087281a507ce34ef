"""Reversi's match model and its declaration: all the core knows of the game."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.models import GameMatchManager, Match
from games.registry import Declaration
from games.reversi import board, present, rules


def rules_examples() -> dict[str, Any]:
    """The opening and Black's f5, from the engine itself: what the board shows before and after."""
    start = rules.engine.new_game(2, 0, {})
    after = rules.engine.apply(start, 0, {"type": "place", "square": "f5"})
    return {
        "start": present.present(rules.engine.view(start, None), None),
        "after": present.present(rules.engine.view(after, None), None),
        "after_view": rules.engine.view(after, None),
    }


class ReversiMatch(Match):
    # Match rows of this game: ``ReversiMatch.objects`` sees only Reversi.
    objects = GameMatchManager()

    class Meta:
        proxy = True

    declaration = Declaration(
        name=_("Reversi"),
        transcript=board.transcript,
        blurb=_("Two players, 8 by 8: outflank and flip your opponent's discs."),
        rules_examples=rules_examples,
        offered_first=True,
        shuffles=False,
    )
