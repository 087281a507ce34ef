"""A match's chat: players write, length- and rate-limited; everyone who may watch reads."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Block, ChatMessage, Match, Seat
from games.services import announcements
from games.services.errors import ErrorCode, MatchError
from games.support.i18n import LocalNumber

CHAT_BURST = 5  # messages ...
CHAT_WINDOW = timedelta(seconds=30)  # ... per this window, per player and match


def post_chat(*, match_id: int, user: User, text: str, now: datetime | None = None) -> ChatMessage:
    """Add a line to the match chat: players only, length- and rate-limited."""
    now = now or timezone.now()
    text = (text or "").strip()
    if not Match.objects.filter(pk=match_id).exists():
        raise MatchError(_("There is no such match."), ErrorCode.NOT_FOUND)
    with transaction.atomic():
        # Lock the player's seat so parallel posts are counted one after another: without it, 40 posts
        # sent at once each saw fewer than CHAT_BURST recent messages and 8 got in. (On SQLite the
        # IMMEDIATE transaction serialises them.)
        if not list(Seat.objects.select_for_update().filter(match_id=match_id, user=user)):
            raise MatchError(_("Only the players can write in this chat."), ErrorCode.FORBIDDEN)
        if Block.objects.filter(blocked=user, blocker__seats__match_id=match_id).exists():
            raise MatchError(
                _("A player of this match blocked you: you cannot write in its chat."), ErrorCode.FORBIDDEN
            )
        if not text:
            raise MatchError(_("Write something first."), ErrorCode.INVALID)
        if len(text) > ChatMessage.MAX_LENGTH:
            raise MatchError(
                _("A message can be at most %(n)s characters long.") % {"n": LocalNumber(ChatMessage.MAX_LENGTH)},
                ErrorCode.INVALID,
            )
        if "\x00" in text:
            # PostgreSQL cannot store a NUL character, and no keyboard types one: refuse rather than guess.
            raise MatchError(_("A message cannot contain NUL characters."), ErrorCode.INVALID)
        recent = ChatMessage.objects.filter(match_id=match_id, user=user, created_at__gt=now - CHAT_WINDOW).count()
        if recent >= CHAT_BURST:
            raise MatchError(_("You are writing too fast; wait a few seconds."), ErrorCode.RATE_LIMITED)
        message = ChatMessage.objects.create(match_id=match_id, user=user, text=text)
        if message.created_at != now:
            ChatMessage.objects.filter(pk=message.pk).update(created_at=now)
            message.created_at = now
        announcements.on_commit(announcements.chat_posted, match_id=match_id)
    return message
