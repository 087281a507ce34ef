from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.urls import path

from games.live.consumers import MatchConsumer, UserConsumer

websocket_urlpatterns = [
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
]


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' session middleware for WebSocket scopes, minus its wrapper around every frame sent.

    Channels wraps ``send`` to save the session and set its cookie on ``http.response.start``; a socket
    sends only ``websocket.*`` messages, for which the wrapper reads the session and passes the message
    on unchanged. That read cost every pushed frame about 2.5 us of CPU (a tenth of daphne's own cost of
    a frame; docs/performance.md). The session is resolved into the scope exactly as Channels does it,
    and a consumer that changes it saves it itself, as Channels asks of WebSocket consumers anyway.
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await super().__call__(scope, receive, send)
        wrapper = InstanceSessionWrapper(scope, send)
        if any(
            kind.startswith("websocket")
            for kind in (*wrapper.save_message_types, *wrapper.cookie_response_message_types)
        ):
            return await super().__call__(scope, receive, send)  # a Channels that acts on socket messages
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_stack(inner: Any) -> Any:
    """Channels' ``AuthMiddlewareStack`` for the site's sockets: cookies, the session, the user."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
