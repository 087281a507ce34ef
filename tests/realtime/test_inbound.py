"""Clients have nothing to say on a socket: inbound frames cost nothing, and sockets per person are capped."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.live import presence
from tests.realtime.helpers import connect, every_query

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_two_thousand_inbound_frames_cause_no_query_and_no_reply(alice: Any) -> None:
    match = await services_create(alice)
    match_ws, _ = await connect(alice, f"/ws/match/{match.pk}/")
    me_ws, _ = await connect(alice, "/ws/me/")
    await match_ws.receive_from(timeout=15)
    await me_ws.receive_from(timeout=15)
    with every_query() as queries:
        for n in range(2000):
            await match_ws.send_to(text_data=f'{{"type": "place", "square": "d3", "n": {n}}}')
            await me_ws.send_to(bytes_data=b"x")
        await handled_in_silence(match_ws)
        await handled_in_silence(me_ws)
    assert len(queries) == 0, queries.sql
    await match_ws.disconnect()
    await me_ws.disconnect()


async def handled_in_silence(ws: Any, patience_seconds: float = 30.0) -> None:
    """Wait until the consumer has taken every frame sent to it, asserting it answers none."""
    waited = 0.0
    while not ws.input_queue.empty() and waited < patience_seconds:
        assert await ws.receive_nothing(timeout=0.05)
        waited += 0.05
    assert ws.input_queue.empty()
    assert await ws.receive_nothing()


async def services_create(user: Any) -> Any:
    from asgiref.sync import sync_to_async

    return await sync_to_async(services.create_match)(user=user, game="reversi", players=2)


async def test_a_person_may_hold_only_so_many_sockets_at_once(alice: Any, bob: Any) -> None:
    sockets = []
    for _ in range(presence.MAX_SOCKETS_PER_USER):
        ws, connected = await connect(alice, "/ws/me/")
        assert connected
        await ws.receive_from(timeout=15)
        sockets.append(ws)
    _, connected = await connect(alice, "/ws/me/")
    assert not connected
    _, bob_connected = await connect(bob, "/ws/me/")  # the cap is per person
    assert bob_connected
    await sockets.pop().disconnect()
    again, connected = await connect(alice, "/ws/me/")
    assert connected
    for ws in [*sockets, again]:
        await ws.disconnect()
