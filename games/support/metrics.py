"""Live figures of the move path, counted in each process's memory (no query per move).

Moves per minute for the last hour, and the latest commit-to-push latencies (from the commit of a
change to the moment a socket hands its fragment to the server).

The same events also feed Prometheus' figures (``prometheus_client``; ``/metrics``). With
``PROMETHEUS_MULTIPROC_DIR`` set (deploy/stack.py and the systemd units set it), every process writes
its figures to files there and ``/metrics`` adds them up across the web processes and the workers.
The status page reads the same figures (``snapshot``): each process keeps gauges of its own share of
the windows current (``refresh_windows``: its moves of the last hour, its pushes of the window by
latency bucket), Prometheus adds the live processes' shares up, and the percentiles are read off the
summed buckets.
"""

from __future__ import annotations

import bisect
import math
import os
import threading
import time
from collections import deque
from dataclasses import dataclass

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.multiprocess import MultiProcessCollector

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
# The status page's windows, each process's own share (kept current by ``refresh_windows``), summed
# over the live processes. Latency bounds in seconds, fine enough for a median read to the millisecond
# at the usual latencies; the last bucket is everything slower.
WINDOW_BOUNDS = (
    *(n / 1000 for n in (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150, 200)),
    *(n / 1000 for n in (250, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000)),
)
MOVES_LAST_HOUR = Gauge(
    "turnwise_moves_last_hour", "Moves committed in the last hour (the status page)", multiprocess_mode="livesum"
)
PUSH_WINDOW = Gauge(
    "turnwise_push_latency_window",
    "Pushes of the status page's window by latency: those above the previous bound and at most le seconds",
    ["le"],
    multiprocess_mode="livesum",
)
PAGE_SOCKETS = Gauge(
    "turnwise_page_sockets",
    "Sockets open, with an account or without (the status page)",
    multiprocess_mode="livesum",
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
    now = now or time.time()
    RUNNER_LOOP.set(now)
    refresh_windows(now, at_most_every=1.0)  # a worker's computer moves, in the status page's window


_refreshed_at = 0.0


def refresh_windows(now: float | None = None, at_most_every: float = 0.0, sockets: int | None = None) -> None:
    """Set this process's share of the status page's windows (its moves of the last hour, its pushes of
    the window by latency bucket) from its memory; every process that records moves or pushes calls it
    every second or so (the socket sweeper, the runner's loop), so a share decays as its minutes pass.
    ``sockets``: this process's open sockets (``presence.count()``; passed in, so that this counter
    module imports nothing of the socket side that records into it)."""
    global _refreshed_at
    now = now or time.time()
    if sockets is not None:
        PAGE_SOCKETS.set(sockets)
    if at_most_every and 0 <= now - _refreshed_at < at_most_every:
        return
    _refreshed_at = now
    minute = int(now // 60)
    with _lock:
        moves = sum(n for m, n in _moves_by_minute.items() if m > minute - 60)
    counts = [0] * (len(WINDOW_BOUNDS) + 1)
    for when, seconds in list(_latencies):
        if when >= now - LATENCY_MAX_AGE_SECONDS:
            counts[bisect.bisect_left(WINDOW_BOUNDS, seconds)] += 1
    MOVES_LAST_HOUR.set(moves)
    for bound, count in zip((*map(str, WINDOW_BOUNDS), "+Inf"), counts, strict=True):
        PUSH_WINDOW.labels(le=bound).set(count)


@dataclass(frozen=True)
class Snapshot:
    moves_last_hour: int
    pushes_in_window: int
    push_p50_ms: float | None
    push_p99_ms: float | None
    sockets: int


def _quantile(counts: list[float], fraction: float) -> float:
    """Seconds below which ``fraction`` of the pushes counted in ``counts`` (one count per bucket of
    ``WINDOW_BOUNDS``, then the slower ones) fell: the nearest rank's bucket, read linearly between its
    bounds (as Prometheus' ``histogram_quantile``); the slowest bucket reads as its lower bound."""
    rank = max(1, math.ceil(fraction * sum(counts)))
    below = 0.0
    for index, count in enumerate(counts):
        if count and below + count >= rank:
            if index == len(WINDOW_BOUNDS):
                return WINDOW_BOUNDS[-1]
            lower = WINDOW_BOUNDS[index - 1] if index else 0.0
            return lower + (WINDOW_BOUNDS[index] - lower) * (rank - below) / count
        below += count
    return WINDOW_BOUNDS[-1]


def snapshot(sockets: int, now: float | None = None, registry: CollectorRegistry | None = None) -> Snapshot:
    """The figures of the whole site (every live process) from Prometheus' registry: this process's
    share refreshed first (``sockets``: its open sockets), the others' as of their last refresh (a
    second or so ago)."""
    refresh_windows(now, sockets=sockets)
    moves = sockets = 0.0
    counts = [0.0] * (len(WINDOW_BOUNDS) + 1)
    positions = {bound: index for index, bound in enumerate((*map(str, WINDOW_BOUNDS), "+Inf"))}
    for family in (registry or collected()).collect():
        for sample in family.samples:
            if sample.name == "turnwise_moves_last_hour":
                moves += sample.value
            elif sample.name == "turnwise_page_sockets":
                sockets += sample.value
            elif sample.name == "turnwise_push_latency_window" and sample.labels.get("le") in positions:
                counts[positions[sample.labels["le"]]] += sample.value
    pushes = int(sum(counts))
    if not pushes:
        return Snapshot(int(moves), 0, None, None, int(sockets))
    p50, p99 = _quantile(counts, 0.5) * 1000, _quantile(counts, 0.99) * 1000
    return Snapshot(int(moves), pushes, p50, p99, int(sockets))


def collected() -> CollectorRegistry:
    """Prometheus' figures of every process (``PROMETHEUS_MULTIPROC_DIR``: their files added up, in a
    fresh registry each time, as prometheus_client asks), or of this one alone."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        return registry
    return REGISTRY
