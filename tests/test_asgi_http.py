"""HTTP through the site's ASGI application (what daphne serves): Django's middleware chain and the
view run as one synchronous call, with every middleware still in force."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import iscoroutinefunction, sync_to_async
from channels.testing import HttpCommunicator
from django.core.signals import request_started
from django.db import connection

from config.asgi import REQUEST_THREADS, django_asgi_app, router
from games.models import Match
from tests.realtime.helpers import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def request(path: str, *, method: str = "GET", body: bytes = b"", headers: list[Any] | None = None) -> Any:
    # The router, not `application`: that one would start the background threads in the test process.
    communicator = HttpCommunicator(router, method, path, body=body, headers=headers or [])
    return await communicator.get_response(timeout=15)


def header(response: dict[str, Any], name: bytes) -> str:
    return next((v.decode() for k, v in response["headers"] if k.lower() == name), "")


async def test_the_chain_is_built_for_one_synchronous_call() -> None:
    assert not iscoroutinefunction(django_asgi_app._middleware_chain)


async def test_a_page_gets_every_middlewares_headers() -> None:
    response = await request("/accounts/login/", headers=[(b"host", b"testserver")])
    assert response["status"] == 200
    assert "nonce-" in header(response, b"content-security-policy")
    assert header(response, b"x-frame-options") == "DENY"
    assert b'name="csrfmiddlewaretoken"' in response["body"]


async def test_a_signed_in_move_goes_through_sessions_auth_csrf_and_the_view(reversi_match: Match, alice: Any) -> None:
    cookie = await session_cookie(alice)
    headers = [
        (b"host", b"testserver"),
        (b"cookie", cookie + b"; csrftoken=" + b"a" * 32),
        (b"x-csrftoken", b"a" * 32),
        (b"hx-request", b"true"),
        (b"content-type", b"application/x-www-form-urlencoded"),
    ]
    body = f"type=place&square=d3&version={reversi_match.version}".encode()
    response = await request(f"/m/{reversi_match.pk}/act/", method="POST", body=body, headers=headers)
    assert response["status"] == 200, response["body"][:500]
    assert f'data-version="{reversi_match.version + 1}"' in response["body"].decode()
    assert "no-store" in header(response, b"cache-control")
    await sync_to_async(reversi_match.refresh_from_db)()
    assert reversi_match.version == 2
    # Without the CSRF token the same request is refused and changes nothing.
    refused = await request(
        f"/m/{reversi_match.pk}/act/",
        method="POST",
        body=f"type=place&square=c3&version={reversi_match.version}".encode(),
        headers=[h for h in headers if h[0] != b"x-csrftoken"],
    )
    assert refused["status"] == 403
    await sync_to_async(reversi_match.refresh_from_db)()
    assert reversi_match.version == 2


async def served(path: str, headers: list[Any]) -> int:
    """The status of a GET, once the application has finished with it (closing the response included)."""
    communicator = HttpCommunicator(router, "GET", path, headers=headers)
    status = (await communicator.get_response(timeout=15))["status"]
    await communicator.wait(timeout=15)
    return status


async def test_requests_run_on_a_bounded_set_of_threads_that_keep_their_connection(alice: Any) -> None:
    # Signed in, so each request reads the database (the session, the user).
    headers = [(b"host", b"testserver"), (b"cookie", await session_cookie(alice))]
    seen: list[tuple[int, int]] = []

    def record(**_kwargs: Any) -> None:
        seen.append((threading.get_ident(), id(connection.connection)))

    request_started.connect(record)
    try:
        assert [await served("/", headers) for _ in range(3)] == [200] * 3
        one_at_a_time = seen[:]
        seen.clear()
        pages = [served("/", headers) for _ in range(3 * REQUEST_THREADS)]
        assert set(await asyncio.gather(*pages)) == {200}
    finally:
        request_started.disconnect(record)
    # One after another: the same thread each time, and on SQLite the same connection, seen as each
    # request starts (the first one opened it). A new thread and connection per request was the cost
    # this removes; PostgreSQL's pool hands a connection out per request instead.
    assert len({thread for thread, _ in one_at_a_time}) == 1
    if connection.vendor == "sqlite":
        kept = {conn for _, conn in one_at_a_time[1:]}
        assert len(kept) == 1 and id(None) not in kept
    # Many at once: never more threads than the bound, so never more connections.
    assert len(seen) == 3 * REQUEST_THREADS
    assert len({thread for thread, _ in seen}) <= REQUEST_THREADS


async def test_the_request_threads_serve_one_event_loop_after_another() -> None:
    # A server has one loop; tests (and anything else that starts one) have several, one after another.
    async def busy() -> set[int]:
        pages = [request("/accounts/login/", headers=[(b"host", b"testserver")]) for _ in range(3 * REQUEST_THREADS)]
        return {response["status"] for response in await asyncio.gather(*pages)}

    for _ in range(2):
        assert await asyncio.to_thread(asyncio.run, busy()) == {200}
