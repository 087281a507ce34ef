"""The only code that changes a match. Every function runs in one transaction and announces after commit.

Checks run in a fixed order (who you are, the match is live, your page is current, you may act, the
move is allowed) and a rejection raises ``MatchError`` with a player-facing message, writing nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import ratings, registry
from games.engine import Action, IllegalAction, InvalidAction
from games.i18n import localize
from games.models import Action as ActionRow
from games.models import ChatMessage, Match, Notice, Seat

log = logging.getLogger(__name__)

# Paces a match creator may pick (seconds per move; None: no limit).
PACES: list[tuple[int | None, Any]] = [
    (None, gettext_lazy("No time limit")),
    (10 * 60, gettext_lazy("10 minutes per move (live)")),
    (24 * 3600, gettext_lazy("1 day per move")),
    (3 * 24 * 3600, gettext_lazy("3 days per move")),
    (7 * 24 * 3600, gettext_lazy("7 days per move")),
]
WARN_AT_FRACTION = 0.8
CHAT_BURST = 5  # messages ...
CHAT_WINDOW = timedelta(seconds=30)  # ... per this window, per player and match


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
        "rate_limited": 429,
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
    levels = dict(bot_levels or {})
    if not set(levels) <= bots or not set(levels.values()) <= set(Seat.BotLevel.values):
        raise MatchError(_("Choose easy, medium or hard for each computer player."), "invalid")
    if pace_seconds not in {p for p, _label in PACES}:
        raise MatchError(_("That pace is not offered."), "invalid")
    if rated and bots:
        raise MatchError(
            _("A match with computer players is always casual: make it unrated, or leave the seats to people."),
            "invalid",
        )
    options = dict(options or {})
    try:  # Validate the options now rather than when the last player joins.
        spec.engine.new_game(players, 0, options)
    except IllegalAction as exc:
        raise MatchError(localize(exc.text), "invalid") from exc
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            players=players,
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
        _announce_on_commit(match, seats=seats)
    return match


def join_match(*, match_id: int, user: Any, token: str | None = None) -> Match:
    """Take the seat kept for this player (a rematch), else the lowest open seat; start when full."""
    with transaction.atomic():
        # Lock the row so two people cannot both take the last open seat.
        match = _locked(match_id)
        seats = _seats(match)
        reserved = next((s for s in seats if s.reserved_for_id == user.pk and s.user_id is None), None)
        if not match.is_public and token != match.invite_token and reserved is None:
            raise MatchError(_("This match is by invitation only."), "forbidden")
        if match.status != Match.Status.WAITING:
            raise MatchError(_("This match is no longer open to join."), "not_live")
        if any(s.user_id == user.pk for s in seats):
            raise MatchError(_("You already have a seat in this match."), "invalid")
        open_seats = [s for s in seats if s.is_open and s.reserved_for_id in (None, user.pk)]
        if reserved is None and not open_seats:
            raise MatchError(_("This match is full."), "full")
        seat = reserved or open_seats[0]
        seat.user = user
        seat.joined_at = timezone.now()
        seat.save(update_fields=["user", "joined_at"])
        if reserved is not None:
            from games import challenges

            challenges.mark_accepted(match, user)
        match.version += 1
        match.turn_version = match.version
        match.save(update_fields=["version", "turn_version", "updated_at"])
        if not any(s.is_open for s in seats):
            _start(match, seats)
        _announce_on_commit(match, seats=seats)
    return match


def _start(match: Match, seats: list[Seat]) -> None:
    spec = registry.get(match.game)
    state = spec.engine.new_game(match.players, match.seed, match.options)
    now = timezone.now()
    match.state = spec.engine.dump(state)
    match.status = Match.Status.ACTIVE
    match.started_at = now
    match.turn_version = match.version
    match.save(update_fields=["state", "status", "started_at", "turn_version", "updated_at"])
    Notice.objects.bulk_create(
        [Notice(user_id=s.user_id, match=match, kind=Notice.Kind.STARTED, created_at=now) for s in _humans(seats)]
    )
    _after_change(match, spec.engine.to_act(state), spec.engine.result(state), seats=seats)


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
        match, seats = _locked_with_seats(match_id)
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
        if version != match.version and not (seat.to_act and match.turn_version <= version <= match.version):
            raise MatchError(
                _("The match has moved on since this page was loaded. Here is the current position."),
                "stale",
            )
        spec = registry.get(match.game)
        if not seat.to_act:
            raise MatchError(_why_not_to_act(spec, match, seat.number, action), "not_your_turn")
        try:
            state = spec.engine.apply(spec.engine.load(match.state), seat.number, action)
        except InvalidAction as exc:
            raise MatchError(localize(exc.text), "invalid") from exc
        except IllegalAction as exc:
            raise MatchError(localize(exc.text), "illegal") from exc
        to_act = spec.engine.to_act(state)
        before = {s.number for s in seats if s.to_act}
        new_version = match.version + 1
        # A simultaneous step keeps its start version while its seats commit one by one.
        turn_version = match.turn_version if set(to_act) <= before and seat.number not in to_act else new_version
        dumped = spec.engine.dump(state)
        updated = Match.objects.filter(pk=match.pk, version=match.version).update(
            state=dumped,
            version=new_version,
            turn_version=turn_version,
            moves=match.moves + 1,
            updated_at=timezone.now(),
        )
        if updated != 1:
            raise MatchError(_("Someone else moved first. Here is the current position."), "stale")
        match.state = dumped
        match.version = new_version
        match.turn_version = turn_version
        match.moves += 1
        ActionRow.objects.create(match=match, seq=new_version, seat=seat.number, payload=action)
        _after_change(
            match,
            to_act,
            spec.engine.result(state),
            seats=seats,
            follow_up=bot_seat is not None and seat.number in to_act,
        )
        _announce_on_commit(match, seats=seats, moved=True)
    return match


# --- leaving, time, substitutes ------------------------------------------------------------------


def resign(*, match_id: int, user: Any) -> Match:
    """Resign: in a two-player match the opponent wins; otherwise a computer substitute takes the seat."""
    with transaction.atomic():
        match = _locked(match_id)
        seats = _seats(match)
        seat = next((s for s in seats if s.user_id == user.pk and not s.resigned), None)
        if seat is None:
            raise MatchError(_("You do not have a seat in this match."), "forbidden")
        if match.status != Match.Status.ACTIVE:
            raise MatchError(_("Only a match in play can be resigned."), "not_live")
        seat.resigned = True
        seat.left = Seat.Left.RESIGNED
        _bump(match)
        if match.players == 2:
            _finish(match, _forfeit_result(match, loser=seat.number), seats)
        else:
            seat.is_bot = True
            seat.substitute = True
            seat.save(update_fields=["resigned", "left", "is_bot", "substitute"])
            match.save(update_fields=["version", "turn_version", "updated_at"])
            _after_change(match, _to_act(match), None, seats=seats)
        _announce_on_commit(match, seats=seats)
    return match


def abort(*, match_id: int, user: Any) -> Match:
    """Call off a match before its first move; it leaves no record."""
    with transaction.atomic():
        match = _locked(match_id)
        seats = _seats(match)
        if not any(s.user_id == user.pk for s in seats):
            raise MatchError(_("You do not have a seat in this match."), "forbidden")
        if match.status not in (Match.Status.WAITING, Match.Status.ACTIVE) or match.moves:
            raise MatchError(_("A match can only be aborted before the first move."), "not_live")
        match.status = Match.Status.ABORTED
        match.version += 1
        match.bot_due_at = None
        match.save(update_fields=["status", "version", "bot_due_at", "updated_at"])
        Seat.objects.filter(match=match).update(to_act=False, waiting_since=None, deadline_at=None, warn_at=None)
        _announce_on_commit(match, seats=seats)
    return match


def warn_deadline(*, seat_id: int, now: datetime) -> bool:
    """Note once that a seat's time is 80% gone. True if this call did it."""
    with transaction.atomic():
        # The conditional update is the claim: with several clock workers only one sees a row change.
        done = Seat.objects.filter(
            pk=seat_id, deadline_warned=False, to_act=True, is_bot=False, warn_at__lte=now
        ).update(deadline_warned=True)
        if done:
            seat = Seat.objects.get(pk=seat_id)
            Notice.objects.create(
                user_id=seat.user_id, match_id=seat.match_id, kind=Notice.Kind.DEADLINE, created_at=now
            )
    return bool(done)


