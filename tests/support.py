"""Helpers the test modules share."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.test import Client


def client_for(user: Any) -> Client:
    """A test client logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def race(calls: list[Callable[[], Any]]) -> list[str]:
    """Run the calls in threads released at the same instant; each outcome is "ok" or the service's
    refusal code. Each thread closes its own database connections (they are per thread)."""
    from games import services

    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []
    lock = threading.Lock()

    def run(call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            call()
            outcome = "ok"
        except services.MatchError as exc:
            outcome = exc.code
        finally:
            connections.close_all()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


async def match_socket(user: Any, match_id: int) -> Any:
    """``user``'s browser socket on the match page, connected (the realtime tests' ``connect``)."""
    from tests.realtime.helpers import connect

    communicator, connected = await connect(user, f"/ws/match/{match_id}/")
    assert connected
    return communicator


def store_state(match: Any, state: Any) -> None:
    """Write an engine state into the match row, with the seats' turn flags to match. A queryset update:
    nothing else of the row changes (not even ``updated_at``), so a page can differ only by the state."""
    from games import registry
    from games.models import Match, Seat

    engine = registry.get(match.game).engine
    Match.objects.filter(pk=match.pk).update(state=engine.dump(state))
    to_act = engine.to_act(state)
    Seat.objects.filter(match_id=match.pk).update(to_act=False)
    Seat.objects.filter(match_id=match.pk, number__in=to_act).update(to_act=True)


def seen_by(match_id: int, user: Any, seat: int | None) -> tuple[str, str, str]:
    """What ``user`` in ``seat`` is shown of the stored match: its engine view (as sorted JSON), the
    page fragment and the WebSocket payload."""
    import json

    from games import registry
    from games.models import Match
    from games.read import pages

    match = Match.objects.get(pk=match_id)
    engine = registry.get(match.game).engine
    view = json.dumps(engine.view(engine.load(match.state), seat), sort_keys=True)
    fragment = pages.render_fragment(pages.match_context(match, user))
    live = pages.render_live_fragments(match, user)
    assert live is not None
    return view, fragment, live


def streamed_body(response: Any) -> bytes:
    """The whole body of a response streamed from an async iterator, read as the ASGI server reads it."""
    from asgiref.sync import async_to_sync

    async def collect() -> bytes:
        return b"".join([chunk async for chunk in response.streaming_content])

    return async_to_sync(collect)()
