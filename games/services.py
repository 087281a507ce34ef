"""The only code that changes a match. Every function runs in one transaction and announces after commit.

Checks run in a fixed order (who you are, the match is live, your page is current, you may act, the
move is allowed) and a rejection raises ``MatchError`` with a player-facing message, writing nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from games import registry
from games.engine import Action, IllegalAction, InvalidAction
from games.models import Action as ActionRow
from games.models import Match, Seat

log = logging.getLogger(__name__)


class MatchError(Exception):
    """A rejected request. ``message`` is for the player; ``code`` for programs; ``status`` for HTTP."""

    STATUS = {
        "not_found": 404,
        "forbidden": 403,
        "invalid": 400,
        "illegal": 422,
        "not_your_turn": 409,
        "stale": 409,
        "not_live": 409,
        "full": 409,
    }

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = self.STATUS.get(code, 400)


# --- creating and joining ------------------------------------------------------------------------


def create_match(
    *,
    user: Any,
    game: str,
    players: int,
    bot_seats: Iterable[int] = (),
    is_public: bool = True,
    options: dict[str, Any] | None = None,
) -> Match:
    """Create a match with ``user`` in seat 0; it starts at once when no human seat is left open."""
    try:
        spec = registry.get(game)
    except LookupError:
        raise MatchError(_("There is no such game."), "invalid") from None
    if not spec.min_players <= players <= spec.max_players:
        raise MatchError(
            _("%(game)s is for %(min)d to %(max)d players.")
            % {"game": spec.name, "min": spec.min_players, "max": spec.max_players},
            "invalid",
        )
    bots = set(bot_seats)
    if not bots <= set(range(1, players)):
        raise MatchError(_("Computer players can only take the other seats."), "invalid")
    options = dict(options or {})
    try:  # Validate the options now rather than when the last player joins.
        spec.engine.new_game(players, 0, options)
    except IllegalAction as exc:
        raise MatchError(exc.message, "invalid") from exc
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(game=game, players=players, is_public=is_public, options=options, created_by=user)
        Seat.objects.bulk_create(
            [
                Seat(
                    match=match,
                    number=n,
                    user=user if n == 0 else None,
                    is_bot=n in bots,
                    joined_at=now if n == 0 or n in bots else None,
                )
                for n in range(players)
            ]
        )
        if len(bots) == players - 1:
            _start(match)
        _announce_on_commit(match)
    return match


def join_match(*, match_id: int, user: Any, token: str | None = None) -> Match:
    """Take the lowest open seat; the match starts when the last seat fills."""
    with transaction.atomic():
        # Lock the row so two people cannot both take the last open seat.
        match = _locked(match_id)
        if not match.is_public and token != match.invite_token:
            raise MatchError(_("This match is by invitation only."), "forbidden")
        if match.status != Match.Status.WAITING:
            raise MatchError(_("This match is no longer open to join."), "not_live")
        seats = list(match.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise MatchError(_("You already have a seat in this match."), "invalid")
        open_seats = [s for s in seats if s.is_open]
        if not open_seats:
            raise MatchError(_("This match is full."), "full")
        seat = open_seats[0]
        seat.user = user
        seat.joined_at = timezone.now()
        seat.save(update_fields=["user", "joined_at"])
        match.version += 1
        match.save(update_fields=["version", "updated_at"])
        if len(open_seats) == 1:
            _start(match)
        _announce_on_commit(match)
    return match


def _start(match: Match) -> None:
    spec = registry.get(match.game)
    state = spec.engine.new_game(match.players, match.seed, match.options)
    match.state = spec.engine.dump(state)
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    match.turn_version = match.version
    match.save(update_fields=["state", "status", "started_at", "turn_version", "updated_at"])
    _after_change(match, spec.engine.to_act(state), spec.engine.result(state))


# --- playing -------------------------------------------------------------------------------------


def act(*, match_id: int, user: Any, action: Action, version: int) -> Match:
    """Apply ``user``'s action to the match as seen at ``version``."""
    return _act(match_id=match_id, user=user, bot_seat=None, action=action, version=version)


