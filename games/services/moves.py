"""A move: a person's or a computer seat's action, through the same checks in the same order."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.engine import Action, IllegalAction, InvalidAction
from games.models import Match, Move
from games.record import fairplay
from games.services import announcements
from games.services.base import after_change, announce_on_commit, insert_rows, locked_with_seats, update_where
from games.services.errors import ErrorCode, MatchError
from games.support.i18n import localize


@dataclass(frozen=True, slots=True)
class Moved:
    """A committed move: the match as written, and its announcement (whose replies, once the commit has
    run, include the push's renders: the mover's reply reuses its seat's fragment instead of rendering
    it again)."""

    match: Match
    announcement: announcements.Announcement


def act(*, match_id: int, user: User, action: Action, version: int) -> Match:
    """Apply ``user``'s action to the match as seen at ``version``."""
    return move(match_id=match_id, user=user, action=action, version=version).match


def move(*, match_id: int, user: User, action: Action, version: int) -> Moved:
    """:func:`act`, returning the announcement too (for the mover's HTTP reply)."""
    return _act(match_id=match_id, user=user, bot_seat=None, action=action, version=version)


def bot_act(*, match_id: int, seat: int, action: Action, version: int) -> Match:
    """Apply a computer seat's action; the same checks as a person's."""
    return _act(match_id=match_id, user=None, bot_seat=seat, action=action, version=version).match


def _act(*, match_id: int, user: User | None, bot_seat: int | None, action: Action, version: int) -> Moved:
    if not isinstance(action, dict):
        raise MatchError(_("That request is not a valid move."), ErrorCode.INVALID)
    with transaction.atomic():
        # Lock the row so two simultaneous moves cannot both build on the same version (PostgreSQL).
        # SQLite has no row locks: its IMMEDIATE transactions serialise writers, and the conditional
        # update below refuses a second write at the same version on any database.
        match, seats = locked_with_seats(match_id)
        if user is not None:
            seat = next((s for s in seats if s.user_id == user.pk and not s.is_bot), None)
            if seat is None:
                raise MatchError(_("You do not have a seat in this match."), ErrorCode.FORBIDDEN)
        else:
            seat = seats[bot_seat]
            if not seat.is_bot:
                raise MatchError(_("That seat is not a computer player."), ErrorCode.FORBIDDEN)
        if match.status != Match.Status.ACTIVE:
            raise MatchError(_("This match is not in play."), ErrorCode.NOT_LIVE)
        if version != match.version and not (seat.to_act and match.turn_version <= version <= match.version):
            raise MatchError(
                _("The match has moved on since this page was loaded. Here is the current position."),
                ErrorCode.STALE,
            )
        spec = registry.get(match.game)
        if not seat.to_act:
            raise MatchError(_why_not_to_act(spec, match, seat.number, action), ErrorCode.NOT_YOUR_TURN)
        try:
            state = spec.engine.apply(spec.engine.load(match.state), seat.number, action)
        except InvalidAction as exc:
            raise MatchError(localize(exc.text), ErrorCode.INVALID) from exc
        except IllegalAction as exc:
            raise MatchError(localize(exc.text), ErrorCode.ILLEGAL) from exc
        to_act = spec.engine.to_act(state)
        before = {s.number for s in seats if s.to_act}
        new_version = match.version + 1
        # A simultaneous step keeps its start version while its seats commit one by one.
        turn_version = match.turn_version if set(to_act) <= before and seat.number not in to_act else new_version
        dumped = spec.engine.dump(state)
        now = timezone.now()
        # The next link of the chained log (an unchained match, created before the chain, has none),
        # written with the move itself: the row and the match's latest digest cannot disagree.
        digest = (
            fairplay.link(
                previous=match.log_digest,
                seq=new_version,
                seat=seat.number,
                action=action,
                state=fairplay.state_digest(dumped, match.shuffle_salt),
            )
            if match.log_digest
            else ""
        )
        updated = update_where(
            Match,
            {
                "state": dumped,
                "version": new_version,
                "turn_version": turn_version,
                "move_count": match.move_count + 1,
                "log_digest": digest,
                "updated_at": now,
            },
            pk=match.pk,
            version=match.version,
        )
        if updated != 1:
            raise MatchError(_("Someone else moved first. Here is the current position."), ErrorCode.STALE)
        match.state = dumped
        match.version = new_version
        match.turn_version = turn_version
        match.move_count += 1
        match.log_digest = digest
        log_entry = (match.pk, new_version, seat.number, action, now, digest)
        insert_rows(Move, ["match", "seq", "seat", "payload", "created_at", "digest"], [log_entry])
        after_change(
            match,
            to_act,
            spec.engine.result(state),
            seats=seats,
            follow_up=bot_seat is not None and seat.number in to_act,
        )
        announcement = announce_on_commit(match, seats=seats, moved=True)
    return Moved(match, announcement)


def _why_not_to_act(spec: registry.Game, match: Match, seat: int, action: Action) -> str:
    """The engine's own reason when it has one (e.g. "You have already chosen."), else the usual one.

    Only the engine knows why a seat waits (a commit already made, a step another seat owns), and
    ``apply`` is how it says so: every engine refuses a seat not to act before doing any work, so this
    costs a ``load`` and a refusal, and it runs only on this rejected path.
    """
    try:
        spec.engine.apply(spec.engine.load(match.state), seat, action)
    except IllegalAction as exc:
        if not isinstance(exc, InvalidAction):
            return localize(exc.text)
    return _("It is not your turn.")
