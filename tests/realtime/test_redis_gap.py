"""Pages catch up after a gap in the channel layer: Redis killed and started again mid-match.

A move made while Redis is down is committed but reaches no page (pub/sub keeps no messages). Once
Redis is back, the layer subscribes again to what its sockets watch; the next move's push then
carries a version more than one ahead of what each page shows, and each page renders the current
state for itself from the database (``MatchConsumer.resync``): nothing is lost. The layer here is
production's (``games.live.realtime.PubSubChannelLayer``) on a private redis-server on a free port, so
the test can kill it without disturbing anything else.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from django.test import override_settings

from games import services
from tests.realtime.helpers import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class PrivateRedis:
    def __init__(self, workdir: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port: int = probe.getsockname()[1]
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                *("--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
                *("--dir", str(self.workdir)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        for _ in range(200):
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()  # SIGKILL: no goodbye to the subscribers
        self.process.wait(10)

    def subscriptions(self) -> set[bytes]:
        try:
            return set(redis.Redis(port=self.port).pubsub_channels())
        except redis.ConnectionError:
            return set()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is needed (Debian's redis-server package; .ci/run installs it)")
    server = PrivateRedis(tmp_path)
    server.start()
    layers = {
        "default": {
            "BACKEND": "games.live.realtime.PubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": f"redis://127.0.0.1:{server.port}/0"}], "prefix": "gap-test"},
        }
    }
    try:
        with override_settings(CHANNEL_LAYERS=layers):
            yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()


async def _until(what: str, condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not await sync_to_async(condition)():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


async def test_pages_catch_up_after_redis_was_restarted(alice: Any, bob: Any, private_redis: PrivateRedis) -> None:
    match = await sync_to_async(services.create_match)(user=alice, game="reversi", players=2)
    await sync_to_async(services.join_match)(match_id=match.pk, user=bob)
    await sync_to_async(match.refresh_from_db)()
    start = match.version
    pages = {}
    for user in (alice, bob):
        ws, connected = await connect(user, f"/ws/match/{match.pk}/")
        assert connected
        assert f'data-version="{start}"' in await ws.receive_from(timeout=15)
        pages[user.username] = ws
    subscribed = await sync_to_async(private_redis.subscriptions)()
    assert subscribed, "the layer subscribed to nothing in Redis"

    # The gap: Redis is killed, and alice moves meanwhile. The move is kept; no page hears of it.
    await sync_to_async(private_redis.kill)()
    await sync_to_async(services.act)(
        match_id=match.pk, user=alice, action={"type": "place", "square": "d3"}, version=start
    )
    for ws in pages.values():
        assert await ws.receive_nothing(timeout=0.5)

    # Redis is back (empty: pub/sub keeps nothing); the layer subscribes again to what its pages watch.
    await sync_to_async(private_redis.start)()
    await _until("the layer to subscribe again", lambda: private_redis.subscriptions() >= subscribed)

    # Bob's move is pushed; each page sees it is two versions ahead of what it shows and renders the
    # current state from the database, alice's move included.
    await sync_to_async(services.act)(
        match_id=match.pk, user=bob, action={"type": "place", "square": "c3"}, version=start + 1
    )
    for name, ws in pages.items():
        caught_up = await ws.receive_from(timeout=15)
        assert f'data-version="{start + 2}"' in caught_up, name
        assert 'id="match-body"' in caught_up, name  # the whole match body, rendered for this page
    for ws in pages.values():
        await ws.disconnect()