def bot_act(*, match_id: int, seat: int, action: Action, version: int) -> Match:
    """Apply a computer seat's action; the same checks as a person's."""
    return _act(match_id=match_id, user=None, bot_seat=seat, action=action, version=version)


def _act(*, match_id: int, user: Any, bot_seat: int | None, action: Action, version: int) -> Match:
    if not isinstance(action, dict):
        raise MatchError(_("That request is not a valid move."), "invalid")
    with transaction.atomic():
        # Lock the row so two simultaneous moves cannot both build on the same version (PostgreSQL).
        # SQLite has no row locks: its IMMEDIATE transactions serialise writers, and the conditional
        # update below refuses a second write at the same version on any database.
        match = _locked(match_id)
        seats = list(match.seats.all())
        if bot_seat is None:
            seat = next((s for s in seats if s.user_id == user.pk and not s.is_bot), None)
            if seat is None:
                raise MatchError(_("You do not have a seat in this match."), "forbidden")
        else:
            seat = seats[bot_seat]
            if not seat.is_bot:
                raise MatchError(_("That seat is not a computer player."), "forbidden")
        if match.status != Match.Status.ACTIVE:
            raise MatchError(_("This match is not in play."), "not_live")
        if version != match.version and not (version >= match.turn_version and seat.to_act):
            raise MatchError(
                _("The match has moved on since this page was loaded. Here is the current position."),
                "stale",
            )
        if not seat.to_act:
            raise MatchError(_("It is not your turn."), "not_your_turn")
        spec = registry.get(match.game)
        try:
            state = spec.engine.apply(spec.engine.load(match.state), seat.number, action)
        except InvalidAction as exc:
            raise MatchError(exc.message, "invalid") from exc
        except IllegalAction as exc:
            raise MatchError(exc.message, "illegal") from exc
        to_act = spec.engine.to_act(state)
        before = {s.number for s in seats if s.to_act}
        new_version = match.version + 1
        # A simultaneous step keeps its start version while its seats commit one by one.
        turn_version = match.turn_version if set(to_act) <= before and seat.number not in to_act else new_version
        updated = Match.objects.filter(pk=match.pk, version=match.version).update(
            state=spec.engine.dump(state),
            version=new_version,
            turn_version=turn_version,
            moves=match.moves + 1,
            updated_at=timezone.now(),
        )
        if updated != 1:
            raise MatchError(_("Someone else moved first. Here is the current position."), "stale")
        match.state = spec.engine.dump(state)
        match.version = new_version
        match.turn_version = turn_version
        match.moves += 1
        ActionRow.objects.create(match=match, seq=new_version, seat=seat.number, payload=action)
        _after_change(match, to_act, spec.engine.result(state), seats=seats)
        _announce_on_commit(match, seats=seats)
    return match


# --- leaving -------------------------------------------------------------------------------------


def resign(*, match_id: int, user: Any) -> Match:
    """Resign: in a two-player match the opponent wins; otherwise a computer player takes the seat."""
    with transaction.atomic():
        match = _locked(match_id)
        seats = list(match.seats.all())
        seat = next((s for s in seats if s.user_id == user.pk and not s.resigned), None)
        if seat is None:
            raise MatchError(_("You do not have a seat in this match."), "forbidden")
        if match.status != Match.Status.ACTIVE:
            raise MatchError(_("Only a match in play can be resigned."), "not_live")
        seat.resigned = True
        seat.outcome = Seat.Outcome.LOSS
        match.version += 1
        match.turn_version = match.version
        if match.players == 2:
            seat.save(update_fields=["resigned", "outcome"])
            other = seats[1 - seat.number]
            ranks = [2, 2]
            ranks[other.number] = 1
            _finish(match, {"scores": [0, 0], "ranks": ranks, "detail": {"resigned": seat.number}}, seats)
        else:
            seat.is_bot = True
            seat.save(update_fields=["resigned", "outcome", "is_bot"])
            match.save(update_fields=["version", "turn_version", "updated_at"])
            spec = registry.get(match.game)
            _after_change(match, spec.engine.to_act(spec.engine.load(match.state)), None, seats=seats)
        _announce_on_commit(match, seats=seats)
    return match


