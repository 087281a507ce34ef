"""Two simultaneous moves: exactly one wins, on SQLite (no row locks) and on PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connections

from games import services
from games.models import Match, Move
from tests.support import race

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def test_many_threads_at_the_same_version_exactly_one_move_is_applied(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    moves = ["c4", "d3", "e6", "f5"] * (THREADS // 4)
    outcomes = race(
        [
            lambda sq=sq: services.act(match_id=match.pk, user=alice, action={"type": "place", "square": sq}, version=1)
            for sq in moves
        ]
    )

    assert outcomes.count("ok") == 1, outcomes
    assert set(outcomes) == {"ok", "stale"}
    match.refresh_from_db()
    assert match.version == 2
    assert Move.objects.filter(match=match).count() == 1


def test_two_runners_claiming_the_same_computer_move_make_it_once(alice: Any) -> None:
    from django.utils import timezone

    from games.background import bot_worker, bots

    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1})
    services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "d3"}, version=0)
    later = timezone.now() + timezone.timedelta(seconds=60)
    barrier = threading.Barrier(2)
    made: list[bool] = []
    computed: list[str] = []
    finished = threading.Event()

    def compute(bot: Any, view: dict[str, Any], legal: list[dict[str, Any]], budget_s: float, level: str) -> Any:
        # Hold the move until the other runner has tried and given up: only the lease keeps it out. (The
        # version check alone would also leave one move, so counting moves could never fail.)
        computed.append(bot.__module__)
        finished.wait(timeout=30)
        return bot_worker.compute(bot, view, legal, budget_s, level)

    def runner() -> None:
        try:
            barrier.wait()
            made.append(bots.take_turn(match.pk, now=later, compute=compute))
        finally:
            finished.set()
            connections.close_all()

    threads = [threading.Thread(target=runner) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(made) == [False, True]
    assert computed == ["games.reversi.bot"], "both runners computed the move: the lease did not keep one out"
    match.refresh_from_db()
    assert match.version == 2
    assert list(Move.objects.filter(match=match).values_list("seat", flat=True)) == [0, 1]
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
