"""The status page's figures are the whole site's: Prometheus' figures of every live process, added up.

Two real processes share a ``PROMETHEUS_MULTIPROC_DIR`` as the recipe's web processes do; each records
moves and pushes into its own memory and refreshes its share (as its socket sweeper does every
second); the figures are then read as the status page reads them, and again once one process has
gone and the supervisor has pruned its files.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector

from games.support import metrics
from tests.deploy.support import ROOT, stack

CHILD = """
import os, sys, time
import django
django.setup()
from games.support import metrics
moves, latency, pushes, sockets = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
now = time.time()
for _ in range(moves):
    metrics.record_move(now)
for _ in range(pushes):
    metrics.record_push(now - latency, now)
metrics.refresh_windows(now, sockets=sockets)
print("ready", flush=True)
sys.stdin.readline()
"""


def _process(directory: Path, moves: int, latency: float, pushes: int, sockets: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory), "DJANGO_SETTINGS_MODULE": "config.settings"}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(moves), str(latency), str(pushes), str(sockets)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    return child


def _site_figures(directory: Path) -> metrics.Snapshot:
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(directory))
    # This test's own process is not one of the site's (it writes no files): only the two children count.
    return metrics.snapshot(sockets=0, registry=registry)


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for child in started:
        if child.poll() is None:
            child.kill()
            child.wait(10)


def test_the_status_figures_add_up_every_live_process(tmp_path: Path, processes: list[subprocess.Popen[str]]) -> None:
    # Latencies inside buckets (8-10 ms, 15-20 ms), not on a bound a rounding could move them across.
    processes.append(_process(tmp_path, moves=3, latency=0.009, pushes=10, sockets=2))
    processes.append(_process(tmp_path, moves=2, latency=0.019, pushes=10, sockets=3))
    both = _site_figures(tmp_path)
    assert (both.moves_last_hour, both.pushes_in_window, both.sockets) == (5, 20, 5)
    # Read off the summed buckets as Prometheus' histogram_quantile does: the median is the 10th of 20
    # pushes, the last of the 8-10 ms bucket; the 99th percentile the 20th, the last of the 15-20 ms one.
    assert both.push_p50_ms == pytest.approx(10.0) and both.push_p99_ms == pytest.approx(20.0)

    gone = processes.pop()
    gone.kill()
    gone.wait(10)
    stack.prune_dead_process_metrics(tmp_path)  # what the supervisor (or systemd's ExecStopPost) does
    one = _site_figures(tmp_path)
    assert (one.moves_last_hour, one.pushes_in_window, one.sockets) == (3, 10, 2)
    # The 5th of 10 pushes in the 8-10 ms bucket: halfway through it; the 10th: its top.
    assert one.push_p50_ms == pytest.approx(9.0) and one.push_p99_ms == pytest.approx(10.0)


def test_a_process_share_of_the_last_hour_decays_as_its_minutes_pass() -> None:
    """The shares are gauges each process keeps current: moves older than the hour, pushes older than
    the window, drop out at the next refresh even if nothing else happens."""
    registry = CollectorRegistry()  # this process's gauges are read through a registry of their own
    for gauge in (metrics.MOVES_LAST_HOUR, metrics.PUSH_WINDOW, metrics.PAGE_SOCKETS):
        registry.register(gauge)
    try:
        start = time.time()
        before = metrics.snapshot(sockets=1, now=start, registry=registry)
        metrics.record_move(start)
        metrics.record_push(start - 0.005, start)
        now = metrics.snapshot(sockets=1, now=start + 1, registry=registry)
        assert (now.moves_last_hour, now.pushes_in_window) == (before.moves_last_hour + 1, before.pushes_in_window + 1)
        later = metrics.snapshot(sockets=1, now=start + metrics.HOUR_SECONDS + 61, registry=registry)
        assert (later.moves_last_hour, later.pushes_in_window) == (0, 0)
    finally:
        for gauge in (metrics.MOVES_LAST_HOUR, metrics.PUSH_WINDOW, metrics.PAGE_SOCKETS):
            registry.unregister(gauge)