def time_out(*, seat_id: int, now: datetime) -> bool:
    """A seat's deadline passed: substitute it, or let the opponent claim the win. True if handled here."""
    match_id = Seat.objects.filter(pk=seat_id).values_list("match_id", flat=True).first()
    if match_id is None:
        return False
    with transaction.atomic():
        match = _locked(match_id)
        seats = _seats(match)
        seat = next(s for s in seats if s.pk == seat_id)
        due = (
            match.status == Match.Status.ACTIVE
            and seat.to_act
            and not seat.is_bot
            and not seat.timed_out
            and seat.deadline_at is not None
            and seat.deadline_at <= now
            and not (seat.user and seat.user.on_vacation(now))
        )
        if not due:
            return False
        seat.timed_out = True
        _bump(match)
        spec = registry.get(match.game)
        if spec.timeout_policy == "substitute":
            seat.is_bot = True
            seat.substitute = True
            seat.save(update_fields=["timed_out", "is_bot", "substitute"])
            match.save(update_fields=["version", "turn_version", "updated_at"])
            _after_change(match, _to_act(match), None, seats=seats)
        else:
            seat.save(update_fields=["timed_out"])
            match.save(update_fields=["version", "turn_version", "updated_at"])
        Notice.objects.bulk_create(
            [Notice(user_id=s.user_id, match=match, kind=Notice.Kind.TIMEOUT, created_at=now) for s in _humans(seats)]
        )
        _announce_on_commit(match, seats=seats)
    return True


