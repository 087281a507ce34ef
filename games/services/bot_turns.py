"""The bot runner's lease on a due computer move: claimed, released, or put off after an error.

A runner claims a move with a conditional update, so of several runners polling the same row only one
gets it; a crashed runner's lease expires. These are the only writes of ``bot_due_at`` and
``bot_lease_until`` outside a move (``base.after_change`` sets them when a turn changes).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from games import registry
from games.engine import Action, View
from games.models import Match

LEASE = timedelta(seconds=30)
RETRY_AFTER_ERROR = timedelta(seconds=30)


@dataclass(frozen=True)
class BotTurn:
    """What a claimed computer seat may see, and what it needs to choose."""

    match_id: int
    game: str
    version: int
    seat: int
    level: str
    view: View
    legal: list[Action]
    due_at: datetime


def _due(now: datetime) -> Q:
    return Q(status=Match.Status.ACTIVE, bot_due_at__lte=now) & (
        Q(bot_lease_until__isnull=True) | Q(bot_lease_until__lt=now)
    )


def due_match_ids(now: datetime, limit: int = 20) -> list[int]:
    return list(Match.objects.filter(_due(now)).order_by("bot_due_at").values_list("pk", flat=True)[:limit])


def claim_bot_turn(match_id: int, now: datetime) -> BotTurn | None:
    """Lease the due computer move of a match, or None if it is not due or another runner has it."""
    if not Match.objects.filter(_due(now), pk=match_id).update(bot_lease_until=now + LEASE):
        return None
    match = Match.objects.get(pk=match_id)
    bot_seats = list(match.seats.filter(is_bot=True, to_act=True).values_list("number", "bot_level"))
    if not bot_seats:
        Match.objects.filter(pk=match_id).update(bot_due_at=None, bot_lease_until=None)
        return None
    engine = registry.get(match.game).engine
    state = engine.load(match.state)
    seat, level = bot_seats[0]
    return BotTurn(
        match_id=match.pk,
        game=match.game,
        version=match.version,
        seat=seat,
        level=level,
        view=engine.view(state, seat),
        legal=engine.legal_actions(state, seat),
        due_at=match.bot_due_at,
    )


def release_bot_turn(turn: BotTurn) -> None:
    """The move was refused (the match moved on): give the lease back if nothing has changed since."""
    Match.objects.filter(pk=turn.match_id, version=turn.version).update(bot_lease_until=None)


def retry_bot_turn_later(turn: BotTurn) -> None:
    """The bot failed: try again after a pause rather than in a tight loop."""
    Match.objects.filter(pk=turn.match_id).update(bot_due_at=timezone.now() + RETRY_AFTER_ERROR, bot_lease_until=None)
