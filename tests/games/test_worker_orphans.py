"""``kill -9`` of ``manage.py run_worker`` leaves no process behind: its bot-compute child (and with it
multiprocessing's resource tracker) exits too."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games import services
from games.models import Move
from tests.games.test_worker_processes import worker_env

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and uses pidfds"),
]

ROOT = Path(__file__).resolve().parents[2]
GENEROUS_S = 120


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # it ended while we looked
            continue
        # Field 4 is the parent pid; the command name (field 2) is in parentheses and may hold spaces.
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def wait_until(condition: Callable[[], bool], worker: subprocess.Popen[Any], what: str) -> None:
    """Wait for ``condition``, checking whenever the worker has not exited for a moment (it must not)."""
    for _ in range(GENEROUS_S * 5):
        if condition():
            return
        try:
            worker.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            continue
        pytest.fail(f"run_worker exited before {what}: {worker.stderr.read() if worker.stderr else ''}")
    pytest.fail(f"timed out waiting for {what}")


def test_killing_the_worker_leaves_no_orphans(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1})
    services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "d3"}, version=0)
    env = {**worker_env(), "BOT_DELAY_SECONDS": "0", "BOT_BUDGET_SECONDS": "0.05", "BOT_SEPARATE_PROCESS": "true"}
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "run_worker"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    spawned: list[int] = []
    pidfds: list[int] = []
    try:
        # The computer's move was computed in the pool's process (spawned with the resource tracker).
        wait_until(lambda: Move.objects.filter(match=match, seat=1).exists(), worker, "the computer's move")
        wait_until(lambda: len(children(worker.pid)) >= 2, worker, "the compute process and resource tracker")
        spawned = children(worker.pid)
        pidfds = [os.pidfd_open(pid) for pid in spawned]

        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=GENEROUS_S)

        # A pidfd turns readable when its process has ended: no polling, no fixed sleep.
        pending = list(pidfds)
        while pending:
            ready, _, _ = select.select(pending, [], [], GENEROUS_S)
            assert ready, f"still running {GENEROUS_S} s after run_worker was killed: {spawned}"
            pending = [fd for fd in pending if fd not in ready]
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
        for fd in pidfds:  # only if the test failed: leave nothing running (a pidfd is never a reused pid)
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(fd, signal.SIGKILL)
            os.close(fd)
        if worker.stderr:
            worker.stderr.close()
