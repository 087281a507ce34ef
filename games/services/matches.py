"""Creating, joining, starting, calling off and rematching a match."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.engine import IllegalAction
from games.models import Match, Notice, Seat
from games.services import challenge_records, people, predicates
from games.services.base import after_change, announce_on_commit, bump, humans, locked, seats_of
from games.services.errors import ErrorCode, MatchError
from games.support.i18n import LocalNumber, localize
from games.support.paces import PACES


def create_match(
    *,
    user: User,
    game: str,
    players: int,
    bot_seats: Iterable[int] = (),
    is_public: bool = True,
    options: dict[str, Any] | None = None,
    pace_seconds: int | None = None,
    rated: bool = False,
    bot_levels: Mapping[int, str] | None = None,
) -> Match:
    """Create a match with ``user`` in seat 0; it starts at once when no human seat is left open.

    ``bot_levels`` maps computer seats to a ``Seat.BotLevel``; a computer seat not named plays at medium.
    """
    try:
        spec = registry.get(game)
    except LookupError:
        raise MatchError(_("There is no such game."), ErrorCode.INVALID) from None
    if not spec.min_players <= players <= spec.max_players:
        raise MatchError(
            _("%(game)s is for %(min)s to %(max)s players.")
            % {"game": spec.name, "min": LocalNumber(spec.min_players), "max": LocalNumber(spec.max_players)},
            ErrorCode.INVALID,
        )
    bots = set(bot_seats)
    if not bots <= set(range(1, players)):
        raise MatchError(_("Computer players can only take the other seats."), ErrorCode.INVALID)
    levels = dict(bot_levels or {})
    if not set(levels) <= bots or not set(levels.values()) <= set(Seat.BotLevel.values):
        raise MatchError(_("Choose easy, medium or hard for each computer player."), ErrorCode.INVALID)
    if pace_seconds not in {p for p, _label in PACES}:
        raise MatchError(_("That pace is not offered."), ErrorCode.INVALID)
    if rated and bots:
        raise MatchError(
            _("A match with computer players is always casual: make it unrated, or leave the seats to people."),
            ErrorCode.INVALID,
        )
    options = dict(options or {})
    # Only what the new-match form offers: the engines' other options (a stacked deck, a chosen dealer,
    # a start position) set up tests, and would let the server deal what it likes (docs/fair-play.md).
    not_offered = sorted(set(options) - {o.key for o in spec.options})
    if not_offered and not settings.ALLOW_TEST_SETUPS:
        raise MatchError(
            _("A real match cannot have these options, which set up tests: %(options)s.")
            % {"options": ", ".join(map(str, not_offered))},
            ErrorCode.INVALID,
        )
    try:  # Validate the options now rather than when the last player joins.
        spec.engine.new_game(players, 0, options)
    except IllegalAction as exc:
        raise MatchError(localize(exc.text), ErrorCode.INVALID) from exc
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            player_count=players,
            is_public=is_public,
            options=options,
            created_by=user,
            pace_seconds=pace_seconds,
            rated=rated,
        )
        seats = Seat.objects.bulk_create(
            [
                Seat(
                    match=match,
                    number=n,
                    user=user if n == 0 else None,
                    is_bot=n in bots,
                    bot_level=levels.get(n, Seat.BotLevel.MEDIUM),
                    joined_at=now if n == 0 or n in bots else None,
                )
                for n in range(players)
            ]
        )
        if len(bots) == players - 1:
            _start(match, seats)
        announce_on_commit(match, seats=seats)
    return match


def join_match(*, match_id: int, user: User, token: str | None = None) -> Match:
    """Take the seat kept for this player (a rematch), else the lowest open seat; start when full."""
    with transaction.atomic():
        # Lock the row so two people cannot both take the last open seat.
        match = locked(match_id)
        seats = seats_of(match)
        reserved = next((s for s in seats if s.reserved_for_id == user.pk and s.user_id is None), None)
        if not match.is_public and token != match.invite_token and reserved is None:
            raise MatchError(_("This match is by invitation only."), ErrorCode.FORBIDDEN)
        if match.status != Match.Status.WAITING:
            raise MatchError(_("This match is no longer open to join."), ErrorCode.NOT_LIVE)
        if any(s.user_id == user.pk for s in seats):
            raise MatchError(_("You already have a seat in this match."), ErrorCode.INVALID)
        open_seats = [s for s in seats if s.is_open and s.reserved_for_id in (None, user.pk)]
        if reserved is None and not open_seats:
            raise MatchError(_("This match is full."), ErrorCode.FULL)
        seat = reserved or open_seats[0]
        seat.user = user
        seat.joined_at = timezone.now()
        seat.save(update_fields=["user", "joined_at"])
        if reserved is not None:
            challenge_records.mark_accepted(match, user)
        bump(match)
        match.save(update_fields=["version", "turn_version", "updated_at"])
        if not any(s.is_open for s in seats):
            _start(match, seats)
        announce_on_commit(match, seats=seats)
    return match


def _start(match: Match, seats: list[Seat]) -> None:
    spec = registry.get(match.game)
    state = spec.engine.new_game(match.player_count, match.seed, match.options)
    now = timezone.now()
    match.state = spec.engine.dump(state)
    match.status = Match.Status.ACTIVE
    match.started_at = now
    match.turn_version = match.version
    match.save(update_fields=["state", "status", "started_at", "turn_version", "updated_at"])
    Notice.objects.bulk_create(
        [Notice(user_id=s.user_id, match=match, kind=Notice.Kind.STARTED, created_at=now) for s in humans(seats)]
    )
    after_change(match, spec.engine.to_act(state), spec.engine.result(state), seats=seats)


def abort(*, match_id: int, user: User) -> Match:
    """Call off a match before its first move; it leaves no record."""
    with transaction.atomic():
        match = locked(match_id)
        seats = seats_of(match)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise MatchError(_("You do not have a seat in this match."), ErrorCode.FORBIDDEN)
        if predicates.hands_dealt_in_rated(match):
            raise MatchError(
                _("The cards are dealt in this rated match: it can no longer be called off, only resigned."),
                ErrorCode.NOT_LIVE,
            )
        if not predicates.can_abort(match, mine):
            raise MatchError(_("A match can only be aborted before the first move."), ErrorCode.NOT_LIVE)
        match.status = Match.Status.ABORTED
        match.version += 1
        match.bot_due_at = None
        match.save(update_fields=["status", "version", "bot_due_at", "updated_at"])
        Seat.objects.filter(match=match).update(to_act=False, waiting_since=None, deadline_at=None, warn_at=None)
        announce_on_commit(match, seats=seats)
    return match


def offer_rematch(*, match_id: int, user: User) -> Match:
    """A new match between the same players with seats rotated; the others' seats are kept for them."""
    with transaction.atomic():
        match = locked(match_id)
        seats = seats_of(match)
        if not any(s.user_id == user.pk for s in seats):
            raise MatchError(_("You do not have a seat in this match."), ErrorCode.FORBIDDEN)
        if match.status != Match.Status.FINISHED:
            raise MatchError(_("A rematch can be offered once the match is over."), ErrorCode.NOT_LIVE)
        if people.blocked_pairs(s.user_id for s in humans(seats)):
            raise MatchError(_("A player of this match blocked another: no rematch is offered."), ErrorCode.FORBIDDEN)
        existing = Match.objects.filter(rematch_of=match).first()
        if existing is not None:
            return existing
        now = timezone.now()
        rematch = Match.objects.create(
            game=match.game,
            player_count=match.player_count,
            is_public=match.is_public,
            options=match.options,
            created_by=user,
            pace_seconds=match.pace_seconds,
            rematch_of=match,
            rated=match.rated,
        )
        new_seats = []
        for old in seats:
            number = (old.number + 1) % match.player_count
            computer = old.is_bot and old.user_id is None
            new_seats.append(
                Seat(
                    match=rematch,
                    number=number,
                    is_bot=computer,
                    bot_level=old.bot_level,
                    user=user if old.user_id == user.pk else None,
                    reserved_for_id=None if computer or old.user_id == user.pk else old.user_id,
                    joined_at=now if computer or old.user_id == user.pk else None,
                )
            )
        new_seats = Seat.objects.bulk_create(sorted(new_seats, key=lambda s: s.number))
        challenge_records.record_rematch_offers(rematch, new_seats, by=user)
        if not any(s.is_open for s in new_seats):
            _start(rematch, new_seats)
        bump(match)
        match.save(update_fields=["version", "turn_version", "updated_at"])
        announce_on_commit(match, seats=seats)
        announce_on_commit(rematch, seats=new_seats)
    return rematch
