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
import hashlib
import logging
import time
from collections.abc import Iterable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from games import metrics

if TYPE_CHECKING:
    from games.models import Match, Seat

log = logging.getLogger(__name__)

# The renders of the latest announcement made in this context, so that the mover's HTTP reply reuses
# its seat's render instead of rendering again: {(match id, version): {user id: html}}.
_rendered: ContextVar[dict[tuple[int, int], dict[int, str]] | None] = ContextVar("turnwise_rendered", default=None)

# The server's event loop: announcements made from other threads (HTTP views, the background runner)
# are sent from it, where the channel layer's connections live.
_server_loop: asyncio.AbstractEventLoop | None = None
DELIVERY_TIMEOUT_SECONDS = 10.0


def match_group(match_id: int) -> str:
    """Every page of the match (chat lines, which every reader sees alike)."""
    return f"match-{match_id}"


def match_user_group(match_id: int, user_id: int) -> str:
    """The pages of one seated person in one match: that seat's private fragment."""
    return f"match-{match_id}-user-{user_id}"


def match_watch_group(match_id: int) -> str:
    """The pages of people watching a public match without a seat."""
    return f"match-{match_id}-watch"


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

    loop = _server_loop
    try:
        if loop is not None and loop.is_running() and _running_loop() is not loop:
            asyncio.run_coroutine_threadsafe(send_all(), loop).result(timeout=DELIVERY_TIMEOUT_SECONDS)
        else:
            async_to_sync(send_all)()
    except Exception:  # Pages resynchronise when they reconnect.
        log.exception("Could not deliver %d live message(s)", len(batch))


def announce(match: Match, seats: list[Seat], *, moved: bool = False) -> None:
    """After a commit: render the match once per seated person and once for spectators, and push it.

    ``match`` and ``seats`` are the objects the service just committed (seats with their users), so
    nothing is read again; one query finds every seated person's waiting turns (their badge count and
    "next match" link).
    """
    from games import pages

    committed_at = time.time()
    user_ids = sorted({s.user_id for s in seats if s.user_id is not None})
    waiting = pages.waiting_turns(user_ids)
    by_user, spectators = pages.render_for_push(match, seats, waiting)
    _rendered.set({(match.pk, match.version): by_user})
    messages: list[tuple[str, dict[str, Any]]] = [
        (
            match_user_group(match.pk, user_id),
            {"type": "match.fragment", "version": match.version, "html": html, "at": committed_at},
        )
        for user_id, html in by_user.items()
    ]
    if spectators is not None:
        messages.append(
            (
                match_watch_group(match.pk),
                {
                    "type": "match.fragment",
                    "version": match.version,
                    "html": spectators,
                    "at": committed_at,
                    # A page that was watching when its person took a seat gets its seat's fragment instead.
                    "seated": user_ids,
                },
            )
        )
    # Each badge in its player's language (the seats carry their users; no query).
    languages = {s.user_id: s.user.message_language for s in seats if s.user_id is not None}
    for user_id in user_ids:
        with translation.override(languages[user_id]):
            messages.append(_badge_message(user_id, len(waiting[user_id]), committed_at))
    if moved:
        metrics.record_move()
    deliver(messages)


def rendered_fragment(match_id: int, version: int, user_id: int) -> str | None:
    """The fragment :func:`announce` rendered for this person at this version, in this context."""
    renders = _rendered.get()
    if renders is None:
        return None
    return renders.get((match_id, version), {}).get(user_id)


def _badge_message(
    user_id: int, turn_count: int, at: float, challenge_count: int | None = None
) -> tuple[str, dict[str, Any]]:
    from games import pages

    html = pages.badge_html(turn_count, challenge_count)
    return user_group(user_id), {"type": "turns.changed", "count": turn_count, "html": html, "at": at}


def announce_user(user_id: int) -> None:
    """Tell every page of this person that their inbox, turns or challenges changed (three queries, one
    render, in their language)."""
    from accounts.models import User
    from games import challenges, pages

    waiting = pages.waiting_turns([user_id])
    pending = challenges.pending_count(user_id)
    language = User.objects.filter(pk=user_id).values_list("language", flat=True).first()
    with translation.override(language or settings.LANGUAGE_CODE):
        message = _badge_message(user_id, len(waiting[user_id]), time.time(), pending)
    deliver([message])


def announce_chat(match_id: int) -> None:
    """Render the chat log once and push it to every page of the match."""
    from games import pages

    html = pages.render_chat_log(match_id)
    deliver([(match_group(match_id), {"type": "chat.fragment", "html": html, "at": time.time()})])


def end_session(session_key: str) -> None:
    """Close every socket opened with this session (logged out, flushed or expired)."""
    deliver([(session_group(session_key), {"type": "session.ended"})])


def close_account_sockets(user_id: int) -> None:
    """Close every socket of this person (their password changed: sessions signed with the old one
    are no longer valid; a page whose session is still valid reconnects by itself)."""
    deliver([(account_group(user_id), {"type": "account.changed"})])