def abort(*, match_id: int, user: Any) -> Match:
    """Call off a match before its first move; it leaves no record."""
    with transaction.atomic():
        match = _locked(match_id)
        seats = list(match.seats.all())
        if not any(s.user_id == user.pk for s in seats):
            raise MatchError(_("You do not have a seat in this match."), "forbidden")
        if match.status not in (Match.Status.WAITING, Match.Status.ACTIVE) or match.moves:
            raise MatchError(_("A match can only be aborted before the first move."), "not_live")
        match.status = Match.Status.ABORTED
        match.version += 1
        match.bot_due_at = None
        match.save(update_fields=["status", "version", "bot_due_at", "updated_at"])
        Seat.objects.filter(match=match).update(to_act=False, waiting_since=None)
        _announce_on_commit(match, seats=seats)
    return match


# --- helpers -------------------------------------------------------------------------------------


def _locked(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchError(_("There is no such match."), "not_found") from None


def _after_change(
    match: Match, to_act: list[int], result: dict[str, Any] | None, *, seats: list[Seat] | None = None
) -> None:
    """Record who must act now (or the result), and when a computer seat is due."""
    if result is not None:
        _finish(match, result, seats if seats is not None else list(match.seats.all()))
        return
    now = timezone.now()
    Seat.objects.filter(match=match).update(
        waiting_since=Case(
            When(number__in=to_act, to_act=False, then=Value(now)),
            When(number__in=to_act, then=F("waiting_since")),
            default=None,
        ),
        to_act=Case(When(number__in=to_act, then=Value(True)), default=Value(False)),
    )
    bot_numbers = {s.number for s in (seats if seats is not None else match.seats.all()) if s.is_bot}
    due = now + timedelta(seconds=settings.BOT_DELAY_SECONDS) if bot_numbers & set(to_act) else None
    Match.objects.filter(pk=match.pk).update(bot_due_at=due, bot_lease_until=None)
    match.bot_due_at = due
    match.bot_lease_until = None


def _finish(match: Match, result: dict[str, Any], seats: list[Seat]) -> None:
    now = timezone.now()
    match.status = Match.Status.FINISHED
    match.result = result
    match.finished_at = now
    match.bot_due_at = None
    match.bot_lease_until = None
    match.save(
        update_fields=[
            "status",
            "result",
            "finished_at",
            "bot_due_at",
            "bot_lease_until",
            "version",
            "turn_version",
            "updated_at",
        ]
    )
    everyone_first = all(rank == 1 for rank in result["ranks"])
    for seat in seats:
        if seat.resigned:
            seat.outcome = Seat.Outcome.LOSS
        elif everyone_first:
            seat.outcome = Seat.Outcome.DRAW
        else:
            seat.outcome = Seat.Outcome.WIN if result["ranks"][seat.number] == 1 else Seat.Outcome.LOSS
        seat.score = result["scores"][seat.number]
        seat.to_act = False
        seat.waiting_since = None
    Seat.objects.bulk_update(seats, ["outcome", "score", "to_act", "waiting_since"])


def _announce_on_commit(match: Match, *, seats: list[Seat] | None = None) -> None:
    from games import bots, realtime

    user_ids = sorted({s.user_id for s in (seats if seats is not None else match.seats.all()) if s.user_id})
    transaction.on_commit(partial(realtime.announce, match.pk, match.version, user_ids))
    if match.bot_due_at is not None:
        transaction.on_commit(bots.wake)
