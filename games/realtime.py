"""Announcing committed changes to connected pages, through the channel layer."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def announce(match_id: int, version: int, user_ids: list[int]) -> None:
    """Tell every page of the match, and every seated user's other pages, that the match changed.

    The messages carry no game data: each consumer re-reads the match and renders its own seat's view.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_send)(layer, match_id, version, user_ids)
    except Exception:  # A lost push must not undo a committed move; pages resync on reconnect.
        log.exception("Could not announce match %s v%s", match_id, version)


def announce_chat(match_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(match_group(match_id), {"type": "chat.changed"})
    except Exception:
        log.exception("Could not announce chat of match %s", match_id)


def announce_user(user_id: int) -> None:
    """Tell every page of one user that their inbox changed (a challenge, an answer to one)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(user_group(user_id), {"type": "turns.changed"})
    except Exception:  # A lost push must not undo a committed change; pages resync on reconnect.
        log.exception("Could not announce the inbox of user %s", user_id)


async def _send(layer: object, match_id: int, version: int, user_ids: list[int]) -> None:
    await layer.group_send(match_group(match_id), {"type": "match.changed", "version": version})  # type: ignore[attr-defined]
    for user_id in user_ids:
        await layer.group_send(user_group(user_id), {"type": "turns.changed"})  # type: ignore[attr-defined]
