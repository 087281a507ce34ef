"""The archive of all of a player's finished matches: the same files as before, streamed with a fixed
number of queries, on threads of its own, and a few times an hour per account."""

from __future__ import annotations

import asyncio
import io
import json
import threading
import zipfile
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config.asgi import ARCHIVE_THREADS, django_asgi_app, router
from games import services
from games.models import Match
from games.record import export
from tests.games.test_fairplay import finished
from tests.realtime.helpers import session_cookie
from tests.support import client_for, streamed_body

URL = "/history/export.zip"


def files(archive: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(archive)) as zf:
        assert zf.testzip() is None
        return {name: zf.read(name) for name in zf.namelist()}


def archive_as_before(user: Any) -> dict[str, bytes]:
    """What the archive held before it was streamed: each match's record and transcript, each read
    with queries of its own (the code this replaced, games/record/export.py's ``archive``)."""
    matches = Match.objects.filter(seats__user=user, status=Match.Status.FINISHED).order_by("finished_at", "pk")
    contents = {}
    for match in matches:
        contents[export.filename(match, "json")] = json.dumps(export.record(match), indent=1).encode()
        if (moves := export.transcript(match)) is not None:
            contents[export.filename(match, "txt")] = (moves + "\n").encode()
    return contents


def reversi_played(alice: Any, bob: Any, squares: list[str]) -> Match:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    for n, square in enumerate(squares):
        match.refresh_from_db()
        services.act(
            match_id=match.pk,
            user=[alice, bob][n % 2],
            action={"type": "place", "square": square},
            version=match.version,
        )
    services.resign(match_id=match.pk, user=bob)
    return match


@pytest.mark.django_db
def test_the_archive_holds_the_same_files_as_before(alice: Any, bob: Any, carol: Any, make_user: Any) -> None:
    reversi_played(alice, bob, ["f5", "d6", "c3"])
    reversi_played(alice, bob, [])
    finished("dos", [bob, alice, carol], {"target": 30})  # a card game: a record, no transcript
    reversi_played(bob, carol, ["f5"])  # not alice's
    services.create_match(user=alice, game="reversi", players=2)  # not finished
    response = client_for(alice).get(reverse("games:export-all"))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response.streaming
    got = files(streamed_body(response))
    assert len(got) == 5
    assert got == archive_as_before(alice)


@pytest.mark.django_db
def test_the_archive_takes_the_same_number_of_queries_for_5_and_50_matches(
    alice: Any, bob: Any, monkeypatch: Any
) -> None:
    # Rows fetched two at a time, so 50 matches take many round trips: still the same queries.
    monkeypatch.setattr(export, "ARCHIVE_FETCH", 2)
    counts = []
    for total in (5, 50):
        while Match.objects.filter(status=Match.Status.FINISHED, seats__user=alice).count() < total:
            reversi_played(alice, bob, ["f5", "d6"])
        client = client_for(alice)
        with CaptureQueriesContext(connection) as queries:
            body = streamed_body(client.get(reverse("games:export-all")))
        assert len(files(body)) == 2 * total
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 10, counts


@pytest.mark.django_db
def test_an_account_may_download_its_archive_a_few_times_an_hour(alice: Any, bob: Any, settings: Any) -> None:
    settings.ARCHIVE_DOWNLOADS_PER_HOUR = 2
    reversi_played(alice, bob, ["f5"])
    client = client_for(alice)
    assert [client.get(URL).status_code for _ in range(2)] == [200, 200]
    refused = client.get(URL)
    assert refused.status_code == 429
    assert 3500 <= int(refused["Retry-After"]) <= 3600
    page = refused.content.decode()
    assert "You have downloaded your matches several times in the last hour." in page
    assert "You can try again in 60 minutes" in page
    assert client.get(URL).status_code == 429  # a refused try does not count: the wait stays the same
    assert client_for(bob).get(URL).status_code == 200  # another account is not held back


