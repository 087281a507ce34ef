"""What a move costs: a small constant number of queries for the POST and every push, and nothing
per open socket (the announcer renders once per seat; consumers forward bytes)."""

from __future__ import annotations

import time
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games import services
from games.live import realtime
from games.models import Match
from games.read import pages
from tests.realtime.helpers import connect, every_query, logged_in_client, sync_thread_calls

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MOVE_QUERY_BUDGET = 10


@pytest.fixture
def cast(alice: Any, bob: Any, carol: Any) -> dict[str, Any]:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return {"alice": alice, "bob": bob, "carol": carol, "match": match}


async def open_pages(cast: dict[str, Any], *names: str) -> dict[str, Any]:
    """Each named person's match page socket and badge socket, with their first frames read."""
    sockets = {}
    for name in names:
        for kind, path in (("match", f"/ws/match/{cast['match'].pk}/"), ("me", "/ws/me/")):
            ws, ok = await connect(cast[name], path)
            assert ok
            await ws.receive_from(timeout=15)
            sockets[f"{name}-{kind}"] = ws
    return sockets


async def test_a_whole_move_with_both_players_pages_open_costs_at_most_ten_queries(cast: dict[str, Any]) -> None:
    match = cast["match"]
    sockets = await open_pages(cast, "alice", "bob")
    client = await sync_to_async(logged_in_client)(cast["alice"])
    with every_query() as queries:
        response = await sync_to_async(client.post)(
            f"/m/{match.pk}/act/", {"type": "place", "square": "d3", "version": match.version}, HTTP_HX_REQUEST="true"
        )
        pushed = {name: await ws.receive_from(timeout=15) for name, ws in sockets.items()}
    assert response.status_code == 200
    version = match.version + 1
    assert f'data-version="{version}"' in response.content.decode()
    assert f'data-version="{version}"' in pushed["alice-match"] and f'data-version="{version}"' in pushed["bob-match"]
    assert "Your turn." in pushed["bob-match"] and "Your turn." not in pushed["alice-match"]
    assert 'data-count="1"' in pushed["bob-me"] and 'data-count="0"' in pushed["alice-me"]
    assert len(queries) <= MOVE_QUERY_BUDGET, "\n".join(queries.sql)
    for ws in sockets.values():
        assert await ws.receive_nothing()
        await ws.disconnect()


async def test_the_movers_reply_is_the_render_its_own_page_is_pushed(cast: dict[str, Any]) -> None:
    match = cast["match"]
    sockets = await open_pages(cast, "alice")
    client = await sync_to_async(logged_in_client)(cast["alice"])
    response = await sync_to_async(client.post)(
        f"/m/{match.pk}/act/", {"type": "place", "square": "d3", "version": match.version}, HTTP_HX_REQUEST="true"
    )
    assert response.content.decode() == await sockets["alice-match"].receive_from(timeout=15)
    for ws in sockets.values():
        await ws.disconnect()


async def test_more_open_pages_cost_no_more_queries(cast: dict[str, Any]) -> None:
    """Spectators and extra tabs add no query to a move: the cost does not grow with the audience."""
    match = cast["match"]
    few = await open_pages(cast, "alice", "bob")
    with every_query() as first:
        await sync_to_async(services.act)(
            match_id=match.pk, user=cast["alice"], action={"type": "place", "square": "d3"}, version=match.version
        )
        for ws in few.values():
            await ws.receive_from(timeout=15)
    many = [await connect(cast["carol"], f"/ws/match/{match.pk}/") for _ in range(10)]
    many += [await connect(cast["bob"], f"/ws/match/{match.pk}/") for _ in range(5)]
    for ws, ok in many:
        assert ok
        await ws.receive_from(timeout=15)
    with every_query() as second:
        await sync_to_async(services.act)(
            match_id=match.pk, user=cast["bob"], action={"type": "place", "square": "c3"}, version=match.version + 1
        )
        for ws in few.values():
            await ws.receive_from(timeout=15)
        for ws, _ in many:
            assert f'data-version="{match.version + 2}"' in await ws.receive_from(timeout=15)
    assert len(second) == len(first)
    for ws in [*few.values(), *(ws for ws, _ in many)]:
        await ws.disconnect()


async def test_a_consumer_forwards_a_pushed_update_without_any_query(cast: dict[str, Any]) -> None:
    match = cast["match"]
    sockets = await open_pages(cast, "alice", "bob")
    carol_ws, _ = await connect(cast["carol"], f"/ws/match/{match.pk}/")
    await carol_ws.receive_from(timeout=15)
    layer = get_channel_layer()
    version = match.version + 1
    with every_query() as queries, sync_thread_calls() as hops:
        for name in ("alice", "bob"):
            user_id = cast[name].pk
            await layer.group_send(
                realtime.match_user_group(match.pk, user_id),
                {"type": "match.fragment", "version": version, "html": f"seat of {name}", "at": time.time()},
            )
            await layer.group_send(
                realtime.user_group(user_id),
                {"type": "turns.changed", "count": 3, "html": f"badge of {name}", "at": time.time()},
            )
        await layer.group_send(
            realtime.match_watch_group(match.pk, "en"),
            {"type": "match.fragment", "version": version, "html": "spectators", "at": time.time(), "seated": []},
        )
        await layer.group_send(
            realtime.match_group(match.pk, "en"), {"type": "chat.fragment", "html": "chat", "at": 0.0}
        )
        got = {
            name: [await ws.receive_from(timeout=15), await ws.receive_from(timeout=15)]
            for name, ws in sockets.items()
            if name.endswith("match")
        }
        got["alice-me"] = [await sockets["alice-me"].receive_from(timeout=15)]
        got["bob-me"] = [await sockets["bob-me"].receive_from(timeout=15)]
        got["carol"] = [await carol_ws.receive_from(timeout=15), await carol_ws.receive_from(timeout=15)]
    assert len(queries) == 0, queries.sql
    assert hops == []  # not even a hop through Channels' shared sync thread
    assert got == {
        "alice-match": ["seat of alice", "chat"],
        "bob-match": ["seat of bob", "chat"],
        "alice-me": ["badge of alice"],
        "bob-me": ["badge of bob"],
        "carol": ["spectators", "chat"],
    }
    for ws in [*sockets.values(), carol_ws]:
        await ws.disconnect()


