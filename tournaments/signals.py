"""The tournaments' two hooks into the match core: a match's end, and the worker's clock tick."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.dispatch import receiver

from games.services import events
from tournaments import services


@receiver(events.match_finished, dispatch_uid="turnwise-tournament-round")
def close_round_on_last_result(sender: Any, match_id: int, **kwargs: Any) -> None:
    services.on_match_finished(match_id=match_id)


@receiver(events.clock_ticked, dispatch_uid="turnwise-tournament-clock")
def run_schedule(sender: Any, now: datetime, **kwargs: Any) -> dict[str, int]:
    return services.tick(now)
