"""Computing a computer player's move. Pure: runs in a worker process with no Django set up."""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections.abc import Callable, Iterable

from games.engine import Action, Bot, View

# How often a worker checks that the process that started it is still there.
PARENT_CHECK_SECONDS = 0.5


def compute(bot: Bot, view: View, legal: list[Action], budget_s: float, level: str = "medium") -> Action:
    """The action ``bot`` (a game's declared bot, sent to a worker by reference) picks at ``level``
    (easy, medium, hard), from the seat's view and legal actions."""
    # Fresh entropy: a bot's choices need not be reproducible, and must not derive from the match seed.
    return bot(view, legal, rng=random.Random(), budget_s=budget_s, level=level)


def start(parent_pid: int, warm_ups: Iterable[Callable[[], None]] = ()) -> None:
    """Pool initializer: watch the parent, and warm the games' bots up in the background.

    A warm-up runs in a thread of its own at a lower priority, so the worker takes its first move at
    once (the game's bot copes with not being warm yet) and the warm-up takes no CPU from a search.
    """
    die_with_parent(parent_pid)
    for warm_up in warm_ups:
        threading.Thread(target=_politely, args=(warm_up,), name="bot-warm-up", daemon=True).start()


def start_niced(parent_pid: int) -> None:
    """Pool initializer for work that must yield the CPU to computer moves and pages (post-game
    analyses, ``games.background.analysis``): watch the parent, and run at nice 10."""
    die_with_parent(parent_pid)
    with contextlib.suppress(OSError):
        os.nice(10)


def _politely(warm_up: Callable[[], None]) -> None:
    # On Linux a thread is a task with its own nice value; elsewhere this is skipped.
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    warm_up()


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
