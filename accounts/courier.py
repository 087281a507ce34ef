"""Deliveries to other machines (pushes, emails), apart from the work that hands them over.

The thread that runs computer players, clocks and the mailer, and the request threads, must never wait
on a push service or a mail server: one that answers a byte every few seconds would hold them for
minutes. They only hand a delivery over (``Courier.submit``, which returns at once); one thread of
this process runs an asyncio loop where each courier makes at most ``concurrency`` deliveries at once
and keeps at most ``max_pending`` waiting (beyond that, a delivery is dropped, and the caller told).
Each delivery carries its own total deadline (see ``accounts.push_delivery`` and
``accounts.mail_delivery``); the outcomes are collected by whoever records them, so this thread never
touches the database.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

_loop_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def _started_loop() -> asyncio.AbstractEventLoop:
    """The delivery thread's loop, started on first use; one per process, shared by every courier."""
    global _loop
    with _loop_lock:
        if _loop is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="turnwise-courier", daemon=True).start()
            _loop = loop
        return _loop


class Courier[T]:
    """One kind of delivery: its own bound on deliveries in flight and waiting, its own outcomes."""

    def __init__(self, name: str, concurrency: int, *, keep_outcomes: bool = True) -> None:
        self.name = name
        self.concurrency = concurrency
        self.keep_outcomes = keep_outcomes
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._slots: asyncio.Semaphore | None = None
        self._pending = 0
        self._outcomes: list[T] = []

    def submit(self, work: Callable[[], Awaitable[T]], *, max_pending: int, if_crashed: T) -> bool:
        """Start ``work()`` on the delivery thread without waiting for it; False (and nothing started)
        if ``max_pending`` deliveries are waiting or in flight already. ``work`` must end within its
        own deadline and should not raise; if it does, ``if_crashed`` is its outcome."""
        with self._lock:
            if self._pending >= max_pending:
                return False
            self._pending += 1
        asyncio.run_coroutine_threadsafe(self._run(work, if_crashed), _started_loop())
        return True

    async def _run(self, work: Callable[[], Awaitable[T]], if_crashed: T) -> None:
        if self._slots is None:  # made on the delivery thread, the only one that touches it
            self._slots = asyncio.Semaphore(self.concurrency)
        result = if_crashed
        try:
            async with self._slots:
                result = await work()
        except Exception:  # a bug in the delivery: it still counts as one, failed
            log.exception("A %s delivery crashed", self.name)
        finally:  # the slot in the count is freed whatever happened, or the queue would fill for good
            with self._lock:
                if self.keep_outcomes:
                    self._outcomes.append(result)
                self._pending -= 1
                self._idle.notify_all()

    def take_outcomes(self) -> list[T]:
        """The outcomes of the deliveries finished since the last call (each handed out once)."""
        with self._lock:
            taken, self._outcomes = self._outcomes, []
        return taken

    def wait_idle(self, timeout: float | None) -> bool:
        """Wait until every delivery handed over has finished; False if ``timeout`` passed first."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)
