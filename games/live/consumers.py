"""WebSocket consumers. They forward what the announcer rendered; they never change a match.

A socket reads the database only when it connects (to check access and render the current state once
for itself) and when it sees a version gap (a lost message). Pushed updates arrive rendered, so handling
one costs no query and no render, however many pages are open. Inbound frames are ignored: clients have
nothing to say here (moves go through HTTP and ``services``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.db.models import Q
from django.utils import translation

from games.live import presence, realtime
from games.models import Match, Seat
from games.read import pages
from games.support import metrics

SOCKET_DB_THREADS = 2

_executor: tuple[int, ThreadPoolExecutor] | None = None


def _socket_db_executor() -> ThreadPoolExecutor:
    global _executor
    # One per process: a forked server must not inherit the parent's (its threads do not exist there).
    if _executor is None or _executor[0] != os.getpid():
        _executor = (os.getpid(), ThreadPoolExecutor(SOCKET_DB_THREADS, thread_name_prefix="turnwise-socket-db"))
    return _executor[1]


def _with_connection[T](work: Callable[[], T]) -> T:
    try:
        return work()
    except Exception:
        connection.close()  # a broken connection must not stay with the thread
        raise
    finally:
        # On SQLite each thread keeps its connection (closing the last one costs a WAL checkpoint, and
        # Channels' helpers close it after every call); elsewhere it goes back to the pool.
        if connection.vendor != "sqlite":
            connection.close()


async def socket_db[T](work: Callable[[], T]) -> T:
    """Run a socket's database work (on connect, after a lost message) in threads of its own, never
    on Channels' shared sync thread."""
    return await asyncio.get_running_loop().run_in_executor(_socket_db_executor(), _with_connection, work)


# Why a socket is closed. A server may only send 1000 or 3000-4999 (RFC 6455; daphne refuses any
# other code and sends 1011, "internal error", instead), so each reason has a code of the 4000s, the
# range for private use, that echoes the HTTP status or WebSocket code it stands for. The page's script
# (static/js/turnwise.js) reconnects after CLOSE_RECONNECT only; docs/security.md lists them.
CLOSE_UNAUTHENTICATED = 4401  # no session, or it ended (logout, expiry): reconnecting cannot help
CLOSE_FORBIDDEN = 4403  # this person may not watch this match
CLOSE_TOO_MANY = 4429  # this person has too many sockets open already
# The account changed (a password change): a page whose session is still valid (the one that changed
# the password) reconnects and comes back; the others are refused with CLOSE_UNAUTHENTICATED. It
# echoes 1012, "service restart", which a server may not send itself.
CLOSE_RECONNECT = 4012


