"""Challenges: a seat kept for a named player, who accepts (takes it) or declines (frees it).

A challenge comes from a waiting match ("keep a seat for bob"), from a player's profile (a new match
with a seat kept for them) or from a rematch offer. Like the other services, every write here locks the
match, runs in one transaction and announces after commit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.models import Challenge, Match, Notice, Seat
from games.services import announcements, challenge_records, matches, people
from games.services.base import announce_on_commit, bump, locked, seats_of
from games.services.errors import ErrorCode, MatchError
from games.support.i18n import LocalNumber

# Limits on challenges by name (a rematch offer is not one: it is made once per finished match). A
# challenge waits for an answer for days here, not seconds, so a real player has a few out at a time;
# the numbers are those of a busy correspondence player, well above what a person sends by hand, and
# far below a script's hundreds (lichess also limits challenges per minute and per day, and how many
# may wait on one person). A challenge is "waiting" while it is unanswered and its match still waits
# for players; calling that match off withdraws it.
PER_MINUTE = 5  # challenges sent in any minute
PER_DAY = 50  # challenges sent in any 24 hours
WAITING_SENT = 10  # a challenger's challenges waiting for an answer, to anyone
WAITING_TO_ONE = 3  # ... waiting for the same person's answer
WAITING_RECEIVED = 20  # challenges waiting for one person's answer, from everyone


def challenge_to_match(*, match_id: int, user: User, username: str) -> Challenge:
    """Keep an open seat of a waiting match for ``username`` and tell them."""
    with transaction.atomic():
        # Lock the row so two challenges (or a join) cannot both take the last open seat.
        match = locked(match_id)
        seats = seats_of(match)
        if not any(s.user_id == user.pk for s in seats):
            raise MatchError(_("You do not have a seat in this match."), ErrorCode.FORBIDDEN)
        if match.status != Match.Status.WAITING:
            raise MatchError(_("This match is no longer open to join."), ErrorCode.NOT_LIVE)
        target = _player(username, user)
        if any(target.pk in (s.user_id, s.reserved_for_id) for s in seats):
            raise MatchError(
                _("%(name)s already has a seat in this match.") % {"name": target.username}, ErrorCode.INVALID
            )
        _check_limits(user, target)
        seat = next((s for s in seats if s.is_open and s.reserved_for_id is None), None)
        if seat is None:
            raise MatchError(_("There is no open seat left to offer."), ErrorCode.FULL)
        seat.reserved_for = target
        seat.save(update_fields=["reserved_for"])
        challenge = challenge_records.record(match, seat, by=user, rematch=False)
        bump(match)
        match.save(update_fields=["version", "turn_version", "updated_at"])
        announce_on_commit(match, seats=seats)
    return challenge


def challenge_player(
    *,
    user: User,
    username: str,
    game: str,
    players: int | None = None,
    bot_seats: Iterable[int] | None = None,
    bot_levels: Mapping[int, str] | None = None,
    options: dict[str, Any] | None = None,
    pace_seconds: int | None = None,
    rated: bool = False,
) -> Match:
    """A new private match of ``game`` on these terms, with seat 1 kept for ``username``.

    By default: the game's fewest players, computer players in the seats past the challenged one,
    casual. ``create_match`` checks the terms as for any new match (a rated match has no computer
    players); seats that are neither computers nor kept stay open for people the challenger invites.
    """
    try:
        spec = registry.get(game)
    except LookupError:
        raise MatchError(_("There is no such game."), ErrorCode.INVALID) from None
    _player(username, user)  # refuse before anything is created
    players = spec.min_players if players is None else players
    bots = set(range(2, players) if bot_seats is None else bot_seats)
    if 1 in bots:
        raise MatchError(_("Seat 2 is kept for the player you challenge."), ErrorCode.INVALID)
    with transaction.atomic():
        match = matches.create_match(
            user=user,
            game=game,
            players=players,
            bot_seats=bots,
            bot_levels=bot_levels,
            options=options,
            is_public=False,
            pace_seconds=pace_seconds,
            rated=rated,
        )
        challenge_to_match(match_id=match.pk, user=user, username=username)
    match.refresh_from_db()
    return match


def accept(*, match_id: int, user: User) -> Match:
    """Take the seat kept for ``user``: the match starts once every seat is filled."""
    with transaction.atomic():
        seats = list(Seat.objects.filter(match_id=match_id))
        if not any(s.reserved_for_id == user.pk and s.user_id is None for s in seats):
            raise MatchError(_("There is no challenge for you in this match."), ErrorCode.INVALID)
        return matches.join_match(match_id=match_id, user=user)


def decline(*, match_id: int, user: User) -> Match:
    """Turn down a challenge: the seat opens for anyone the players invite, and the challenger is told."""
    with transaction.atomic():
        match = locked(match_id)
        seats = seats_of(match)
        seat = next((s for s in seats if s.reserved_for_id == user.pk and s.user_id is None), None)
        if seat is None:
            raise MatchError(_("There is no challenge for you in this match."), ErrorCode.INVALID)
        if match.status != Match.Status.WAITING:
            raise MatchError(_("This match is no longer open to join."), ErrorCode.NOT_LIVE)
        seat.reserved_for = None
        seat.save(update_fields=["reserved_for"])
        now = timezone.now()
        answered = list(Challenge.objects.filter(match=match, challenged=user, status=Challenge.Status.PENDING))
        Challenge.objects.filter(pk__in=[c.pk for c in answered]).update(
            status=Challenge.Status.DECLINED, answered_at=now
        )
        Notice.objects.bulk_create(
            [Notice(user_id=c.challenger_id, match=match, kind=Notice.Kind.DECLINED, created_at=now) for c in answered]
        )
        bump(match)
        match.save(update_fields=["version", "turn_version", "updated_at"])
        announce_on_commit(match, seats=seats)
        announcements.on_commit(announcements.user_changed, user_id=user.pk)
        if match.rematch_of_id is not None:
            challenge_records.announce_original(match.rematch_of_id)
    return match


def _waiting() -> Any:
    return Challenge.objects.filter(
        status=Challenge.Status.PENDING, is_rematch=False, match__status=Match.Status.WAITING
    )


def _check_limits(challenger: User, target: User) -> None:
    """Refuse a challenge past the limits above, with what to do about it; nothing is written."""
    # Lock both players' rows (in id order, so two people challenging each other cannot deadlock):
    # two challenges sent at once by the same person, or to the same person, are then counted one after
    # the other, and a burst of parallel requests cannot all pass the count.
    list(get_user_model().objects.select_for_update().filter(pk__in=[challenger.pk, target.pk]).order_by("pk"))
    now = timezone.now()
    sent = Challenge.objects.filter(challenger=challenger, is_rematch=False)
    if sent.filter(created_at__gt=now - timedelta(minutes=1)).count() >= PER_MINUTE:
        raise MatchError(
            _("You are sending challenges too fast: at most %(n)s a minute. Wait a minute and try again.")
            % {"n": LocalNumber(PER_MINUTE)},
            ErrorCode.RATE_LIMITED,
        )
    if sent.filter(created_at__gt=now - timedelta(days=1)).count() >= PER_DAY:
        raise MatchError(
            _("You have sent %(n)s challenges today, the most a day allows. Try again tomorrow.")
            % {"n": LocalNumber(PER_DAY)},
            ErrorCode.RATE_LIMITED,
        )
    mine = _waiting().filter(challenger=challenger)
    if mine.count() >= WAITING_SENT:
        raise MatchError(
            _(
                "%(n)s of your challenges are still waiting for an answer: wait for answers, "
                "or call some of those matches off, before sending more."
            )
            % {"n": LocalNumber(WAITING_SENT)},
            ErrorCode.RATE_LIMITED,
        )
    if mine.filter(challenged=target).count() >= WAITING_TO_ONE:
        raise MatchError(
            _("%(name)s has not answered your last %(n)s challenges yet: wait for an answer before sending more.")
            % {"name": target.username, "n": LocalNumber(WAITING_TO_ONE)},
            ErrorCode.RATE_LIMITED,
        )
    if _waiting().filter(challenged=target).count() >= WAITING_RECEIVED:
        raise MatchError(
            _("%(name)s has too many challenges waiting for an answer. Try again later.") % {"name": target.username},
            ErrorCode.RATE_LIMITED,
        )


def _player(username: str, challenger: User) -> User:
    username = (username or "").strip()
    if not username:
        raise MatchError(_("Write the username of the player to challenge."), ErrorCode.INVALID)
    target = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if target is None:
        raise MatchError(_("There is no player called %(name)s.") % {"name": username}, ErrorCode.INVALID)
    if target.pk == challenger.pk:
        raise MatchError(_("You cannot challenge yourself."), ErrorCode.INVALID)
    if people.has_blocked(target.pk, challenger.pk):
        raise MatchError(
            _("%(name)s does not accept challenges from you.") % {"name": target.username}, ErrorCode.FORBIDDEN
        )
    if people.has_blocked(challenger.pk, target.pk):
        raise MatchError(
            _("You blocked %(name)s: unblock them on their profile to challenge them.") % {"name": target.username},
            ErrorCode.FORBIDDEN,
        )
    return target
