"""Sockets never outlive their session: logging out, a password change (from any device), a flushed or
expired session close them, and nothing private arrives afterwards."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session
from django.utils import timezone

from games import services
from games.live import presence
from tests.realtime.helpers import connect, logged_in_client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def cast(alice: Any, bob: Any) -> dict[str, Any]:
    match = services.create_match(user=alice, game="dos", players=2)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return {"alice": alice, "bob": bob, "match": match}


async def open_sockets(user: Any, match_id: int, client: Any) -> list[Any]:
    sockets = []
    for path in (f"/ws/match/{match_id}/", "/ws/me/"):
        ws, ok = await connect(user, path, client=client)
        assert ok
        await ws.receive_from(timeout=15)
        sockets.append(ws)
    return sockets


async def assert_closed(ws: Any, code: int) -> None:
    assert await ws.receive_output(timeout=15) == {"type": "websocket.close", "code": code}


async def a_move_by_whoever_is_to_act(cast: dict[str, Any]) -> None:
    """Something that would push alice's private fragment (her DOS hand) to her open pages."""
    from games import registry
    from games.models import Match

    match = await sync_to_async(Match.objects.get)(pk=cast["match"].pk)
    engine = registry.get("dos").engine
    state = engine.load(match.state)
    seat = engine.to_act(state)[0]
    action = engine.legal_actions(state, seat)[0]
    user = cast["alice"] if seat == 0 else cast["bob"]
    await sync_to_async(services.act)(match_id=match.pk, user=user, action=action, version=match.version)


async def test_logging_out_closes_every_socket_of_that_session_and_nothing_private_follows(
    cast: dict[str, Any],
) -> None:
    client = await sync_to_async(logged_in_client)(cast["alice"])
    other_device = await sync_to_async(logged_in_client)(cast["alice"])
    sockets = await open_sockets(cast["alice"], cast["match"].pk, client)
    kept = await open_sockets(cast["alice"], cast["match"].pk, other_device)
    response = await sync_to_async(client.post)("/accounts/logout/")
    assert response.status_code == 302
    for ws in sockets:
        await assert_closed(ws, 4401)
    await a_move_by_whoever_is_to_act(cast)
    for ws in sockets:
        assert await ws.receive_nothing()
    # Another device's session is still valid: its pages stay live.
    assert 'id="match-body"' in await kept[0].receive_from(timeout=15)
    for ws in [*sockets, *kept]:
        await ws.disconnect()


async def test_a_password_change_on_another_device_closes_the_old_sessions_sockets(cast: dict[str, Any]) -> None:
    phone = await sync_to_async(logged_in_client)(cast["alice"])
    laptop = await sync_to_async(logged_in_client)(cast["alice"])
    sockets = await open_sockets(cast["alice"], cast["match"].pk, phone)
    response = await sync_to_async(laptop.post)(
        "/accounts/password/change/",
        {
            "old_password": "correct horse battery",
            "new_password1": "a much newer secret 42",
            "new_password2": "a much newer secret 42",
        },
    )
    assert response.status_code == 302
    for ws in sockets:
        await assert_closed(ws, 4012)  # the page tries again; with the old session it is refused:
    _, connected = await connect(cast["alice"], "/ws/me/", client=phone)
    assert not connected
    await a_move_by_whoever_is_to_act(cast)
    for ws in sockets:
        assert await ws.receive_nothing()
    # The device that changed it keeps a valid session and may open sockets again.
    again, connected = await connect(cast["alice"], "/ws/me/", client=laptop)
    assert connected
    for ws in [*sockets, again]:
        await ws.disconnect()


async def test_an_expired_session_is_refused(cast: dict[str, Any]) -> None:
    """Refused wherever an account is needed; on a public match (open spectating) the socket is a
    guest's, which is shown the spectators' view and never the seat's hand."""
    private = await sync_to_async(services.create_match)(user=cast["alice"], game="dos", players=2, is_public=False)
    client = await sync_to_async(logged_in_client)(cast["alice"])
    await sync_to_async(Session.objects.update)(expire_date=timezone.now() - timedelta(seconds=1))
    for path in (f"/ws/match/{private.pk}/", "/ws/me/"):
        _, connected = await connect(cast["alice"], path, client=client)
        assert not connected
    guest, connected = await connect(cast["alice"], f"/ws/match/{cast['match'].pk}/", client=client)
    assert connected
    seen = await guest.receive_from(timeout=15)
    assert 'id="match-body"' in seen and "Your hand" not in seen
    await guest.disconnect()


@pytest.mark.parametrize("ending", ["expired", "flushed"])
async def test_the_sweep_closes_sockets_whose_session_expired_or_was_flushed(cast: dict[str, Any], ending: str) -> None:
    client = await sync_to_async(logged_in_client)(cast["alice"])
    bob_client = await sync_to_async(logged_in_client)(cast["bob"])
    sockets = await open_sockets(cast["alice"], cast["match"].pk, client)
    bobs = await open_sockets(cast["bob"], cast["match"].pk, bob_client)
    key = client.session.session_key
    if ending == "expired":
        await sync_to_async(Session.objects.filter(pk=key).update)(expire_date=timezone.now() - timedelta(seconds=1))
    else:
        await sync_to_async(Session.objects.filter(pk=key).delete)()
    await sync_to_async(presence.sweep)()  # what each process's sweeper thread does every second
    for ws in sockets:
        await assert_closed(ws, 4401)
    for ws in bobs:
        assert await ws.receive_nothing()
    for ws in [*sockets, *bobs]:
        await ws.disconnect()


async def test_pushed_frames_skip_channels_session_wrapper_and_the_session_still_counts(
    cast: dict[str, Any], monkeypatch: Any
) -> None:
    """A socket's session is resolved when it connects (it says who may watch what, and logging out
    still closes it), but the frames it is pushed no longer pass through Channels' per-message session
    wrapper, which only acts on HTTP responses (docs/performance.md: a spectator's frame)."""
    from channels.sessions import InstanceSessionWrapper

    async def refuse(self: Any, message: dict[str, Any]) -> None:
        raise AssertionError(f"a socket message went through the session wrapper: {message['type']}")

    monkeypatch.setattr(InstanceSessionWrapper, "send", refuse)
    client = await sync_to_async(logged_in_client)(cast["alice"])
    match_ws, me_ws = await open_sockets(cast["alice"], cast["match"].pk, client)
    await a_move_by_whoever_is_to_act(cast)
    assert 'id="match-body"' in await match_ws.receive_from(timeout=15)
    assert 'id="turn-badge"' in await me_ws.receive_from(timeout=15)
    response = await sync_to_async(client.post)("/accounts/logout/")
    assert response.status_code == 302
    for ws in (match_ws, me_ws):
        await assert_closed(ws, 4401)
        await ws.disconnect()
