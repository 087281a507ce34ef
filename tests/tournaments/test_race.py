"""Two processes finishing the last matches of a round at once pair the next round exactly once."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections
from django.utils import timezone

from games import services as match_services
from games.models import Match
from tests.support import race
from tournaments import services
from tournaments.models import Entry, Pairing, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 6


def _started(organiser: Any, users: list[Any]) -> Tournament:
    t = services.create_tournament(
        organiser=organiser,
        name="Race",
        game="reversi",
        format=Tournament.Format.SWISS,
        rounds=3,
        pace_seconds=24 * 3600,
        round_seconds=3 * 24 * 3600,
        rated=False,
        starts_at=timezone.now(),
        min_entries=2,
        max_entries=8,
        is_public=True,
    )
    for user in users:
        services.register(tournament_id=t.pk, user=user)
    services.start(tournament_id=t.pk, now=timezone.now(), by=organiser)
    return t


def _losers(t: Tournament) -> list[tuple[int, Any]]:
    pairings = Pairing.objects.filter(round__tournament=t, round__number=1).order_by("board")
    return [(p.match_id, Entry.objects.get(pk=p.sides[1]).user) for p in pairings]


def test_the_last_two_results_at_once_pair_round_two_once(make_user: Any) -> None:
    users = [make_user(n) for n in ("ann", "ben", "cat", "dan")]
    t = _started(users[0], users)
    outcomes = race([lambda m=m, u=u: match_services.resign(match_id=m, user=u) for m, u in _losers(t)])
    assert outcomes == ["ok", "ok"]
    assert list(Round.objects.filter(tournament=t).values_list("number", "status")) == [
        (1, Round.Status.DONE),
        (2, Round.Status.ACTIVE),
    ]
    assert Pairing.objects.filter(round__tournament=t, round__number=2).count() == 2
    assert Match.objects.filter(tournament_pairing__round__number=2).count() == 2


def test_many_processes_closing_one_finished_round_pair_the_next_once(make_user: Any) -> None:
    """The round's status is the claim: every caller sees all matches over, one pairs round two."""
    users = [make_user(n) for n in ("ann", "ben", "cat", "dan")]
    t = _started(users[0], users)
    round_one = Round.objects.get(tournament=t, number=1)
    # End the matches without the hook (as if each process stopped right after its commit).
    receivers = match_services.announcements.match_finished.receivers
    match_services.announcements.match_finished.receivers = []
    try:
        for match_id, loser in _losers(t):
            match_services.resign(match_id=match_id, user=loser)
    finally:
        match_services.announcements.match_finished.receivers = receivers
    assert Round.objects.filter(tournament=t).count() == 1
    barrier = threading.Barrier(THREADS)
    done: list[bool] = []
    lock = threading.Lock()

    def close() -> None:
        try:
            barrier.wait()
            result = services.close_round(round_id=round_one.pk, now=timezone.now())
        finally:
            connections.close_all()
        with lock:
            done.append(result)

    threads = [threading.Thread(target=close) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(done) == [False] * (THREADS - 1) + [True]
    assert Round.objects.filter(tournament=t).count() == 2
    assert Pairing.objects.filter(round__tournament=t, round__number=2).count() == 2


def test_the_organiser_and_the_clock_starting_at_once_pair_round_one_once(make_user: Any) -> None:
    users = [make_user(n) for n in ("ann", "ben", "cat", "dan")]
    now = timezone.now()
    t = services.create_tournament(
        organiser=users[0],
        name="Start race",
        game="reversi",
        format=Tournament.Format.SWISS,
        rounds=3,
        pace_seconds=24 * 3600,
        round_seconds=3 * 24 * 3600,
        rated=False,
        starts_at=now,
        min_entries=2,
        max_entries=8,
        is_public=True,
    )
    for user in users:
        services.register(tournament_id=t.pk, user=user)
    barrier = threading.Barrier(THREADS)
    started: list[bool] = []
    lock = threading.Lock()

    def go(i: int) -> None:
        try:
            barrier.wait()
            result = services.start(tournament_id=t.pk, now=now, by=users[0] if i % 2 else None)
        finally:
            connections.close_all()
        with lock:
            started.append(result)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(started) == [False] * (THREADS - 1) + [True]
    assert Round.objects.filter(tournament=t).count() == 1
    assert Match.objects.filter(tournament_pairing__tournament=t).count() == 2
