"""What the WebSocket tests share: signed-in sockets and a query counter that sees every thread."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any
from unittest import mock

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db.backends.utils import CursorWrapper
from django.test import Client

from config.asgi import router

GOOD_ORIGIN = b"http://testserver"


def logged_in_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@sync_to_async
def session_cookie(user: Any, client: Client | None = None) -> bytes:
    client = client or logged_in_client(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(
    user: Any | None, path: str, origin: bytes = GOOD_ORIGIN, client: Client | None = None
) -> tuple[WebsocketCommunicator, bool]:
    """A socket as a browser opens it: with ``client``'s session (a fresh login if none)."""
    headers = [(b"origin", origin), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", await session_cookie(user, client)))
    communicator = WebsocketCommunicator(router, path, headers=headers)
    connected, _ = await communicator.connect(timeout=10)
    return communicator, connected


class QueryLog:
    def __init__(self) -> None:
        self.sql: list[str] = []
        self._lock = threading.Lock()

    def add(self, sql: str) -> None:
        with self._lock:
            self.sql.append(sql)

    def __len__(self) -> int:
        return len(self.sql)


@contextlib.contextmanager
def every_query() -> Iterator[QueryLog]:
    """Every SQL statement run while inside, from any thread (the consumers' included).

    Django's CaptureQueriesContext sees one thread's connection only; consumers query on Channels'
    sync thread, so this wraps the cursor class itself.
    """
    log = QueryLog()
    original = CursorWrapper._execute_with_wrappers

    def counting(self: CursorWrapper, sql: str, params: Any, many: bool, executor: Any) -> Any:
        log.add(sql)
        return original(self, sql, params, many, executor)

    with mock.patch.object(CursorWrapper, "_execute_with_wrappers", counting):
        yield log


@contextlib.contextmanager
def sync_thread_calls() -> Iterator[list[str]]:
    """The sync functions run through sync_to_async while inside (Channels' shared sync thread among them)."""
    from asgiref.sync import SyncToAsync

    calls: list[str] = []
    original = SyncToAsync.__call__

    async def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await original(self, *args, **kwargs)

    with mock.patch.object(SyncToAsync, "__call__", counting):
        yield calls
