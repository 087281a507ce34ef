"""A server-side count of database queries, for the benchmark's server only.

Every database connection the process opens (any thread, any backend) gets one execute wrapper that
counts statements by their first keyword. Installed by ``bench.live.settings``; never by the site.

The process's background threads (the socket sweeper's session check every second, presence writes,
the computer players and the clock) run on a timer, not per move: their statements are counted apart,
so that a phase that takes longer is not charged more queries per move.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.db.backends.signals import connection_created
from django.http import HttpRequest, JsonResponse

_lock = threading.Lock()
_counts: Counter[str] = Counter()
_background: Counter[str] = Counter()
BACKGROUND_THREADS = ("turnwise-sockets", "turnwise-bots")


def _count(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    kind = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
    counts = _background if threading.current_thread().name.startswith(BACKGROUND_THREADS) else _counts
    with _lock:
        counts[kind] += 1
    return execute(sql, params, many, context)


def _on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    # A connection object is reused by its thread after close(); wrap it once.
    if _count not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count)


def install() -> None:
    connection_created.connect(_on_connection_created, weak=False, dispatch_uid="bench-live-querycount")


def snapshot() -> dict[str, Any]:
    with _lock:
        by_kind, background = dict(_counts), dict(_background)
    return {
        "total": sum(by_kind.values()),
        "by_kind": by_kind,
        "background": sum(background.values()),
        "background_by_kind": background,
    }


def queries_view(request: HttpRequest) -> JsonResponse:
    # Touches neither the session nor the database, so reading the count does not change it.
    return JsonResponse(snapshot())
