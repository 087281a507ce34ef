"""A bare ASGI application for ``bench.live.floor``: WebSocket connections that only receive, and one
HTTP request that sends a frame of a given size to every one of them. No Django, no Channels: what
is left is daphne's own cost of a frame (twisted, autobahn, the kernel's loopback)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

Send = Callable[[dict[str, Any]], Awaitable[None]]

_sockets: set[Send] = set()


async def _respond(send: Send, body: bytes) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": body})


async def app(scope: dict[str, Any], receive: Callable[[], Awaitable[dict[str, Any]]], send: Send) -> None:
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        _sockets.add(send)
        try:
            while (await receive())["type"] != "websocket.disconnect":
                pass
        finally:
            _sockets.discard(send)
    elif scope["type"] == "http":
        while (await receive()).get("more_body"):
            pass
        if scope["path"] == "/fire/":
            query = parse_qs(scope["query_string"].decode())
            text = "x" * int(query["size"][0])
            # ``to=none``: the same request sending nothing, with the sockets open all the same.
            to = [] if query.get("to") == ["none"] else list(_sockets)
            for socket in to:
                await socket({"type": "websocket.send", "text": text})
            await _respond(send, str(len(to)).encode())
        else:  # the harness's readiness check, and anything else
            await _respond(send, b"ok")
