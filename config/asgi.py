"""ASGI entry point: HTTP through Django, WebSockets through Channels; starts the background threads."""

from __future__ import annotations

import asyncio
import gc
import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase

django.setup(set_prefix=False)


class SyncChainASGIHandler(ASGIHandler):
    """Django's ASGI handler with the middleware chain and the view run as one synchronous call.

    Django's own builds the chain for async: each middleware hook of Django's ``MiddlewareMixin`` (all
    of the site's are) and the sync view then hop to the sync thread and back, several hand-offs per
    request. Every view here is sync, so the whole chain runs in one hop, as under WSGI: measured, about
    a tenth less CPU per move and per page (docs/performance.md). Reading the body, sending the response
    and noticing a client that went away stay Django's ASGI code.
    """

    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


django_asgi_app = SyncChainASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games import bots, presence, realtime  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


# What is loaded by now lives as long as the process (modules, settings, templates, the games' tables):
# out of the collector's sight, a full collection no longer walks it. Each full collection is a pause
# of every socket and request of the process: measured in the spectators benchmark, 137 ms each
# without the freeze, 30 ms with it (docs/performance.md).
gc.freeze()

_started = False


def _start_background() -> None:
    """With the first connection of the process (daphne has no lifespan events): announcements from
    other threads go through this loop; the socket sweeper and, unless a separate worker runs them,
    the computer players and the clock start in threads of their own, off the thread serving sockets."""
    global _started
    _started = True
    realtime.bind_loop(asyncio.get_running_loop())
    presence.start_sweeper()
    if settings.BOT_RUNNER_IN_PROCESS:
        bots.start_runner()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if not _started and scope["type"] in ("http", "websocket"):
        _start_background()
    await router(scope, receive, send)