def claim_win(*, match_id: int, user: Any) -> Match:
    """End a two-player match whose opponent ran out of time, in the claimer's favour."""
    with transaction.atomic():
        match = _locked(match_id)
        seats = _seats(match)
        seat = next((s for s in seats if s.user_id == user.pk and not s.is_bot), None)
        if seat is None:
            raise MatchError(_("You do not have a seat in this match."), "forbidden")
        if match.status != Match.Status.ACTIVE:
            raise MatchError(_("This match is not in play."), "not_live")
        late = next((s for s in seats if s.number != seat.number and s.timed_out and s.to_act), None)
        if match.players != 2 or late is None:
            raise MatchError(_("There is no win to claim: your opponent still has time."), "invalid")
        late.left = Seat.Left.TIMED_OUT
        _bump(match)
        _finish(match, _forfeit_result(match, loser=late.number), seats)
        _announce_on_commit(match, seats=seats)
    return match


def reclaim_seat(*, match_id: int, user: Any) -> Match:
    """Take back a seat a computer substitute was playing (not after resigning)."""
    with transaction.atomic():
        match = _locked(match_id)
        seats = _seats(match)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise MatchError(_("You do not have a seat in this match."), "forbidden")
        if match.status != Match.Status.ACTIVE or not seat.substitute:
            raise MatchError(_("Nobody is playing your seat for you."), "invalid")
        if seat.resigned:
            raise MatchError(_("You resigned this match, so the substitute plays on."), "forbidden")
        seat.is_bot = False
        seat.substitute = False
        seat.timed_out = False
        seat.save(update_fields=["is_bot", "substitute", "timed_out"])
        seat.to_act = False  # so the turn counts as new: the player's clock starts afresh
        _bump(match)
        match.save(update_fields=["version", "turn_version", "updated_at"])
        _after_change(match, _to_act(match), None, seats=seats)
        _announce_on_commit(match, seats=seats)
    return match


# --- vacation ------------------------------------------------------------------------------------


