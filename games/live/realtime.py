"""Announcing committed changes to connected pages, through the channel layer.

A change is rendered here, once per seated person and once for the spectators, right after the commit;
the group messages carry the HTML and the match version, and consumers only forward them. So the cost
of a move does not grow with the number of open pages, and no socket reads the database per message.

Groups (names in the functions below): each match page joins its person's group in that match, and
the spectators' group while it only watches; every page of a signed-in person joins their session's
group and their account's group, so that logging out or changing the password closes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.utils import translation

from games.support import metrics

if TYPE_CHECKING:
    from games.models import Match, Seat

log = logging.getLogger(__name__)

# The server's event loop: announcements made from other threads (HTTP views, the background runner)
# are sent from it, where the channel layer's connections live.
_server_loop: asyncio.AbstractEventLoop | None = None
DELIVERY_TIMEOUT_SECONDS = 10.0


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """channels_redis' pub/sub layer (several processes), which can also tell which groups have members.

    A group message is one PUBLISH that Redis hands to each process subscribed to the group, and each
    process puts it on its own sockets' queues: no Redis call per socket, unlike channels_redis' core
    layer, whose every socket polls Redis for its messages (measured in docs/performance.md). A process
    subscribes to a group while one of its sockets is in it, so Redis' subscriber count of the group's
    channel says whether anyone, in any process, may be in the group.
    """

    async def groups_with_subscribers(self, groups: list[str]) -> set[str]:
        layer = self._get_layer()
        names = {layer._get_group_channel_name(group): group for group in groups}
        found: set[str] = set()
        by_shard: dict[Any, list[str]] = {}
        for name in names:
            by_shard.setdefault(layer._get_shard(name), []).append(name)
        for shard, shard_names in by_shard.items():
            shard._ensure_redis()
            for name, count in await shard._redis.pubsub_numsub(*shard_names):
                if count:
                    found.add(names[name.decode() if isinstance(name, bytes) else name])
        return found


class LocalChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer (one process, SQLite), without its per-message cost in the number of sockets.

    Channels' own walks every channel's queue and every group membership on *each* send to a group and
    each receive: with 400 sockets open that is thousands of steps per pushed frame, the main cost of a
    spectator's push. Here expired messages and memberships are swept at most once a second (a message
    may outlive its 60 s expiry by up to a second), a group send puts the message straight on each
    member's queue instead of a task per member, and each member gets a shallow copy of the message:
    what :func:`announce` sends (strings, numbers, a list nobody changes) is never modified after it is
    sent, so the deep copy per member bought nothing.
    """

    CLEAN_EVERY_SECONDS = 1.0
    _cleaned_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at >= self.CLEAN_EVERY_SECONDS:
            self._cleaned_at = now
            super()._clean_expired()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        try:
            queue.put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            # As Channels' own: a full queue loses the message; the page resyncs by version.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)


class Watcher(Protocol):
    async def relayed(self, message: dict[str, Any]) -> None: ...


class _Relayed:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.members: set[Watcher] = set()
        self.ready: asyncio.Future[None] = loop.create_future()
        self.task: asyncio.Task[None] | None = None


