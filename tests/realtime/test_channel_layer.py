"""The in-process channel layer (SQLite, one process): Channels' semantics without its cost per socket."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import ChannelFull

from games.live.realtime import LocalChannelLayer

pytestmark = pytest.mark.asyncio


async def test_a_group_send_reaches_every_member_once_each_with_its_own_message() -> None:
    layer = LocalChannelLayer()
    names = [await layer.new_channel() for _ in range(3)]
    for name in names[:2]:
        await layer.group_add("g", name)
    await layer.group_send("g", {"type": "x.y", "html": "<p>1</p>", "seated": [1]})
    first, second = [await asyncio.wait_for(layer.receive(n), 5) for n in names[:2]]
    assert first == second == {"type": "x.y", "html": "<p>1</p>", "seated": [1]}
    first["html"] = "changed"
    assert second["html"] == "<p>1</p>"
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(names[2]), 0.2)


async def test_expired_messages_and_their_memberships_are_still_swept() -> None:
    layer = LocalChannelLayer(expiry=-1)  # already expired when sent: no waiting for the clock
    name = await layer.new_channel()
    await layer.group_add("g", name)
    await layer.send(name, {"type": "x.y"})
    layer._cleaned_at = 0.0  # the sweep runs at most once a second: let it run now
    layer._clean_expired()
    assert name not in layer.channels
    assert name not in layer.groups.get("g", {})


async def test_a_full_member_loses_the_message_and_the_others_still_get_it() -> None:
    layer = LocalChannelLayer(capacity=1)
    full, free = await layer.new_channel(), await layer.new_channel()
    await layer.send(full, {"type": "x.y", "n": 0})
    with pytest.raises(ChannelFull):
        await layer.send(full, {"type": "x.y", "n": 1})
    for name in (full, free):
        await layer.group_add("g", name)
    await layer.group_send("g", {"type": "x.y", "n": 2})
    assert (await layer.receive(full))["n"] == 0
    assert (await layer.receive(free))["n"] == 2
