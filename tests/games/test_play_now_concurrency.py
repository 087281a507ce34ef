"""Play now pairs every seek into at most one match, with threads and processes pairing at once."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from django.utils import timezone

from games.models import Match, Seat, Seek
from games.services import pairing
from tests.games.test_worker_processes import ROOT, worker_env
from tests.support import race

pytestmark = pytest.mark.django_db(transaction=True)


def assert_each_seek_in_at_most_one_match() -> None:
    for match in Match.objects.all():
        users = set(Seat.objects.filter(match=match).values_list("user_id", flat=True))
        paired = set(Seek.objects.filter(match=match).values_list("user_id", flat=True))
        assert users == paired, f"match {match.pk} seats {users}, its seeks are {paired}"
        assert len(users) == match.player_count
    # One seek per player here: a player in two matches means a seek was used twice.
    seated = Counter(Seat.objects.values_list("user_id", flat=True))
    assert all(n == 1 for n in seated.values()), seated
    assert not Seek.objects.filter(status=Seek.Status.PAIRED, match__isnull=True).exists()


def test_seeks_posted_and_paired_from_many_threads_at_once(make_user: Any) -> None:
    players = [make_user(f"p{n}") for n in range(8)]
    calls = [
        lambda u=u: pairing.post_seek(user=u, game="reversi", players=2, pace_seconds=None, rated=False)
        for u in players
    ]
    calls += [lambda: pairing.pair_waiting() for _ in range(4)]

    outcomes = race(calls)

    assert outcomes == ["ok"] * len(calls)
    # On PostgreSQL a seek a busy pairer held may have been skipped; the next tick pairs it.
    pairing.pair_waiting()
    assert Seek.objects.filter(status=Seek.Status.PAIRED).count() == 8
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 4
    assert_each_seek_in_at_most_one_match()


def test_three_worker_processes_pair_each_seek_once(make_user: Any) -> None:
    now = timezone.now()
    for n in range(12):
        Seek.objects.create(
            user=make_user(f"w{n}"), game="dos", players=3, pace_seconds=None, rated=False, rating=1500, created_at=now
        )

    command = [sys.executable, "manage.py", "run_worker", "--once"]
    workers = [
        subprocess.Popen(command, cwd=ROOT, env=worker_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outputs = [w.communicate(timeout=120) for w in workers]
    for worker, (_out, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err

    paired = sum(int(out.split("paired=")[1].split()[0]) for out, _err in outputs)
    assert paired == Match.objects.count() == 4
    assert Seek.objects.filter(status=Seek.Status.PAIRED).count() == 12
    assert_each_seek_in_at_most_one_match()


def test_ten_requests_sent_at_once_keep_only_the_cap_open(alice: Any) -> None:
    kinds = [(game, pace) for game in ("reversi", "tacocat") for pace in (None, 600, 86400, 259200, 604800)]
    outcomes = race(
        [
            lambda g=game, p=pace: pairing.post_seek(user=alice, game=g, players=2, pace_seconds=p, rated=False)
            for game, pace in kinds
        ]
    )

    assert sorted(outcomes) == ["ok"] * pairing.MAX_OPEN_SEEKS + ["rate_limited"] * (10 - pairing.MAX_OPEN_SEEKS)
    assert Seek.objects.filter(user=alice, status=Seek.Status.OPEN).count() == pairing.MAX_OPEN_SEEKS