class Relay:
    """One channel-layer member per process for a group many of its sockets are in (a match's spectators):
    the group's message comes off the layer once and each socket's handler is called with it in turn.

    Channels gives every socket its own queue and dispatch loop, so each frame cost each socket a task,
    an ``asyncio.wait`` and a trip through the layer: about 0.2 ms of CPU per socket per frame, 10 ms a
    move for 50 spectators (docs/performance.md). Through the relay a frame costs a socket one call.
    Handlers run one after another, in the order the messages came: a socket that must catch up from the
    database (a lost message) delays the others' frame by one render, which keeps every page in order.
    """

    def __init__(self) -> None:
        self._groups: dict[str, _Relayed] = {}

    async def join(self, group: str, watcher: Watcher) -> None:
        """From when this returns, ``watcher`` is handed every message sent to ``group``."""
        loop = asyncio.get_running_loop()
        relayed = self._groups.get(group)
        if relayed is None or relayed.loop is not loop or relayed.task is None or relayed.task.done():
            relayed = self._groups[group] = _Relayed(loop)
            relayed.task = loop.create_task(self._run(group, relayed))
        relayed.members.add(watcher)
        await asyncio.shield(relayed.ready)

    def leave(self, group: str, watcher: Watcher) -> None:
        relayed = self._groups.get(group)
        if relayed is None:
            return
        relayed.members.discard(watcher)
        if not relayed.members:
            del self._groups[group]
            if relayed.task is not None:
                relayed.task.cancel()

    def members(self, group: str) -> int:
        relayed = self._groups.get(group)
        return 0 if relayed is None else len(relayed.members)

    def task(self, group: str) -> asyncio.Task[None] | None:
        """The task relaying ``group`` in this process (it ends once the group's last socket has left)."""
        relayed = self._groups.get(group)
        return None if relayed is None else relayed.task

    async def _run(self, group: str, relayed: _Relayed) -> None:
        layer = get_channel_layer()
        channel = await layer.new_channel("relay.")
        await layer.group_add(group, channel)
        try:
            relayed.ready.set_result(None)
            while True:
                message = await layer.receive(channel)
                for watcher in list(relayed.members):
                    try:
                        await watcher.relayed(message)
                    except Exception:  # one broken page must not keep the frame from the others
                        log.exception("A relayed message failed for one socket of %s", group)
        except BaseException as exc:
            if not relayed.ready.done():
                if isinstance(exc, Exception):
                    relayed.ready.set_exception(exc)
                else:  # cancelled: everyone who was waiting has left
                    relayed.ready.cancel()
            raise
        finally:
            with contextlib.suppress(Exception):
                await layer.group_discard(group, channel)


relay = Relay()


def match_group(match_id: int, language: str) -> str:
    """Every page of the match read in ``language`` (chat lines, which every reader sees alike)."""
    return f"match-{match_id}-{language}"


def match_user_group(match_id: int, user_id: int) -> str:
    """The pages of one seated person in one match: that seat's private fragment."""
    return f"match-{match_id}-user-{user_id}"


def match_watch_group(match_id: int, language: str) -> str:
    """The pages of people watching a public match without a seat, read in ``language``."""
    return f"match-{match_id}-watch-{language}"


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def user_group(user_id: int) -> str:
    """Every page of a person: the turn badge."""
    return f"user-{user_id}"


def account_group(user_id: int) -> str:
    """Every socket of a person, for closing them all (a password change)."""
    return f"account-{user_id}"


