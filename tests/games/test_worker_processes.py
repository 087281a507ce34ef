"""Two worker processes on the same database run the clock work without a double timeout."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Notice, Seat

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]


def worker_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = str(name)
        env.pop("DATABASE_URL", None)
    else:
        user = connection.settings_dict["USER"] or "postgres"
        host = connection.settings_dict["HOST"] or "127.0.0.1"
        port = connection.settings_dict["PORT"] or "5432"
        env["DATABASE_URL"] = f"postgres://{user}@{host}:{port}/{name}"
    return env


def test_two_workers_time_out_a_late_seat_once(alice: Any, bob: Any) -> None:
    matches = []
    for _ in range(5):
        match = services.create_match(user=alice, game="reversi", players=2, pace_seconds=24 * 3600)
        services.join_match(match_id=match.pk, user=bob)
        matches.append(match)
    past = timezone.now() - timedelta(seconds=5)
    Seat.objects.filter(match__in=matches, to_act=True).update(deadline_at=past, warn_at=past)

    command = [sys.executable, "manage.py", "run_worker", "--once"]
    workers = [
        subprocess.Popen(command, cwd=ROOT, env=worker_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [w.communicate(timeout=120) for w in workers]
    for worker, (_out, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err
    timed_out = sum(int(out.split("timed_out=")[1].split()[0]) for out, _err in outputs)
    assert timed_out == 5
    assert Seat.objects.filter(match__in=matches, timed_out=True).count() == 5
    # Each timeout told both players exactly once.
    assert Notice.objects.filter(kind=Notice.Kind.TIMEOUT).count() == 10
