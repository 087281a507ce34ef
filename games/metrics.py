"""Live figures of the move path, counted in this process's memory (no query per move).

Moves per minute for the last hour, and the latest commit-to-push latencies (from the commit of a
change to the moment a socket hands its fragment to the server). With several processes each counts
its own share: the status page says so.

The same events also feed Prometheus' counters (``prometheus_client``; ``/metrics``). With
``PROMETHEUS_MULTIPROC_DIR`` set (deploy/stack.py and the systemd units set it), every process writes
its figures to files there and ``/metrics`` adds them up across the web processes and the workers.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from dataclasses import dataclass

from prometheus_client import Counter, Gauge, Histogram

HOUR_SECONDS = 3600
LATENCY_SAMPLES = 2000  # the sliding window: the latest pushes ...
LATENCY_MAX_AGE_SECONDS = 15 * 60  # ... of the last 15 minutes

# Prometheus' figures, summed over every process by /metrics (config/health.py).
REQUESTS = Counter("turnwise_http_requests", "HTTP requests answered", ["method", "status"])
MOVES = Counter("turnwise_moves", "Moves committed and announced")
PUSH_LATENCY = Histogram(
    "turnwise_push_latency_seconds",
    "From a move's commit to a socket handing its fragment to the server",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
SOCKETS = Gauge("turnwise_sockets", "Signed-in sockets open", multiprocess_mode="livesum")
BOT_QUEUE_DELAY = Histogram(
    "turnwise_bot_queue_delay_seconds",
    "From the moment a computer move falls due to the moment a runner claims it",
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
)
RUNNER_LOOP = Gauge(
    "turnwise_runner_last_loop_timestamp_seconds",
    "When a computer-player runner last went round its loop (Unix time)",
    multiprocess_mode="max",
)

_lock = threading.Lock()
_moves_by_minute: dict[int, int] = {}
_latencies: deque[tuple[float, float]] = deque(maxlen=LATENCY_SAMPLES)  # (when, seconds)


def record_move(now: float | None = None) -> None:
    MOVES.inc()
    minute = int((now or time.time()) // 60)
    with _lock:
        _moves_by_minute[minute] = _moves_by_minute.get(minute, 0) + 1
        if len(_moves_by_minute) > 61:
            for old in [m for m in _moves_by_minute if m <= minute - 60]:
                del _moves_by_minute[old]


def record_push(committed_at: float, now: float | None = None) -> None:
    now = now or time.time()
    latency = max(0.0, now - committed_at)
    # deque.append is atomic; no lock on the hot path.
    _latencies.append((now, latency))
    PUSH_LATENCY.observe(latency)


def record_bot_claim(due_seconds_ago: float) -> None:
    BOT_QUEUE_DELAY.observe(max(0.0, due_seconds_ago))


def record_runner_loop(now: float | None = None) -> None:
    RUNNER_LOOP.set(now or time.time())


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
