"""The public status page shows the live move path's figures, counted as moves are made."""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import services
from tests.realtime.helpers import connect, every_query, logged_in_client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def figure(html: str, name: str) -> str:
    found = re.search(rf'data-figure="{name}">([^<]*)<', html)
    assert found, name
    return found.group(1).strip()


async def status_html() -> str:
    response = await sync_to_async(Client().get)("/status/")
    assert response.status_code == 200
    return response.content.decode()


async def test_the_status_page_shows_real_figures_after_some_moves(alice: Any, bob: Any) -> None:
    match = await sync_to_async(services.create_match)(user=alice, game="reversi", players=2)
    await sync_to_async(services.join_match)(match_id=match.pk, user=bob)
    before = await status_html()
    sockets = []
    for user in (alice, bob):
        for path in (f"/ws/match/{match.pk}/", "/ws/me/"):
            ws, ok = await connect(user, path)
            assert ok
            await ws.receive_from(timeout=15)
            sockets.append(ws)
    during = await status_html()
    assert int(figure(during, "sockets")) == int(figure(before, "sockets")) + 4
    clients = {
        alice.pk: await sync_to_async(logged_in_client)(alice),
        bob.pk: await sync_to_async(logged_in_client)(bob),
    }
    version = match.version + 1
    for user, square in ((alice, "d3"), (bob, "c3")):
        response = await sync_to_async(clients[user.pk].post)(
            f"/m/{match.pk}/act/", {"type": "place", "square": square, "version": version}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
        for ws in sockets:
            await ws.receive_from(timeout=15)
        version += 1
    with every_query() as queries:
        after = await status_html()
    assert int(figure(after, "moves-last-hour")) == int(figure(before, "moves-last-hour")) + 2
    assert int(figure(after, "pushes")) >= int(figure(before, "pushes")) + 8
    for name in ("push-p50-ms", "push-p99-ms"):
        assert re.fullmatch(r"\d+(\.\d)? ms", figure(after, name)), figure(after, name)
    assert len(queries) == 0, queries.sql  # an anonymous visitor: the figures come from memory
    for ws in sockets:
        await ws.disconnect()
    assert int(figure(await status_html(), "sockets")) == int(figure(before, "sockets"))


async def test_the_footer_links_to_the_status_page() -> None:
    response = await sync_to_async(Client().get)("/accounts/login/")
    assert 'href="/status/"' in response.content.decode()
