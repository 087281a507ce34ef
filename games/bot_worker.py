"""Computing a computer player's move. Pure: runs in a worker process with no Django set up."""

from __future__ import annotations

import os
import random
import threading
import time

from games.engine import Action, Bot, View

# How often a worker checks that the process that started it is still there.
PARENT_CHECK_SECONDS = 0.5


def compute(bot: Bot, view: View, legal: list[Action], budget_s: float, level: str = "medium") -> Action:
    """The action ``bot`` (a game's declared bot, sent to a worker by reference) picks at ``level``
    (easy, medium, hard), from the seat's view and legal actions."""
    # Fresh entropy: a bot's choices need not be reproducible, and must not derive from the match seed.
    return bot(view, legal, rng=random.Random(), budget_s=budget_s, level=level)


def die_with_parent(parent_pid: int) -> None:
    """Pool initializer: end this worker as soon as the process that started it is gone.

    A server or ``run_worker`` killed with SIGKILL cannot stop its pool, and the worker would wait on
    its queue forever (keeping multiprocessing's resource tracker alive with it). When the parent dies
    the worker is re-parented, so its parent pid changes: a watchdog thread notices and exits. (Not
    PR_SET_PDEATHSIG: it fires when the *thread* that started the worker ends, not the process.)
    """
    if os.getppid() != parent_pid:  # the parent died while this worker was starting
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="parent-watchdog", daemon=True).start()


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_SECONDS)
    # os._exit, not sys.exit: nothing of this process is worth cleaning up, and the main thread may be
    # deep in a search or blocked on the pool's queue.
    os._exit(1)