def session_group(session_key: str) -> str:
    """Every socket opened with one session; the key itself never leaves the session store."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def bind_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Send announcements through ``loop`` (the server's) from now on."""
    global _server_loop
    _server_loop = loop


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def deliver(messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """group_send each (group, message); a lost push must never undo a committed change."""
    layer = get_channel_layer()
    batch = list(messages)
    if layer is None or not batch:
        return

    async def send_all() -> None:
        for group, message in batch:
            await layer.group_send(group, message)

    try:
        _on_server_loop(send_all)
    except Exception:  # Pages resynchronise when they reconnect.
        log.exception("Could not deliver %d live message(s)", len(batch))


def _on_server_loop[T](make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine ``make()`` to its end from synchronous code, on the server's loop when there is
    one (where the channel layer's connections live). The coroutine is made only once it can run."""
    loop = _server_loop
    if loop is not None and loop.is_running() and _running_loop() is not loop:
        return asyncio.run_coroutine_threadsafe(make(), loop).result(timeout=DELIVERY_TIMEOUT_SECONDS)

    async def run() -> T:
        return await make()

    return async_to_sync(run)()


@dataclass(frozen=True, slots=True)
class Rendered:
    """What :func:`announce` rendered: the match's fragment at ``version`` for each seated person."""

    match_id: int
    version: int
    by_user: dict[int, str]

    def fragment(self, match_id: int, version: int, user_id: int) -> str | None:
        """This person's fragment, if it is of this match at this version."""
        if (match_id, version) != (self.match_id, self.version):
            return None
        return self.by_user.get(user_id)


def announce(match: Match, seats: list[Seat], *, moved: bool = False) -> Rendered:
    """After a commit: render the match once per seated person and once for spectators, and push it.

    ``match`` and ``seats`` are the objects the service just committed (seats with their users), so
    nothing is read again; one query finds every seated person's waiting turns (their badge count and
    "next match" link).
    """
    from games.read import pages

    committed_at = time.time()
    user_ids = sorted({s.user_id for s in seats if s.user_id is not None})
    waiting = pages.waiting_turns(user_ids)
    watch_groups = {lang: match_watch_group(match.pk, lang) for lang in languages()}
    watched = groups_with_members(list(watch_groups.values()))
    watched_in = [lang for lang, group in watch_groups.items() if group in watched]
    by_user, spectators = pages.render_for_push(match, seats, waiting, spectator_languages=watched_in)
    messages: list[tuple[str, dict[str, Any]]] = [
        (
            match_user_group(match.pk, user_id),
            {"type": "match.fragment", "version": match.version, "html": html, "at": committed_at},
        )
        for user_id, html in by_user.items()
    ]
    for language, html in spectators.items():
        messages.append(
            (
                match_watch_group(match.pk, language),
                {
                    "type": "match.fragment",
                    "version": match.version,
                    "html": html,
                    "at": committed_at,
                    # A page that was watching when its person took a seat gets its seat's fragment instead.
                    "seated": user_ids,
                },
            )
        )
    # Each badge in its player's language (the seats carry their users; no query).
    language_of = {s.user_id: s.user.message_language for s in seats if s.user_id is not None}
    for user_id in user_ids:
        with translation.override(language_of[user_id]):
            messages.append(_badge_message(user_id, len(waiting[user_id]), committed_at))
    if moved:
        metrics.record_move()
    deliver(messages)
    return Rendered(match.pk, match.version, by_user)


def groups_with_members(groups: list[str]) -> set[str]:
    """The groups of ``groups`` that may have a socket in them: exact for this process's own layer
    (:class:`LocalChannelLayer`) and, across processes, for :class:`PubSubChannelLayer` (a process
    subscribes to a group while one of its sockets is in it); any other layer: all of them.

    Exact, not a guess: a page that joins a group after this check renders the current state from the
    database once it has joined (the change being announced is already committed), so it misses nothing.
    """
    layer = get_channel_layer()
    if isinstance(layer, LocalChannelLayer):
        return {group for group in groups if layer.groups.get(group)}
    if isinstance(layer, PubSubChannelLayer):
        try:
            return _on_server_loop(lambda: layer.groups_with_subscribers(groups))
        except Exception as exc:  # cannot tell: render for everyone rather than miss anyone
            log.warning("Could not ask Redis which groups have members: %s", exc)
    return set(groups)


def _badge_message(
    user_id: int, turn_count: int, at: float, challenge_count: int | None = None
) -> tuple[str, dict[str, Any]]:
    from games.read import pages

    html = pages.badge_html(turn_count, challenge_count)
    return user_group(user_id), {"type": "turns.changed", "count": turn_count, "html": html, "at": at}


def announce_user(user_id: int) -> None:
    """Tell every page of this person that their inbox, turns or challenges changed (three queries, one
    render, in their language)."""
    from accounts.models import User
    from games.read import pages, queries

    waiting = pages.waiting_turns([user_id])
    pending = queries.pending_count(user_id)
    language = User.objects.filter(pk=user_id).values_list("language", flat=True).first()
    with translation.override(language or settings.LANGUAGE_CODE):
        message = _badge_message(user_id, len(waiting[user_id]), time.time(), pending)
    deliver([message])


def announce_chat(match_id: int) -> None:
    """Render the chat log once per language its pages are read in, and push it to every page."""
    from games.read import pages

    read_groups = {lang: match_group(match_id, lang) for lang in languages()}
    read = groups_with_members(list(read_groups.values()))
    read_in = [lang for lang, group in read_groups.items() if group in read]
    if not read_in:
        return
    messages = pages.render_chat_log(match_id, read_in)
    at = time.time()
    deliver(
        [
            (match_group(match_id, lang), {"type": "chat.fragment", "html": html, "at": at})
            for lang, html in messages.items()
        ]
    )


def end_session(session_key: str) -> None:
    """Close every socket opened with this session (logged out, flushed or expired)."""
    deliver([(session_group(session_key), {"type": "session.ended"})])


def close_account_sockets(user_id: int) -> None:
    """Close every socket of this person (their password changed: sessions signed with the old one
    are no longer valid; a page whose session is still valid reconnects by itself)."""
    deliver([(account_group(user_id), {"type": "account.changed"})])
