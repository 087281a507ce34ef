"""Measure moves per second through the service layer (the whole write path of a move)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import registry, services
from games.models import Match


class Command(BaseCommand):
    help = "Play matches through services.act and report latency per move and queries per move."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--game", default=None, help="a game slug (default: the game offered first)")

    def handle(self, *args: Any, **options: Any) -> None:
        from accounts.models import User

        spec = registry.get(options["game"]) if options["game"] else registry.default_game()
        players = [User.objects.get_or_create(username=f"bench-{n}")[0] for n in range(spec.min_players)]
        engine = spec.engine
        wall: list[float] = []
        cpu: list[float] = []
        queries: list[int] = []
        ids = []
        for _ in range(options["games"]):
            match = services.create_match(user=players[0], game=spec.slug, players=len(players))
            for user in players[1:]:
                services.join_match(match_id=match.pk, user=user)
            ids.append(match.pk)
            users = {s.number: s.user for s in match.seats.select_related("user")}
            match.refresh_from_db()
            while match.status == Match.Status.ACTIVE:
                state = engine.load(match.state)
                seat = engine.to_act(state)[0]
                action = engine.legal_actions(state, seat)[0]
                w0, c0 = time.perf_counter(), time.process_time()
                with CaptureQueriesContext(connection) as captured:
                    match = services.act(match_id=match.pk, user=users[seat], action=action, version=match.version)
                wall.append(time.perf_counter() - w0)
                cpu.append(time.process_time() - c0)
                queries.append(len(captured))
        Match.objects.filter(pk__in=ids).delete()
        wall_ms = sorted(x * 1000 for x in wall)
        self.stdout.write(
            f"services.act on {connection.vendor} ({spec.slug}): {len(wall)} moves; "
            f"wall p50 {statistics.median(wall_ms):.2f} ms, p95 {wall_ms[int(len(wall_ms) * 0.95)]:.2f} ms; "
            f"CPU mean {statistics.mean(cpu) * 1000:.2f} ms; "
            f"queries per move {min(queries)}-{max(queries)}; "
            f"~{1 / statistics.mean(cpu):.0f} moves/s per core (CPU-bound)"
        )
