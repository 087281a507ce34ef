"""Why a socket closes, told by a code the server may send (RFC 6455: 1000 or 3000-4999).

Daphne refuses any other code: it raised on the 1012 the account-change close used, and sent 1011
("internal error") instead. Each close is observed here through a WebsocketCommunicator, and its code
put through the very check daphne's WebSocket library (autobahn) applies before sending a close frame.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from autobahn.websocket.protocol import WebSocketProtocol
from channels.testing import WebsocketCommunicator

from config.asgi import router
from games import services
from games.live import consumers, presence
from tests.realtime.helpers import GOOD_ORIGIN, logged_in_client, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def daphne_would_send(code: int) -> bool:
    """What autobahn's ``sendClose`` (daphne's ``serverClose``) accepts, run on a bare protocol object."""
    protocol = WebSocketProtocol.__new__(WebSocketProtocol)
    with mock.patch.object(WebSocketProtocol, "sendCloseFrame") as sent:
        try:
            protocol.sendClose(code=code)
        except Exception:
            return False
    return sent.called


async def open_socket(path: str, cookie: bytes | None) -> tuple[WebsocketCommunicator, bool, Any]:
    headers = [(b"origin", GOOD_ORIGIN), (b"host", b"testserver")]
    if cookie is not None:
        headers.append((b"cookie", cookie))
    communicator = WebsocketCommunicator(router, path, headers=headers)
    connected, code = await communicator.connect(timeout=10)
    return communicator, connected, code


async def test_the_check_is_daphnes() -> None:
    assert daphne_would_send(1000) and daphne_would_send(4401)
    assert not daphne_would_send(1012) and not daphne_would_send(1011)


@pytest.mark.parametrize(
    "code",
    [consumers.CLOSE_UNAUTHENTICATED, consumers.CLOSE_FORBIDDEN, consumers.CLOSE_TOO_MANY, consumers.CLOSE_RECONNECT],
)
async def test_every_close_code_is_one_daphne_can_send(code: int) -> None:
    assert daphne_would_send(code)


async def test_a_socket_without_a_session_is_closed_with_4401() -> None:
    _, connected, code = await open_socket("/ws/me/", None)
    assert (connected, code) == (False, 4401)


async def test_an_outsider_to_a_private_match_is_closed_with_4403(alice: Any, carol: Any) -> None:
    match = await sync_to_async(services.create_match)(user=alice, game="reversi", players=2, is_public=False)
    _, connected, code = await open_socket(f"/ws/match/{match.pk}/", await session_cookie(carol))
    assert (connected, code) == (False, 4403)


async def test_one_socket_too_many_is_closed_with_4429(alice: Any) -> None:
    cookie = await session_cookie(alice)
    sockets = []
    for _ in range(presence.MAX_SOCKETS_PER_USER):
        ws, connected, _code = await open_socket("/ws/me/", cookie)
        assert connected
        sockets.append(ws)
    _, connected, code = await open_socket("/ws/me/", cookie)
    assert (connected, code) == (False, 4429)
    for ws in sockets:
        await ws.disconnect()


async def test_a_password_change_asks_every_page_to_reconnect_with_4012(alice: Any) -> None:
    """The page that changed it comes back (its session is still valid); the others' are refused (4401)."""
    laptop = await sync_to_async(logged_in_client)(alice)
    phone = await sync_to_async(logged_in_client)(alice)
    pages = []
    for client in (laptop, phone):
        ws, connected, _code = await open_socket("/ws/me/", await session_cookie(alice, client))
        assert connected
        await ws.receive_from(timeout=15)
        pages.append(ws)
    response = await sync_to_async(laptop.post)(
        "/accounts/password/change/",
        {
            "old_password": "correct horse battery",
            "new_password1": "new secret 4242",
            "new_password2": "new secret 4242",
        },
    )
    assert response.status_code == 302
    for ws in pages:
        output = await ws.receive_output(timeout=15)
        assert output == {"type": "websocket.close", "code": 4012}
        assert daphne_would_send(output["code"])
    _, back, _code = await open_socket("/ws/me/", await session_cookie(alice, laptop))
    _, refused, code = await open_socket("/ws/me/", await session_cookie(alice, phone))
    assert back and (refused, code) == (False, 4401)
