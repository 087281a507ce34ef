"""The tournaments' two hooks into the match core: a match's end, and the worker's clock tick."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.dispatch import receiver

from games.services import announcements
from tournaments import services

log = logging.getLogger(__name__)


@receiver(announcements.match_finished, dispatch_uid="turnwise-tournament-round")
def close_round_on_last_result(sender: Any, match_id: int, **kwargs: Any) -> None:
    # This runs after the commit of whatever ended the match (a move, a resignation): a failure here
    # must not turn that committed move into an error page. The round stays open (its claim rolled
    # back) and the worker's tick closes it.
    try:
        services.on_match_finished(match_id=match_id)
    except Exception:
        log.exception("Closing the round of match %s failed; the clock tick will retry", match_id)


@receiver(announcements.clock_ticked, dispatch_uid="turnwise-tournament-clock")
def run_schedule(sender: Any, now: datetime, **kwargs: Any) -> dict[str, int]:
    return services.tick(now)
