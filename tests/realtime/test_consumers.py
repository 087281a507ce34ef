"""WebSocket consumers: each page gets its own seat's fragment; sockets never change a match."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import router
from games import services
from games.models import Match
from tests.games.test_engine_contract import GAMES
from tests.realtime.helpers import GOOD_ORIGIN, connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ANONYMOUS_HEADERS = [(b"origin", GOOD_ORIGIN), (b"host", b"testserver")]


@pytest.fixture
def cast(alice: Any, bob: Any, carol: Any) -> dict[str, Any]:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return {"alice": alice, "bob": bob, "carol": carol, "match": match}


async def test_each_seat_gets_its_own_fragment_after_a_move(cast: dict[str, Any]) -> None:
    match = cast["match"]
    path = f"/ws/match/{match.pk}/"
    alice_ws, ok_a = await connect(cast["alice"], path)
    bob_ws, ok_b = await connect(cast["bob"], path)
    assert ok_a and ok_b
    first_alice = await alice_ws.receive_from(timeout=15)
    first_bob = await bob_ws.receive_from(timeout=15)
    assert 'id="match-body"' in first_alice
    assert "Your turn." in first_alice and "Your turn." not in first_bob

    await sync_to_async(services.act)(
        match_id=match.pk, user=cast["alice"], action={"type": "place", "square": "d3"}, version=match.version
    )
    pushed_alice = await alice_ws.receive_from(timeout=15)
    pushed_bob = await bob_ws.receive_from(timeout=15)
    assert f'data-version="{match.version + 1}"' in pushed_alice
    assert f'data-version="{match.version + 1}"' in pushed_bob
    assert "Your turn." in pushed_bob and "Your turn." not in pushed_alice
    assert await alice_ws.receive_nothing()
    await alice_ws.disconnect()
    await bob_ws.disconnect()


async def test_a_reconnecting_page_gets_the_full_current_state(cast: dict[str, Any]) -> None:
    match = cast["match"]
    path = f"/ws/match/{match.pk}/"
    bob_ws, _ = await connect(cast["bob"], path)
    await bob_ws.receive_from(timeout=15)
    await bob_ws.disconnect()
    await sync_to_async(services.act)(
        match_id=match.pk, user=cast["alice"], action={"type": "place", "square": "d3"}, version=match.version
    )
    bob_ws, _ = await connect(cast["bob"], path)
    state = await bob_ws.receive_from(timeout=15)
    assert f'data-version="{match.version + 1}"' in state
    assert 'aria-label="d3, black, last move"' in state
    await bob_ws.disconnect()


async def test_an_outsider_may_watch_a_public_match_but_never_act(cast: dict[str, Any]) -> None:
    match = cast["match"]
    carol_ws, connected = await connect(cast["carol"], f"/ws/match/{match.pk}/")
    assert connected
    fragment = await carol_ws.receive_from(timeout=15)
    assert "Your turn." not in fragment
    assert 'name="square"' in fragment
    assert "sq legal" not in fragment  # a spectator's board offers no moves
    await carol_ws.send_to(text_data=f'{{"type": "place", "square": "d3", "version": {match.version}}}')
    assert await carol_ws.receive_nothing()  # a socket is read-only: the frame is ignored
    refreshed = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert refreshed.version == match.version and refreshed.move_count == 0
    await carol_ws.disconnect()


async def test_a_player_sending_a_move_over_the_socket_changes_nothing(cast: dict[str, Any]) -> None:
    match = cast["match"]
    alice_ws, _ = await connect(cast["alice"], f"/ws/match/{match.pk}/")
    await alice_ws.receive_from(timeout=15)
    await alice_ws.send_to(text_data='{"type": "place", "square": "d3"}')
    assert await alice_ws.receive_nothing()
    refreshed = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert refreshed.move_count == 0
    await alice_ws.disconnect()


async def test_an_outsider_cannot_watch_an_invite_only_match(alice: Any, carol: Any) -> None:
    match = await sync_to_async(services.create_match)(user=alice, game="reversi", players=2, is_public=False)
    _, connected = await connect(carol, f"/ws/match/{match.pk}/")
    assert not connected


async def test_an_anonymous_socket_is_refused(alice: Any) -> None:
    """Except to watch a public match (open spectating, below): a private match, or the badge."""
    private = await sync_to_async(services.create_match)(user=alice, game="reversi", players=2, is_public=False)
    _, connected = await connect(None, f"/ws/match/{private.pk}/")
    assert not connected
    _, connected = await connect(None, "/ws/me/")
    assert not connected


async def test_without_an_account_a_private_match_is_refused_as_a_missing_one(alice: Any) -> None:
    private = await sync_to_async(services.create_match)(user=alice, game="reversi", players=2, is_public=False)
    refusals = []
    for match_id in (private.pk, 987654):
        communicator = WebsocketCommunicator(router, f"/ws/match/{match_id}/", headers=ANONYMOUS_HEADERS)
        refusals.append(await communicator.connect(timeout=10))
    assert refusals[0] == refusals[1] and refusals[0][0] is False


async def test_anyone_may_watch_a_public_match_live_without_an_account(cast: dict[str, Any]) -> None:
    match = cast["match"]
    guest, connected = await connect(None, f"/ws/match/{match.pk}/")
    assert connected
    first = await guest.receive_from(timeout=15)
    assert 'id="match-body"' in first and "sq legal" not in first and "Your turn." not in first
    await sync_to_async(services.act)(
        match_id=match.pk, user=cast["alice"], action={"type": "place", "square": "d3"}, version=match.version
    )
    pushed = await guest.receive_from(timeout=15)
    assert f'data-version="{match.version + 1}"' in pushed and "sq legal" not in pushed
    await guest.send_to(text_data='{"type": "place", "square": "c3"}')
    assert await guest.receive_nothing()  # read-only, as every socket
    await sync_to_async(services.post_chat)(match_id=match.pk, user=cast["bob"], text="hello watchers")
    assert "hello watchers" in await guest.receive_from(timeout=15)
    await guest.disconnect()


async def test_a_guest_watches_in_the_language_of_their_page(cast: dict[str, Any]) -> None:
    match = cast["match"]
    headers = [*ANONYMOUS_HEADERS, (b"cookie", b"turnwise_language=ne")]
    guest = WebsocketCommunicator(router, f"/ws/match/{match.pk}/", headers=headers)
    assert (await guest.connect(timeout=10))[0]
    assert "खेलाडी" in await guest.receive_from(timeout=15)
    await guest.disconnect()


async def test_a_foreign_origin_is_refused(cast: dict[str, Any]) -> None:
    _, connected = await connect(cast["alice"], f"/ws/match/{cast['match'].pk}/", origin=b"http://evil.example")
    assert not connected
    _, connected = await connect(cast["alice"], "/ws/me/", origin=b"http://evil.example")
    assert not connected


async def test_the_turn_badge_follows_the_users_turns_live(cast: dict[str, Any]) -> None:
    match = cast["match"]
    bob_me, connected = await connect(cast["bob"], "/ws/me/")
    assert connected
    assert 'data-count="0"' in await bob_me.receive_from(timeout=15)
    await sync_to_async(services.act)(
        match_id=match.pk, user=cast["alice"], action={"type": "place", "square": "d3"}, version=match.version
    )
    badge = await bob_me.receive_from(timeout=15)
    assert 'id="turn-badge"' in badge and 'data-count="1"' in badge
    await bob_me.disconnect()


async def test_each_dos_page_is_pushed_exactly_its_own_seats_fragment(alice: Any, bob: Any, carol: Any) -> None:
    """Hidden cards: the push a page receives is the fragment of that page's own seat (a spectator's has
    no hand), the very render the hidden-information tests check for every seat."""
    from games import registry
    from games.read import pages

    match = await sync_to_async(services.create_match)(user=alice, game="dos", players=2)
    await sync_to_async(services.join_match)(match_id=match.pk, user=bob)
    sockets = {}
    for user in (alice, bob, carol):
        ws, ok = await connect(user, f"/ws/match/{match.pk}/")
        assert ok
        await ws.receive_from(timeout=15)
        sockets[user.username] = ws
    match = await sync_to_async(Match.objects.get)(pk=match.pk)
    engine = registry.get("dos").engine
    state = engine.load(match.state)
    seat = engine.to_act(state)[0]
    mover = alice if seat == 0 else bob
    await sync_to_async(services.act)(
        match_id=match.pk, user=mover, action=engine.legal_actions(state, seat)[0], version=match.version
    )
    pushed = {name: await ws.receive_from(timeout=15) for name, ws in sockets.items()}
    match = await sync_to_async(Match.objects.get)(pk=match.pk)
    for user in (alice, bob, carol):
        expected = await sync_to_async(pages.render_live_fragments)(match, user)
        assert pushed[user.username] == expected
    assert "Your hand" in pushed["alice"] and "Your hand" not in pushed["carol"]
    assert len({pushed["alice"], pushed["bob"], pushed["carol"]}) == 3
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_spectator_who_takes_a_seat_gets_that_seats_fragment_from_then_on(alice: Any, bob: Any) -> None:
    match = await sync_to_async(services.create_match)(user=alice, game="dos", players=2)
    bob_ws, ok = await connect(bob, f"/ws/match/{match.pk}/")
    assert ok
    assert "Join this match" in await bob_ws.receive_from(timeout=15)
    await sync_to_async(services.join_match)(match_id=match.pk, user=bob)
    joined = await bob_ws.receive_from(timeout=15)
    assert "Your hand" in joined
    assert await bob_ws.receive_nothing()
    await bob_ws.disconnect()


async def test_a_chat_line_is_pushed_to_every_page_of_the_match(cast: dict[str, Any]) -> None:
    match = cast["match"]
    sockets = []
    for user in (cast["alice"], cast["bob"], cast["carol"]):
        ws, _ = await connect(user, f"/ws/match/{match.pk}/")
        await ws.receive_from(timeout=15)
        sockets.append(ws)
    await sync_to_async(services.post_chat)(match_id=match.pk, user=cast["bob"], text="good luck")
    for ws in sockets:
        line = await ws.receive_from(timeout=15)
        assert 'id="chat-log"' in line and "good luck" in line
    for ws in sockets:
        await ws.disconnect()


async def test_the_spectators_of_a_match_share_one_layer_member_and_each_gets_every_move(
    cast: dict[str, Any], make_user: Any
) -> None:
    """Spectators' frames come off the channel layer once per process (the relay), not once per socket."""
    from channels.layers import get_channel_layer

    from games.live import realtime

    layer = get_channel_layer()

    def layer_members(group: str) -> int:
        if isinstance(layer, realtime.PubSubChannelLayer):
            inner = layer._get_layer()
            return len(inner.groups.get(inner._get_group_channel_name(group), ()))
        return len(layer.groups.get(group, ()))

    match = cast["match"]
    watchers = [cast["carol"]] + [await sync_to_async(make_user)(f"watcher{i}") for i in range(4)]
    sockets = []
    for user in watchers:
        ws, ok = await connect(user, f"/ws/match/{match.pk}/")
        assert ok
        await ws.receive_from(timeout=15)
        sockets.append(ws)
    group = realtime.match_watch_group(match.pk, "en")
    assert layer_members(group) == 1 and realtime.relay.members(group) == len(watchers)

    for square, version in (("d3", match.version), ("c3", match.version + 1)):
        mover = cast["alice"] if version == match.version else cast["bob"]
        await sync_to_async(services.act)(
            match_id=match.pk, user=mover, action={"type": "place", "square": square}, version=version
        )
        for ws in sockets:
            pushed = await ws.receive_from(timeout=15)
            assert f'data-version="{version + 1}"' in pushed and "sq legal" not in pushed

    relaying = realtime.relay.task(group)
    assert relaying is not None
    await sockets[0].disconnect()
    assert realtime.relay.members(group) == len(watchers) - 1
    for ws in sockets[1:]:
        await ws.disconnect()
    assert realtime.relay.members(group) == 0 and realtime.relay.task(group) is None
    # The relay leaves the layer's group as its task ends, once its last spectator has gone.
    await asyncio.wait_for(asyncio.gather(relaying, return_exceptions=True), timeout=15)
    assert relaying.cancelled() and layer_members(group) == 0


