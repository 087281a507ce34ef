"""ASGI entry point: HTTP through Django, WebSockets through Channels; starts the bot runner."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from games import bots  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    # daphne has no lifespan events: start the runner with the first connection of the process.
    if settings.BOT_RUNNER_IN_PROCESS and scope["type"] in ("http", "websocket"):
        bots.start_runner()
    await router(scope, receive, send)
