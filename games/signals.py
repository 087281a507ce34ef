"""Receivers: the services' announcements go to the browsers and the bot runner; sockets must not
outlive the session they were opened with (see ``games.live.presence`` for the rest)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.background import analysis, bots
from games.live import realtime
from games.models import Match, Seat
from games.services import announcements


@receiver(announcements.match_changed, dispatch_uid="turnwise-push-match")
def push_match(sender: Any, match: Match, seats: list[Seat], moved: bool, **kwargs: Any) -> realtime.Rendered:
    # The renders go back as this receiver's reply: the mover's HTTP reply reuses its seat's.
    return realtime.announce(match, seats, moved=moved)


@receiver(announcements.match_changed, dispatch_uid="turnwise-analyse-computer-match")
def analyse_computer_match(sender: Any, match: Match, seats: list[Seat], **kwargs: Any) -> None:
    # Cheap for every other change: only a finished match with a computer seat reads the database.
    if match.status == Match.Status.FINISHED and any(s.is_bot for s in seats):
        analysis.request_for_computer_match(match, seats)


@receiver(announcements.chat_posted, dispatch_uid="turnwise-push-chat")
def push_chat(sender: Any, match_id: int, **kwargs: Any) -> None:
    realtime.announce_chat(match_id)


@receiver(announcements.user_changed, dispatch_uid="turnwise-push-user")
def push_user(sender: Any, user_id: int, **kwargs: Any) -> None:
    realtime.announce_user(user_id)


@receiver(announcements.bot_move_due, dispatch_uid="turnwise-wake-bots")
def wake_bots(sender: Any, **kwargs: Any) -> None:
    bots.wake()


@receiver(user_logged_out, dispatch_uid="turnwise-close-sockets-on-logout")
def close_sockets_of_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if key:
        realtime.end_session(key)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="turnwise-close-sockets-on-password")
def close_sockets_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    # set_password() keeps the new raw password on the instance until save() has run the password
    # validators, which happens just after this signal: so this is a save that changed the password.
    if getattr(instance, "_password", None) is None or instance.pk is None:
        return
    if kwargs.get("created"):
        return
    transaction.on_commit(partial(realtime.close_account_sockets, instance.pk))