async def test_an_older_or_repeated_version_is_never_forwarded(cast: dict[str, Any]) -> None:
    match = cast["match"]
    alice_ws, _ = await connect(cast["alice"], f"/ws/match/{match.pk}/")
    await alice_ws.receive_from(timeout=15)
    layer = get_channel_layer()
    group = realtime.match_user_group(match.pk, cast["alice"].pk)
    for version, html in ((match.version + 1, "new"), (match.version + 1, "again"), (match.version, "old")):
        await layer.group_send(group, {"type": "match.fragment", "version": version, "html": html, "at": 0.0})
    assert await alice_ws.receive_from(timeout=15) == "new"
    assert await alice_ws.receive_nothing()
    await alice_ws.disconnect()


async def test_a_page_that_missed_a_version_renders_the_current_state_for_itself(cast: dict[str, Any]) -> None:
    match = cast["match"]
    alice_ws, _ = await connect(cast["alice"], f"/ws/match/{match.pk}/")
    await alice_ws.receive_from(timeout=15)
    await sync_to_async(Match.objects.filter(pk=match.pk).update)(version=match.version + 1)
    layer = get_channel_layer()
    await layer.group_send(
        realtime.match_user_group(match.pk, cast["alice"].pk),
        {"type": "match.fragment", "version": match.version + 2, "html": "two ahead", "at": 0.0},
    )
    resynced = await alice_ws.receive_from(timeout=15)
    assert f'data-version="{match.version + 1}"' in resynced and 'id="match-body"' in resynced
    await alice_ws.disconnect()


async def test_the_site_s_channel_layer_knows_which_groups_have_members() -> None:
    """One process (the in-memory layer) or several (Redis pub/sub: a process subscribes to a group
    while one of its sockets is in it): the announcer can tell whether anyone watches."""
    assert isinstance(get_channel_layer(), realtime.LocalChannelLayer | realtime.PubSubChannelLayer)


async def test_the_spectators_fragment_is_rendered_only_while_a_spectator_watches(cast: dict[str, Any]) -> None:
    """The announcer knows whether anyone watches, and renders the spectators' view only then."""
    match = cast["match"]
    players = await open_pages(cast, "alice", "bob")
    with mock.patch.object(pages, "render_fragment", wraps=pages.render_fragment) as renders:
        await sync_to_async(services.act)(
            match_id=match.pk, user=cast["alice"], action={"type": "place", "square": "d3"}, version=match.version
        )
    assert renders.call_count == 2  # the two seats only
    for name in ("alice-match", "bob-match"):
        assert f'data-version="{match.version + 1}"' in await players[name].receive_from(timeout=15)
    carol, connected = await connect(cast["carol"], f"/ws/match/{match.pk}/")
    assert connected
    assert f'data-version="{match.version + 1}"' in await carol.receive_from(timeout=15)
    with mock.patch.object(pages, "render_fragment", wraps=pages.render_fragment) as renders:
        await sync_to_async(services.act)(
            match_id=match.pk, user=cast["bob"], action={"type": "place", "square": "c3"}, version=match.version + 1
        )
    assert renders.call_count == 3
    pushed = await carol.receive_from(timeout=15)
    assert f'data-version="{match.version + 2}"' in pushed and "Your turn." not in pushed
    for ws in [*players.values(), carol]:
        await ws.disconnect()


async def test_spectators_and_chat_are_rendered_in_each_watching_language_once(cast: dict[str, Any]) -> None:
    """A Nepali spectator is pushed a Nepali view: the shared renders come once per language read."""
    from django.utils.translation import get_language

    match = cast["match"]
    carol = cast["carol"]
    carol.language = "ne"
    await sync_to_async(carol.save)(update_fields=["language"])
    players = await open_pages(cast, "alice", "bob")
    watcher, connected = await connect(carol, f"/ws/match/{match.pk}/")
    assert connected
    await watcher.receive_from(timeout=15)
    rendered_in: list[str] = []

    def fragment(context: dict[str, Any]) -> str:
        rendered_in.append(f"{'seat' if context.get('seat') is not None else 'watch'}:{get_language()}")
        return real_fragment(context)

    real_fragment = pages.render_fragment
    with mock.patch.object(pages, "render_fragment", side_effect=fragment):
        await sync_to_async(services.act)(
            match_id=match.pk, user=cast["alice"], action={"type": "place", "square": "d3"}, version=match.version
        )
    # Only the language watched.
    assert sorted(rendered_in) == ["seat:en", "seat:en", "watch:ne"]
    assert f'data-version="{match.version + 1}"' in await watcher.receive_from(timeout=15)

    chat_in: list[str] = []
    real_string = pages.render_to_string

    def chat_log(template: str, context: dict[str, Any]) -> str:
        chat_in.append(get_language())
        return real_string(template, context)

    with mock.patch.object(pages, "render_to_string", side_effect=chat_log):
        await sync_to_async(realtime.announce_chat)(match.pk)
    assert sorted(chat_in) == ["en", "ne"]
    assert 'id="chat-log"' in await watcher.receive_from(timeout=15)
    for ws in [*players.values(), watcher]:
        await ws.disconnect()
