"""WebSocket consumers. They listen and render; they never change a match."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db.models import Q

from games import pages
from games.models import Match
from games.realtime import match_group, user_group


class MatchConsumer(AsyncWebsocketConsumer):
    """One per open match page: pushes that seat's rendered fragments after every change."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        access = await self._access(user)
        if access is None:
            await self.close(code=4403)
            return
        self.group = match_group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # A new or reconnecting page always gets the full current state: no update is ever lost.
        await self._push()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Moves go through HTTP and services.act; a socket is read-only. Answer with the current state
        # so a page that asks (or tries to act here) is resynchronised, never changed.
        await self._push()

    async def match_changed(self, event: dict[str, Any]) -> None:
        await self._push()

    async def chat_changed(self, event: dict[str, Any]) -> None:
        html = await self._render_chat()
        if html is not None:
            await self.send(text_data=html)

    async def _push(self) -> None:
        html = await self._render()
        if html is None:
            await self.close(code=4403)
            return
        await self.send(text_data=html)

    @database_sync_to_async
    def _access(self, user: Any) -> str | None:
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None:
            return None
        # A player a seat is kept for (a challenge, a private rematch) may watch before taking it.
        seated = match.seats.filter(Q(user=user) | Q(reserved_for=user)).exists()
        if seated:
            return "player"
        return "spectator" if match.is_public else None

    @database_sync_to_async
    def _render(self) -> str | None:
        user = self.scope["user"]
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None:
            return None
        return pages.render_live_fragments(match, user)

    @database_sync_to_async
    def _render_chat(self) -> str | None:
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None:
            return None
        return pages.render_chat(match, self.scope["user"])


class UserConsumer(AsyncWebsocketConsumer):
    """One per page of a signed-in user: keeps the "your turn" badge and the tab title current."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._push()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self._seen()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self._push()

    async def turns_changed(self, event: dict[str, Any]) -> None:
        await self._push()

    async def _push(self) -> None:
        await self.send(text_data=await self._render())

    @database_sync_to_async
    def _render(self) -> str:
        # The player has the site open and is being shown this news now: no email needed for it.
        self._seen_now()
        return pages.render_turn_badge(self.scope["user"])

    @database_sync_to_async
    def _seen(self) -> None:
        self._seen_now()

    def _seen_now(self) -> None:
        from django.utils import timezone

        from accounts.models import User

        User.objects.filter(pk=self.scope["user"].pk).update(last_seen_at=timezone.now())
