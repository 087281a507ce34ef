"""Following and blocking players: who a player keeps an eye on, and whom they keep away.

A block keeps the blocked player away from the blocker: no challenge or rematch offer from them
(``challenges``, ``matches``), no chat from them in a match both sit in (``chat``, and the chat log
hides their lines there), and Play now never seats the two together (``pairing``). Blocking also
ends any follow between the two, so neither sees the other's presence on the people page.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Block, Follow
from games.services.errors import ErrorCode, MatchError


def person(username: str, me: User) -> User:
    """The active player called ``username`` (any case), who is not ``me``."""
    username = (username or "").strip()
    target = get_user_model().objects.filter(username__iexact=username, is_active=True).first() if username else None
    if target is None:
        raise MatchError(_("There is no player called %(name)s.") % {"name": username}, ErrorCode.NOT_FOUND)
    if target.pk == me.pk:
        raise MatchError(_("That is you."), ErrorCode.INVALID)
    return target


def follow(*, user: User, username: str) -> User:
    """Follow ``username``; following someone already followed changes nothing."""
    target = person(username, user)
    with transaction.atomic():
        if has_blocked(target.pk, user.pk) or has_blocked(user.pk, target.pk):
            raise MatchError(_("You cannot follow %(name)s.") % {"name": target.username}, ErrorCode.FORBIDDEN)
        Follow.objects.get_or_create(follower=user, followed=target)
    return target


def unfollow(*, user: User, username: str) -> User:
    target = person(username, user)
    Follow.objects.filter(follower=user, followed=target).delete()
    return target


def block(*, user: User, username: str) -> User:
    """Block ``username``, and end any follow between the two; blocking twice changes nothing."""
    target = person(username, user)
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=target)
        Follow.objects.filter(Q(follower=user, followed=target) | Q(follower=target, followed=user)).delete()
    return target


def unblock(*, user: User, username: str) -> User:
    target = person(username, user)
    Block.objects.filter(blocker=user, blocked=target).delete()
    return target


def has_blocked(blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_pairs(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` where one blocked the other (either way): one query."""
    ids = set(user_ids)
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list("blocker_id", "blocked_id")
    return {frozenset(row) for row in rows}
