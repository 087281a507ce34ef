"""The background runner: computer seats' moves (through ``services.bot_act``) and the clock work.

Due moves live in the database (``Match.bot_due_at``), so a move that was due when a server stopped is
taken after it restarts. A runner claims a move through ``services.claim_bot_turn`` (a lease), so
with several processes only one computes it; the version check in ``services`` refuses a second move
anyway. The search itself runs in a separate process so it never holds up other requests.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import registry, services
from games.background import analysis, bot_worker
from games.engine import Action, Bot, View
from games.support import metrics

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25
CLOCK_SECONDS = 5.0

# (the game's bot, the seat's view, its legal actions, budget in seconds, level) -> the chosen action
Compute = Callable[[Bot, View, list[Action], float, str], Action]


def take_turn(match_id: int, *, now: datetime | None = None, compute: Compute | None = None) -> bool:
    """Make one due computer move in this match. True if a move was made.

    ``compute`` runs the search: here by default; the runner thread passes one that uses the worker process.
    """
    now = now or timezone.now()
    turn = services.claim_bot_turn(match_id, now)
    if turn is None:
        return False
    metrics.record_bot_claim((now - turn.due_at).total_seconds())
    bot = registry.get(turn.game).bot
    try:
        action = (compute or bot_worker.compute)(bot, turn.view, turn.legal, settings.BOT_BUDGET_SECONDS, turn.level)
        services.bot_act(match_id=turn.match_id, seat=turn.seat, action=action, version=turn.version)
    except services.MatchError as exc:
        # The match moved on (a resignation, another runner): nothing to retry at this version.
        log.info("Computer move in match %s refused: %s", turn.match_id, exc.message)
        services.release_bot_turn(turn)
        return False
    except Exception:
        log.exception("Computer player failed in match %s", turn.match_id)
        services.retry_bot_turn_later(turn)
        return False
    return True


def run_due(*, now: datetime | None = None) -> int:
    """Take every computer move due at ``now``; one move per match per call. Returns the count."""
    now = now or timezone.now()
    return sum(take_turn(mid, now=now) for mid in services.due_match_ids(now))


# --- the in-process runner -----------------------------------------------------------------------
#
# A thread of its own, with its own database connection: never Channels' shared sync thread, which
# serves every socket of the process (a poll or a clock tick there would stall every push).

_wake = threading.Event()
_started = threading.Lock()
_runner: threading.Thread | None = None
_pool: ProcessPoolExecutor | None = None


def wake() -> None:
    """Ask this process's runner to look for due moves now (called after a commit, from any thread)."""
    _wake.set()


def start_runner() -> None:
    """Start this process's runner thread, once."""
    global _runner
    with _started:
        if _runner is not None and _runner.is_alive():
            return
        _runner = threading.Thread(target=run_forever, name="turnwise-bots", daemon=True)
        _runner.start()
    # Post-game analyses run beside the computer players, on a thread and a process of their own.
    analysis.start_runner()


def _pool_executor() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # spawn: a forked copy of a threaded server process can inherit held locks. The initializer
        # makes the worker exit when this process dies, even by SIGKILL (no orphans), and warms the
        # bots up (a game may compile its search there: seconds of CPU, once per worker).
        warm_ups = tuple(game.warm_up for game in registry.all_games() if game.warm_up and settings.BOT_WARM_UP)
        _pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=bot_worker.start,
            initargs=(os.getpid(), warm_ups),
        )
    return _pool


def start_worker() -> None:
    """Start the worker process now (a no-op task makes the pool spawn it), so its warm-ups (Reversi
    compiles its search: seconds of CPU) run while nothing is due, not after the first move falls due."""
    if settings.BOT_SEPARATE_PROCESS:
        _pool_executor().submit(os.getpid)


def _compute_elsewhere(bot: Bot, view: View, legal: list[Action], budget: float, level: str) -> Action:
    """The bot's search, in the worker process (so a search never holds the interpreter here)."""
    global _pool
    if not settings.BOT_SEPARATE_PROCESS:
        return bot_worker.compute(bot, view, legal, budget, level)
    try:
        return _pool_executor().submit(bot_worker.compute, bot, view, legal, budget, level).result()
    except BrokenProcessPool:
        log.exception("The computer players' worker process died; starting a new one")
        _pool = None
        raise


def run_forever(poll_seconds: float = POLL_SECONDS) -> None:
    """Computer moves as they fall due, and the clock work every few seconds (blocking; a thread)."""
    from games.background import clock

    try:
        start_worker()
    except Exception:  # A move that falls due starts it again.
        log.exception("Could not start the computer players' worker process")
    next_clock = time.monotonic()
    while True:
        # Read by /healthz/: a runner that stopped going round (a hung database call) shows as stale.
        metrics.record_runner_loop()
        try:
            for match_id in services.due_match_ids(timezone.now()):
                take_turn(match_id, compute=_compute_elsewhere)
            if time.monotonic() >= next_clock:
                next_clock = time.monotonic() + CLOCK_SECONDS
                clock.tick(timezone.now())
        except Exception:  # The database may be briefly away; keep the loop alive.
            log.exception("Bot runner iteration failed")
            connection.close()
        else:
            # Keep one connection on SQLite (closing the last one costs a WAL checkpoint); give it
            # back to the pool elsewhere.
            if connection.vendor != "sqlite":
                connection.close()
        _wake.wait(timeout=poll_seconds)
        _wake.clear()