def vacation_days_left(user: Any, now: datetime) -> int:
    """Days of the yearly allowance not yet booked (a vacation ended early books only the days used)."""
    booked = sum(((v.ends_at - v.starts_at) for v in user.vacations.filter(starts_at__year=now.year)), timedelta())
    booked_days = -(-int(booked.total_seconds()) // 86400)  # a started day counts whole
    return max(0, settings.VACATION_DAYS_PER_YEAR - booked_days)


def start_vacation(*, user: Any, days: int, now: datetime | None = None) -> None:
    """Stop the player's clocks for ``days`` days, within the yearly allowance."""
    from accounts.models import Vacation

    now = now or timezone.now()
    if user.on_vacation(now):
        raise MatchError(_("You are already on vacation."), "invalid")
    left = vacation_days_left(user, now)
    if not 1 <= days <= left:
        raise MatchError(_("You can take 1 to %(n)d days of vacation this year.") % {"n": left}, "invalid")
    length = timedelta(days=days)
    with transaction.atomic():
        Vacation.objects.create(user=user, starts_at=now, ends_at=now + length)
        user.vacation_until = now + length
        user.save(update_fields=["vacation_until"])
        _shift_deadlines(user, length)


def end_vacation(*, user: Any, now: datetime | None = None) -> None:
    """Come back early: the unused days are not counted and the clocks run again."""
    now = now or timezone.now()
    if not user.on_vacation(now):
        raise MatchError(_("You are not on vacation."), "invalid")
    unused = user.vacation_until - now
    with transaction.atomic():
        user.vacations.filter(ends_at=user.vacation_until).update(ends_at=now)
        user.vacation_until = None
        user.save(update_fields=["vacation_until"])
        _shift_deadlines(user, -unused)


def _shift_deadlines(user: Any, delta: timedelta) -> None:
    Seat.objects.filter(user=user, deadline_at__isnull=False).update(
        deadline_at=F("deadline_at") + delta, warn_at=F("warn_at") + delta
    )


# --- rematch and chat ----------------------------------------------------------------------------


def offer_rematch(*, match_id: int, user: Any) -> Match:
    """A new match between the same players with seats rotated; the others' seats are kept for them."""
    with transaction.atomic():
        match = _locked(match_id)
        seats = _seats(match)
        if not any(s.user_id == user.pk for s in seats):
            raise MatchError(_("You do not have a seat in this match."), "forbidden")
        if match.status != Match.Status.FINISHED:
            raise MatchError(_("A rematch can be offered once the match is over."), "not_live")
        existing = Match.objects.filter(rematch_of=match).first()
        if existing is not None:
            return existing
        now = timezone.now()
        rematch = Match.objects.create(
            game=match.game,
            players=match.players,
            is_public=match.is_public,
            options=match.options,
            created_by=user,
            pace_seconds=match.pace_seconds,
            rematch_of=match,
            rated=match.rated,
        )
        new_seats = []
        for old in seats:
            number = (old.number + 1) % match.players
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
        from games import challenges

        challenges.record_rematch_offers(rematch, new_seats, by=user)
        if not any(s.is_open for s in new_seats):
            _start(rematch, new_seats)
        _bump(match)
        match.save(update_fields=["version", "turn_version", "updated_at"])
        _announce_on_commit(match, seats=seats)
        _announce_on_commit(rematch, seats=new_seats)
    return rematch


def post_chat(*, match_id: int, user: Any, text: str, now: datetime | None = None) -> ChatMessage:
    """Add a line to the match chat: players only, length- and rate-limited."""
    now = now or timezone.now()
    text = (text or "").strip()
    if not Match.objects.filter(pk=match_id).exists():
        raise MatchError(_("There is no such match."), "not_found")
    with transaction.atomic():
        # Lock the player's seat so parallel posts are counted one after another: without it, 40 posts
        # sent at once each saw fewer than CHAT_BURST recent messages and 8 got in. (On SQLite the
        # IMMEDIATE transaction serialises them.)
        if not list(Seat.objects.select_for_update().filter(match_id=match_id, user=user)):
            raise MatchError(_("Only the players can write in this chat."), "forbidden")
        if not text:
            raise MatchError(_("Write something first."), "invalid")
        if len(text) > ChatMessage.MAX_LENGTH:
            raise MatchError(
                _("A message can be at most %(n)d characters long.") % {"n": ChatMessage.MAX_LENGTH}, "invalid"
            )
        if "\x00" in text:
            # PostgreSQL cannot store a NUL character, and no keyboard types one: refuse rather than guess.
            raise MatchError(_("A message cannot contain NUL characters."), "invalid")
        recent = ChatMessage.objects.filter(match_id=match_id, user=user, created_at__gt=now - CHAT_WINDOW).count()
        if recent >= CHAT_BURST:
            raise MatchError(_("You are writing too fast; wait a few seconds."), "rate_limited")
        message = ChatMessage.objects.create(match_id=match_id, user=user, text=text)
        if message.created_at != now:
            ChatMessage.objects.filter(pk=message.pk).update(created_at=now)
            message.created_at = now
        from games import realtime

        transaction.on_commit(partial(realtime.announce_chat, match_id))
    return message


# --- helpers -------------------------------------------------------------------------------------


def _locked(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchError(_("There is no such match."), "not_found") from None


def _locked_with_seats(match_id: int) -> tuple[Match, list[Seat]]:
    """:func:`_locked` and :func:`_seats` in one round trip (a move's query budget is small)."""
    try:
        seats = list(
            Seat.objects.filter(match_id=match_id)
            .select_related("match", "user")
            .select_for_update(of=("match",))
            .order_by("number")
        )
    except (ValueError, TypeError):
        seats = []
    if not seats:  # every match has its seats from the start
        raise MatchError(_("There is no such match."), "not_found")
    match = seats[0].match
    for seat in seats:
        seat.match = match
    return match, seats


def _seats(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).select_related("user").order_by("number"))


def _humans(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.user_id is not None and not s.is_bot]


def _bump(match: Match) -> None:
    match.version += 1
    match.turn_version = match.version


def _to_act(match: Match) -> list[int]:
    engine = registry.get(match.game).engine
    return engine.to_act(engine.load(match.state))


def _why_not_to_act(spec: registry.Game, match: Match, seat: int, action: Action) -> str:
    """The engine's own reason when it has one (e.g. "You have already chosen."), else the usual one."""
    try:
        spec.engine.apply(spec.engine.load(match.state), seat, action)
    except IllegalAction as exc:
        if not isinstance(exc, InvalidAction):
            return localize(exc.text)
    return _("It is not your turn.")


def _forfeit_result(match: Match, *, loser: int) -> dict[str, Any]:
    ranks = [1] * match.players
    ranks[loser] = 2
    return {"scores": [0] * match.players, "ranks": ranks, "detail": {"forfeit": loser}}


def _deadline(match: Match, seat: Seat, now: datetime) -> tuple[datetime | None, datetime | None]:
    if match.pace_seconds is None or seat.is_bot or seat.user_id is None:
        return None, None
    start = now
    if seat.user.on_vacation(now):
        start = seat.user.vacation_until
    pace = timedelta(seconds=match.pace_seconds)
    return start + pace, start + pace * WARN_AT_FRACTION


def _after_change(
    match: Match, to_act: list[int], result: dict[str, Any] | None, *, seats: list[Seat], follow_up: bool = False
) -> None:
    """Record who must act now (their clocks and notices), or the result; and when a computer is due.

    ``follow_up``: a computer just acted and acts again in the same turn (a DOS turn has several
    steps); a shorter pause keeps the turn readable without making people wait for each step.
    """
    if result is not None:
        _finish(match, result, seats)
        return
    now = timezone.now()
    notices = []
    for seat in seats:
        if seat.number in to_act:
            if not seat.to_act:
                seat.to_act = True
                seat.waiting_since = now
                seat.deadline_at, seat.warn_at = _deadline(match, seat, now)
                seat.deadline_warned = False
                seat.timed_out = False
                if seat.user_id is not None and not seat.is_bot:
                    notices.append(Notice(user_id=seat.user_id, match=match, kind=Notice.Kind.TURN, created_at=now))
        else:
            seat.to_act = False
            seat.waiting_since = seat.deadline_at = seat.warn_at = None
            seat.deadline_warned = seat.timed_out = False
    Seat.objects.bulk_update(
        seats, ["to_act", "waiting_since", "deadline_at", "warn_at", "deadline_warned", "timed_out"]
    )
    if notices:
        Notice.objects.bulk_create(notices)
    computer_to_act = any(s.is_bot and s.to_act for s in seats)
    delay = settings.BOT_DELAY_SECONDS
    if follow_up:
        delay = min(delay, settings.BOT_FOLLOW_UP_DELAY_SECONDS)
    due = now + timedelta(seconds=delay) if computer_to_act else None
    # ``match`` was read under the lock, so an unchanged pair needs no write (people-only matches).
    if (match.bot_due_at, match.bot_lease_until) != (due, None):
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
        if seat.resigned or seat.left:
            seat.outcome = Seat.Outcome.LOSS
        elif everyone_first:
            seat.outcome = Seat.Outcome.DRAW
        else:
            seat.outcome = Seat.Outcome.WIN if result["ranks"][seat.number] == 1 else Seat.Outcome.LOSS
        seat.score = result["scores"][seat.number]
        seat.to_act = False
        seat.waiting_since = seat.deadline_at = seat.warn_at = None
    Seat.objects.bulk_update(
        seats, ["outcome", "score", "to_act", "waiting_since", "deadline_at", "warn_at", "resigned", "left"]
    )
    ratings.record(match, seats)
    Notice.objects.bulk_create(
        [Notice(user_id=s.user_id, match=match, kind=Notice.Kind.ENDED, created_at=now) for s in _humans(seats)]
    )


def _announce_on_commit(match: Match, *, seats: list[Seat], moved: bool = False) -> None:
    """After the commit, render the change once per seat and push it (``games.realtime``).

    The announcer gets the committed objects themselves (the match and its seats with their users),
    so it need not read them again.
    """
    from games import bots, realtime

    transaction.on_commit(partial(realtime.announce, match, seats, moved=moved))
    if match.bot_due_at is not None:
        transaction.on_commit(bots.wake)
