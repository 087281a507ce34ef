"""The sockets this process holds: a cap per person, presence, and sessions that ended elsewhere.

Consumers register here on connect (no query); a background thread of this process then, every few
seconds and with one query each:
- writes ``last_seen_at`` for the people with a page open, at most once a minute per person (it tells
  the notifier that a live page already showed them the news), never per frame or push;
- finds the sessions of open sockets that no longer exist or have expired (logged out on another
  process, flushed, expired) and closes their sockets. Logging out and changing the password close
  sockets at once through signals (``games.signals``); this sweep catches everything else.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from importlib import import_module

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.support import metrics

log = logging.getLogger(__name__)

MAX_SOCKETS_PER_USER = 20  # per process: a page holds two; twenty is ten tabs
# Watchers of public matches who are not signed in: nobody to count them by, so one bound for them all
# per process. Someone filling it shuts out other guests only; signed-in people are counted apart.
MAX_GUEST_SOCKETS = 2000
SWEEP_SECONDS = 1.0
PRESENCE_EVERY_SECONDS = 50.0
# Someone seen this recently is shown as on the site now: a page open writes them at least this often.
ONLINE_WITHIN_SECONDS = 2 * PRESENCE_EVERY_SECONDS + 2 * SWEEP_SECONDS


@dataclass(frozen=True)
class Socket:
    user_id: int
    session_key: str


_lock = threading.Lock()
_sockets: dict[str, Socket] = {}  # channel name -> socket
_per_user: dict[int, int] = {}
_seen_written: dict[int, float] = {}  # user id -> when this process last wrote their presence
_guests: set[str] = set()  # channel names of sockets opened without an account


def admit(channel_name: str, user_id: int, session_key: str) -> bool:
    """Register a socket; False (and nothing registered) if the person already holds the maximum."""
    with _lock:
        if _per_user.get(user_id, 0) >= MAX_SOCKETS_PER_USER:
            return False
        _sockets[channel_name] = Socket(user_id, session_key)
        _per_user[user_id] = _per_user.get(user_id, 0) + 1
    metrics.SOCKETS.inc()
    return True


def admit_guest(channel_name: str) -> bool:
    """Register a socket opened without an account (it may only watch a public match); False when the
    process already holds ``MAX_GUEST_SOCKETS`` of them."""
    with _lock:
        if len(_guests) >= MAX_GUEST_SOCKETS:
            return False
        _guests.add(channel_name)
        return True


def leave(channel_name: str) -> None:
    with _lock:
        _guests.discard(channel_name)
        socket = _sockets.pop(channel_name, None)
        if socket is None:
            return
        left = _per_user[socket.user_id] - 1
        if left:
            _per_user[socket.user_id] = left
        else:
            del _per_user[socket.user_id]
    metrics.SOCKETS.dec()


def count() -> int:
    """Sockets open in this process."""
    with _lock:
        return len(_sockets) + len(_guests)


def sockets_of(user_id: int) -> int:
    with _lock:
        return _per_user.get(user_id, 0)


def write_presence(now: float | None = None) -> int:
    """Mark as seen the people with an open page not written in the last minute; one query."""
    from accounts.models import User

    now = now or time.time()
    with _lock:
        due = [uid for uid in _per_user if now - _seen_written.get(uid, 0.0) >= PRESENCE_EVERY_SECONDS]
        for uid in due:
            _seen_written[uid] = now
        for uid in [uid for uid in _seen_written if uid not in _per_user]:
            del _seen_written[uid]
    if due:
        User.objects.filter(pk__in=due).update(last_seen_at=timezone.now())
    return len(due)


def ended_sessions() -> set[str]:
    """Session keys of open sockets whose session is gone or expired; one query (database sessions)."""
    with _lock:
        keys = {s.session_key for s in _sockets.values()}
    if not keys:
        return set()
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if hasattr(store, "get_model_class"):
        alive = set(
            store.get_model_class()
            .objects.filter(session_key__in=keys, expire_date__gt=timezone.now())
            .values_list("session_key", flat=True)
        )
        return keys - alive
    return {key for key in keys if not store().exists(key)}


def sweep() -> None:
    from games.live import realtime

    # This process's share of the status page's figures, summed over every process by Prometheus.
    metrics.refresh_windows(sockets=count())
    write_presence()
    for key in ended_sessions():
        realtime.end_session(key)


_thread: threading.Thread | None = None


def start_sweeper() -> None:
    """Start this process's sweeper thread, once. It never runs on the thread that serves sockets."""
    global _thread
    with _lock:
        if _thread is not None and _thread.is_alive():
            return
        _thread = threading.Thread(target=_run, name="turnwise-sockets", daemon=True)
        _thread.start()


def _run() -> None:
    while True:
        try:
            sweep()
        except Exception:  # The database may be briefly away; keep sweeping.
            log.exception("Socket sweep failed")
            connection.close()
        else:
            # One long-lived connection for this thread: on SQLite (WAL) closing the last one costs a
            # checkpoint; on PostgreSQL give it back to the pool.
            if connection.vendor != "sqlite":
                connection.close()
        time.sleep(SWEEP_SECONDS)
