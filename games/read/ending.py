"""How a match ended and the score it ended at, for the board, the match page and history rows.

A resignation or a claimed timeout ends a match before the rules engine does, so the result then
carries no score (``detail.forfeit``); the score at the end is the one the board stood at, taken from the
spectator's view of the last state through each game's ``standing`` (its definition's).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry
from games.models import Match, Seat


class How(models.TextChoices):
    NORMAL = "normal", gettext_lazy("played to the end")
    RESIGNED = "resigned", gettext_lazy("resigned")
    TIMEOUT = "timeout", gettext_lazy("ran out of time")
    ABORTED = "aborted", gettext_lazy("called off")


@dataclass(frozen=True)
class Ending:
    how: How
    # A sentence for the page, e.g. "bob resigned.", "Played to the end."
    text: str
    # Per seat, the score at the end; None where the game keeps no running score.
    scores: list[int] | None


def _standing(match: Match) -> list[int] | None:
    if match.state is None:
        return None
    game = registry.get(match.game)
    if game.standing is None:
        return None
    return game.standing(game.engine.view(game.engine.load(match.state), None))


def describe(match: Match, seats: list[Seat]) -> Ending | None:
    """How ``match`` ended, or None while it is waiting or in play."""
    if match.status == Match.Status.ABORTED:
        return Ending(How.ABORTED, _("Called off before the first move."), None)
    if match.status != Match.Status.FINISHED or not match.result:
        return None
    loser = match.result.get("detail", {}).get("forfeit")
    if loser is None:
        return Ending(How.NORMAL, _("Played to the end."), list(match.result["scores"]))
    seat = next(s for s in seats if s.number == loser)
    if seat.left == Seat.Left.TIMED_OUT:
        how, text = How.TIMEOUT, _("%(name)s ran out of time.") % {"name": seat.display_name()}
    else:
        how, text = How.RESIGNED, _("%(name)s resigned.") % {"name": seat.display_name()}
    return Ending(how, text, _standing(match))