class LiveConsumer(AsyncWebsocketConsumer):
    """What every Turnwise socket shares: who may open one, how many, and when it must close."""

    admitted = False
    closed = False
    user: Any = None
    # The person's id, read once: ``user`` is Channels' lazy proxy, whose every attribute read per
    # pushed frame costs a call through it. None: a page without an account.
    user_id: int | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels' own dispatch first runs close_old_connections() through Channels' shared sync thread
        # for every message: a thread hop per push and per inbound frame, serialised across every socket
        # of the process. These handlers hold no connection; the few that query use socket_db().
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def admit(self) -> bool:
        """Register a socket of a signed-in session (at most a few per person); False: closed."""
        self.groups = []  # this socket's own list: the base class leaves each of them on disconnect
        user = self.scope.get("user")
        session = self.scope.get("session")
        key = getattr(session, "session_key", None)
        if user is None or not user.is_authenticated or not key:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return False
        if not presence.admit(self.channel_name, user.pk, key):
            await self.close(code=CLOSE_TOO_MANY)
            return False
        self.user = user
        self.user_id = user.pk
        self.admitted = True
        await self.join(realtime.session_group(key), realtime.account_group(user.pk))
        return True

    async def join(self, *groups: str) -> None:
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups.append(group)

    async def leave(self, group: str) -> None:
        if group in self.groups:
            await self.channel_layer.group_discard(group, self.channel_name)
            self.groups.remove(group)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        # As Channels' own, without its close_old_connections() hop through the shared sync thread.
        for group in list(self.groups):
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def disconnect(self, code: int) -> None:
        if self.admitted:
            presence.leave(self.channel_name)
            self.admitted = False

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Ignored: no render, no query, no write, whatever a client sends and however often."""

    async def forward(self, html: str, committed_at: float | None) -> None:
        if self.closed:
            return
        await self.send(text_data=html)
        if committed_at is not None:
            metrics.record_push(committed_at)

    async def shut(self, code: int) -> None:
        if not self.closed:
            self.closed = True
            await self.close(code=code)

    async def session_ended(self, event: dict[str, Any]) -> None:
        await self.shut(CLOSE_UNAUTHENTICATED)

    async def account_changed(self, event: dict[str, Any]) -> None:
        await self.shut(CLOSE_RECONNECT)


class MatchConsumer(LiveConsumer):
    """One per open match page: forwards that person's fragment (or the spectators') after each change."""

    version: int = -1
    watching = False

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        user = self.scope.get("user")
        signed_in = user is not None and user.is_authenticated
        role = await socket_db(lambda: self._role(user if signed_in else None))
        if role is None:
            # Without an account a private match is refused exactly as a missing one is.
            await self.close(code=CLOSE_FORBIDDEN if signed_in else CLOSE_UNAUTHENTICATED)
            return
        if signed_in:
            if not await self.admit():
                return
            # Shared renders (chat, the spectators' view) come once per language: join this reader's.
            self.language = user.message_language
            groups = [
                realtime.match_group(self.match_id, self.language),
                realtime.match_user_group(self.match_id, user.pk),
            ]
        else:
            if not await self.admit_guest():
                return
            self.language = _guest_language(self.scope)
            groups = [realtime.match_group(self.match_id, self.language)]
        # Join before rendering: a change committed meanwhile is queued and then forwarded or skipped
        # by version, so no update is lost between the render and the first push.
        await self.join(*groups)
        if role == "spectator":
            # The spectators' view comes through the process's relay: one layer member for all of them.
            self.watching = True
            await realtime.relay.join(self._watch_group(), self)
        await self.accept()
        await self.resync()

    async def admit_guest(self) -> bool:
        """Register a socket without an account: it watches a public match, nothing else; False: closed."""
        self.groups = []
        if not presence.admit_guest(self.channel_name):
            await self.close(code=CLOSE_TOO_MANY)
            return False
        self.user = AnonymousUser()
        self.admitted = True
        return True

    async def resync(self) -> None:
        """Render the full current state once for this page (it connected, or missed a message)."""
        rendered = await socket_db(self._render)
        if rendered is None:
            await self.shut(CLOSE_FORBIDDEN)
            return
        self.version, html = rendered
        await self.forward(html, None)

    def _watch_group(self) -> str:
        return realtime.match_watch_group(self.match_id, self.language)

    def _stop_watching(self) -> None:
        if self.watching:
            self.watching = False
            realtime.relay.leave(self._watch_group(), self)

    async def disconnect(self, code: int) -> None:
        self._stop_watching()
        await super().disconnect(code)

    async def shut(self, code: int) -> None:
        self._stop_watching()
        await super().shut(code)

    async def relayed(self, message: dict[str, Any]) -> None:
        if message.get("type") == "match.fragment":
            await self.match_fragment(message)

    async def match_fragment(self, event: dict[str, Any]) -> None:
        if self.watching and self.user_id in event.get("seated", ()):
            # This person took a seat: from now on their own group brings their seat's fragment.
            self._stop_watching()
            return
        version = event["version"]
        if version <= self.version:
            return  # an older or repeated state must never replace a newer one
        if version > self.version + 1:
            await self.resync()  # a message went missing: catch up from the database, once
            return
        self.version = version
        await self.forward(event["html"], event.get("at"))

    async def chat_fragment(self, event: dict[str, Any]) -> None:
        await self.forward(event["html"], event.get("at"))

    def _role(self, user: Any) -> str | None:
        """The socket's role, "player" or "spectator"; None: may not watch, or no such match. ``user``
        None: a page without an account."""
        public = Match.objects.filter(pk=self.match_id).values_list("is_public", flat=True).first()
        if public is None:
            return None
        # A player a seat is kept for (a challenge, a private rematch) sees it as its players do.
        if (
            user is not None
            and Seat.objects.filter(Q(user=user) | Q(reserved_for=user), match_id=self.match_id).exists()
        ):
            return "player"
        return "spectator" if public else None

    def _render(self) -> tuple[int, str] | None:
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None:
            return None
        html = pages.render_live_fragments(match, self.user, language=self.language)
        return None if html is None else (match.version, html)


def _guest_language(scope: dict[str, Any]) -> str:
    """The language a page without an account is read in: the language cookie, else the browser's
    Accept-Language, as Django chose it for the page itself (LocaleMiddleware)."""
    headers = dict(scope.get("headers") or [])
    shim = SimpleNamespace(
        COOKIES=scope.get("cookies") or {},
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
    )
    return translation.get_language_from_request(shim, check_path=False)  # type: ignore[arg-type]


class UserConsumer(LiveConsumer):
    """One per page of a signed-in person: keeps the "your turn" badge and the tab title current."""

    async def connect(self) -> None:
        if not await self.admit():
            return
        await self.join(realtime.user_group(self.user.pk))
        await self.accept()
        await self.forward(await socket_db(self._badge), None)

    async def turns_changed(self, event: dict[str, Any]) -> None:
        await self.forward(event["html"], event.get("at"))

    def _badge(self) -> str:
        return pages.render_turn_badge(self.user)
