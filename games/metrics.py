"""Live figures of the move path, counted in this process's memory (no query per move).

Moves per minute for the last hour, and the latest commit-to-push latencies (from the commit of a
change to the moment a socket hands its fragment to the server). With several processes each counts
its own share: the status page says so.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from dataclasses import dataclass

HOUR_SECONDS = 3600
LATENCY_SAMPLES = 2000  # the sliding window: the latest pushes ...
LATENCY_MAX_AGE_SECONDS = 15 * 60  # ... of the last 15 minutes

_lock = threading.Lock()
_moves_by_minute: dict[int, int] = {}
_latencies: deque[tuple[float, float]] = deque(maxlen=LATENCY_SAMPLES)  # (when, seconds)


def record_move(now: float | None = None) -> None:
    minute = int((now or time.time()) // 60)
    with _lock:
        _moves_by_minute[minute] = _moves_by_minute.get(minute, 0) + 1
        if len(_moves_by_minute) > 61:
            for old in [m for m in _moves_by_minute if m <= minute - 60]:
                del _moves_by_minute[old]


def record_push(committed_at: float, now: float | None = None) -> None:
    now = now or time.time()
    # deque.append is atomic; no lock on the hot path.
    _latencies.append((now, max(0.0, now - committed_at)))


@dataclass(frozen=True)
class Snapshot:
    moves_last_hour: int
    pushes_in_window: int
    push_p50_ms: float | None
    push_p99_ms: float | None
    sockets: int


def _percentile(ordered: list[float], fraction: float) -> float:
    # Nearest rank: the smallest sample with at least ``fraction`` of the samples at or below it.
    index = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return ordered[index]


def snapshot(sockets: int, now: float | None = None) -> Snapshot:
    """The figures of the last hour; ``sockets``: the open sockets (``presence.count()``), passed in so
    that this counter module imports nothing of the socket side that records into it."""
    now = now or time.time()
    minute = int(now // 60)
    with _lock:
        # The current minute and the 59 before it: the last hour, to the minute.
        moves = sum(n for m, n in _moves_by_minute.items() if m > minute - 60)
    recent = sorted(s for when, s in list(_latencies) if when >= now - LATENCY_MAX_AGE_SECONDS)
    if not recent:
        return Snapshot(moves, 0, None, None, sockets)
    return Snapshot(moves, len(recent), _percentile(recent, 0.5) * 1000, _percentile(recent, 0.99) * 1000, sockets)