class SlowClient:
    """An ASGI client of the archive that reads nothing until ``reading`` is set, and goes away
    after the first chunk when ``leaves`` (through the router, as daphne calls it)."""

    def __init__(self, cookie: bytes, reading: asyncio.Event, *, leaves: bool = False) -> None:
        self.cookie = cookie
        self.reading = reading
        self.leaves = leaves
        self.first_chunk = asyncio.Event()
        self.gone = asyncio.Event()
        self.body: list[bytes] = []
        self._requested = False

    async def receive(self) -> dict[str, Any]:
        if not self._requested:
            self._requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            assert message["status"] == 200
        elif message.get("body"):
            self.first_chunk.set()
            if self.leaves:
                self.gone.set()
                await asyncio.Event().wait()  # the connection is gone: nothing more is delivered
            await self.reading.wait()
            self.body.append(message["body"])

    async def download(self) -> None:
        scope = {
            "type": "http",
            "method": "GET",
            "path": URL,
            "query_string": b"",
            "headers": [(b"host", b"testserver"), (b"cookie", self.cookie)],
            "client": ("203.0.113.5", 5000),
            "server": ("testserver", 80),
        }
        await router(scope, self.receive, self.send)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_archives_streaming_to_slow_clients_hold_no_request_thread(alice: Any, bob: Any) -> None:
    """More archives than archive threads, each sent to a client that does not read: every request
    thread stays free, and a log-in page is served meanwhile."""
    await sync_to_async(reversi_played)(alice, bob, ["f5", "d6", "c3"])
    cookie = await session_cookie(alice)
    reading = asyncio.Event()
    clients = [SlowClient(cookie, reading) for _ in range(ARCHIVE_THREADS + 1)]
    downloads = [asyncio.create_task(client.download()) for client in clients]
    await asyncio.wait_for(asyncio.gather(*(c.first_chunk.wait() for c in clients[:ARCHIVE_THREADS])), 15)
    # Two archives are being sent, the third waits for an archive thread; no request thread is held.
    assert django_asgi_app.archive_threads.busy == ARCHIVE_THREADS
    assert not clients[ARCHIVE_THREADS].first_chunk.is_set()
    assert django_asgi_app.threads.busy == 0
    login_page = await asyncio.wait_for(served("/accounts/login/"), 15)
    assert login_page == 200
    reading.set()
    await asyncio.wait_for(asyncio.gather(*downloads), 15)
    assert django_asgi_app.threads.busy == django_asgi_app.archive_threads.busy == 0
    for client in clients:
        assert len(files(b"".join(client.body))) == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_archive_is_built_and_closed_on_an_archive_thread_when_the_client_leaves(
    alice: Any, bob: Any, monkeypatch: Any
) -> None:
    """Every step of the archive, and closing it when the client goes away midway (its queries'
    cursors with it), happens on one of the archive's threads."""
    for _ in range(3):
        await sync_to_async(reversi_played)(alice, bob, ["f5", "d6"])
    threads: list[str] = []
    real_archive = export.archive

    def watched(user: Any) -> Any:
        try:
            for chunk in real_archive(user):
                threads.append(threading.current_thread().name)
                yield chunk
        finally:
            threads.append("closed on " + threading.current_thread().name)

    monkeypatch.setattr(export, "archive", watched)
    client = SlowClient(await session_cookie(alice), asyncio.Event(), leaves=True)
    await asyncio.wait_for(client.download(), 15)
    # One chunk made and sent, then the client left: the rest is never made, and the archive is
    # closed where it ran.
    assert len(threads) == 2 and threads[1] == "closed on " + threads[0]
    assert threads[0].startswith("turnwise-archive")
    assert django_asgi_app.threads.busy == django_asgi_app.archive_threads.busy == 0


async def served(path: str) -> int:
    communicator = HttpCommunicator(router, "GET", path, headers=[(b"host", b"testserver")])
    return (await communicator.get_response(timeout=15))["status"]