@pytest.mark.parametrize("slug", [g.slug for g in GAMES])
async def test_a_guest_is_pushed_the_spectators_fragment_in_every_game(slug: str, make_user: Any) -> None:
    """Hidden information, without an account: a guest's socket gets exactly what a signed-in
    spectator's gets (the render of ``view(state, None)``), never a seat's."""
    from django.contrib.auth.models import AnonymousUser

    from games import registry
    from games.read import pages

    spec = registry.get(slug)
    users = [await sync_to_async(make_user)(f"p{n}") for n in range(spec.min_players)]
    match = await sync_to_async(services.create_match)(user=users[0], game=slug, players=spec.min_players)
    for user in users[1:]:
        await sync_to_async(services.join_match)(match_id=match.pk, user=user)
    watcher = await sync_to_async(make_user)("watcher")
    guest, ok_guest = await connect(None, f"/ws/match/{match.pk}/")
    signed_in, ok_signed_in = await connect(watcher, f"/ws/match/{match.pk}/")
    assert ok_guest and ok_signed_in
    assert await guest.receive_from(timeout=15) == await signed_in.receive_from(timeout=15)
    match = await sync_to_async(Match.objects.get)(pk=match.pk)
    state = spec.engine.load(match.state)
    seat = spec.engine.to_act(state)[0]
    await sync_to_async(services.act)(
        match_id=match.pk, user=users[seat], action=spec.engine.legal_actions(state, seat)[0], version=match.version
    )
    pushed = await guest.receive_from(timeout=15)
    assert pushed == await signed_in.receive_from(timeout=15)
    match = await sync_to_async(Match.objects.get)(pk=match.pk)
    assert pushed == await sync_to_async(pages.render_live_fragments)(match, AnonymousUser())
    seats_pages = [await sync_to_async(pages.render_live_fragments)(match, user) for user in users]
    assert pushed not in seats_pages
    await guest.disconnect()
    await signed_in.disconnect()


async def test_guests_sockets_are_capped_apart_from_players(cast: dict[str, Any], monkeypatch: Any) -> None:
    from games.live import presence

    monkeypatch.setattr(presence, "MAX_GUEST_SOCKETS", 2)
    path = f"/ws/match/{cast['match'].pk}/"
    guests = []
    for _ in range(2):
        guest, connected = await connect(None, path)
        assert connected
        guests.append(guest)
    refused = WebsocketCommunicator(router, path, headers=ANONYMOUS_HEADERS)
    assert await refused.connect(timeout=10) == (False, 4429)
    player, connected = await connect(cast["alice"], path)  # a player still gets in
    assert connected
    await guests[0].disconnect()  # a guest who leaves makes room
    again, connected = await connect(None, path)
    assert connected
    for ws in (*guests[1:], player, again):
        await ws.disconnect()
