"""ASGI entry point: HTTP through Django, WebSockets through Channels; starts the background threads."""

from __future__ import annotations

import asyncio
import gc
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase
from django.urls import reverse

django.setup(set_prefix=False)


# Requests served at once per process; the rest wait their turn on the event loop. The bound is also
# what makes persistent database connections safe: each thread keeps one (on SQLite), and there are
# never more threads than this.
REQUEST_THREADS = 8
# Requests that take seconds by design (the archive of all of a player's matches, built while it is
# sent) run on threads of their own, this many at once: 16 archives asked for at once held all 8 request
# threads for 11.5 s and the log-in page waited behind them. Now the others wait for an archive thread,
# and every other page is served as usual.
ARCHIVE_THREADS = 2
ARCHIVE_URL_NAMES = ("games:export-all",)


class RequestThreads:
    """The threads that run requests, each kept for the life of the process with its database connection.

    Django's ASGI handler makes every request a thread-sensitive context of its own, so asgiref starts a
    thread for it (and another one to join it when it ends), and that thread opens a new database
    connection: measured with py-spy, both threads' start-up and the connection's set-up were on the
    path of every move and page. Here a request borrows one of ``REQUEST_THREADS`` single-thread
    executors for its whole context (signals, middleware, view, closing the response), as a threaded
    WSGI server would; the most recently used one first, whose connection and caches are warm.
    """

    def __init__(self, size: int, name: str = "turnwise-request") -> None:
        self._size = size
        self._name = name
        self._pid = 0
        self._executors: list[ThreadPoolExecutor] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle: asyncio.LifoQueue[ThreadPoolExecutor] = asyncio.LifoQueue()

    async def acquire(self) -> ThreadPoolExecutor:
        if self._pid != os.getpid():
            # Once per process: a forked server must not use threads that exist only in its parent.
            self._pid = os.getpid()
            self._executors = [ThreadPoolExecutor(1, thread_name_prefix=self._name) for _ in range(self._size)]
            self._loop = None
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            # A queue waits on one event loop; a server has one, tests start one per test.
            self._loop = loop
            self._idle = asyncio.LifoQueue()
            for executor in self._executors:
                self._idle.put_nowait(executor)
        return await self._idle.get()

    def release(self, executor: ThreadPoolExecutor) -> None:
        self._idle.put_nowait(executor)

    @property
    def busy(self) -> int:
        """How many of the threads a request holds now (on the event loop they last served)."""
        return len(self.executors) - self._idle.qsize() if self._loop is not None else 0

    @property
    def executors(self) -> list[ThreadPoolExecutor]:
        """The executors started so far in this process (none before its first request)."""
        return self._executors if self._pid == os.getpid() else []


class SyncChainASGIHandler(ASGIHandler):
    """Django's ASGI handler with the middleware chain and the view run as one synchronous call.

    Django's own builds the chain for async: each middleware hook of Django's ``MiddlewareMixin`` (all
    of the site's are) and the sync view then hop to the sync thread and back, several hand-offs per
    request. Every view here is sync, so the whole chain runs in one hop, as under WSGI: measured, about
    a tenth less CPU per move and per page (docs/performance.md). Each request runs on one of the
    process's ``RequestThreads``. Reading the body, sending the response and noticing a client that went
    away stay Django's ASGI code.
    """

    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.threads = RequestThreads(REQUEST_THREADS)
        self.archive_threads = RequestThreads(ARCHIVE_THREADS, "turnwise-archive")
        self._archive_paths: frozenset[str] | None = None

    def threads_for(self, path: str) -> RequestThreads:
        if self._archive_paths is None:
            # Once, after the URLconf can be read (not at import: it imports the views).
            self._archive_paths = frozenset(reverse(name) for name in ARCHIVE_URL_NAMES)
        return self.archive_threads if path in self._archive_paths else self.threads

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        # The thread is held until the response is sent: a streamed body is produced on it.
        threads = self.threads_for(scope["path"])
        executor = await threads.acquire()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            threads.release(executor)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


django_asgi_app = SyncChainASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config import mail  # noqa: E402
from games.background import bots  # noqa: E402
from games.live import presence, realtime  # noqa: E402
from games.live.routing import socket_stack, websocket_urlpatterns  # noqa: E402

mail.warn_if_unconfigured()  # at the start of each web process, not at the first notice

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(socket_stack(URLRouter(websocket_urlpatterns))),
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
