"""The only code that changes a tournament: create, register, withdraw, start, and move round to round.

Matches are made and ended through the core's services (``games.services``) only. A round ends when
its last match ends (``games.services.announcements.match_finished``, after that match's commit) or when its
deadline passes (``tick``, run by every worker with the clock work). Whichever process sees the round
complete first claims it by a conditional update of the round's status, so the next round is paired
exactly once however many processes see it at the same moment.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games import services as match_services
from games.models import Match, Seat
from games.services import ErrorCode
from games.support.i18n import LocalNumber
from games.support.paces import PACES
from tournaments import pairing, standings
from tournaments.models import Entry, Pairing, Round, Tournament

log = logging.getLogger(__name__)

# How long a round may last: the organiser picks one of these.
ROUND_LENGTHS = [3600, 24 * 3600, 3 * 24 * 3600, 7 * 24 * 3600, 14 * 24 * 3600]
MAX_ROUNDS = 30
MAX_ENTRIES = 64
NAME_LENGTH = 80
# A match not yet over counts as neither side's game; these have ended.
ENDED = (Match.Status.FINISHED, Match.Status.ABORTED)


class TournamentError(Exception):
    """A refused request, nothing written; ``message`` is for the player."""

    def __init__(self, message: str, code: ErrorCode) -> None:
        super().__init__(message)
        self.message = message
        self.code = ErrorCode(code)


def formats_for(game: str) -> list[str]:
    """The formats a game can be played in: two-player games pair; DOS sits at tables; Back Alley
    plays either (tables: rotating partners; the others: fixed partnerships)."""
    spec = registry.get(game)
    two_sided = [Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN, Tournament.Format.DOUBLE_ROUND_ROBIN]
    if spec.max_players == 2:
        return list(two_sided)
    if spec.min_players == 4:
        return [*two_sided, Tournament.Format.TABLES]
    return [Tournament.Format.TABLES]


def _smallest_field(game: str, format: str) -> int:
    if format == Tournament.Format.TABLES and game == "backalley":
        return 4
    return 3 if format == Tournament.Format.TABLES else 2


def create_tournament(
    *,
    organiser: User,
    name: str,
    game: str,
    format: str,
    rounds: int,
    pace_seconds: int,
    round_seconds: int,
    rated: bool,
    starts_at: datetime,
    min_entries: int,
    max_entries: int,
    is_public: bool,
) -> Tournament:
    """A tournament open for registration until ``starts_at``."""
    try:
        spec = registry.get(game)
    except LookupError:
        raise TournamentError(_("There is no such game."), ErrorCode.INVALID) from None
    name = name.strip()
    if not name:
        raise TournamentError(_("Give the tournament a name."), ErrorCode.INVALID)
    if len(name) > NAME_LENGTH:
        raise TournamentError(
            _("Keep the name to %(n)s characters.") % {"n": LocalNumber(NAME_LENGTH)}, ErrorCode.INVALID
        )
    if format not in formats_for(game):
        raise TournamentError(_("%(game)s cannot be played in that format.") % {"game": spec.name}, ErrorCode.INVALID)
    if pace_seconds not in {p for p, _label in PACES if p is not None}:
        raise TournamentError(_("Choose a time per move: a tournament needs one."), ErrorCode.INVALID)
    if round_seconds not in ROUND_LENGTHS or round_seconds < pace_seconds:
        raise TournamentError(_("A round must last at least one move's time."), ErrorCode.INVALID)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise TournamentError(
            _("Choose from %(min)s to %(max)s rounds.") % {"min": LocalNumber(1), "max": LocalNumber(MAX_ROUNDS)},
            ErrorCode.INVALID,
        )
    smallest = _smallest_field(game, format)
    if not smallest <= min_entries <= max_entries <= MAX_ENTRIES:
        raise TournamentError(
            _("Allow from %(min)s to %(max)s entries, the fewest no more than the most.")
            % {"min": LocalNumber(smallest), "max": LocalNumber(MAX_ENTRIES)},
            ErrorCode.INVALID,
        )
    if starts_at < timezone.now() - timedelta(minutes=1):
        raise TournamentError(_("The start must not be in the past."), ErrorCode.INVALID)
    return Tournament.objects.create(
        name=name,
        game=game,
        format=format,
        rounds=rounds,
        pace_seconds=pace_seconds,
        round_seconds=round_seconds,
        rated=rated,
        starts_at=starts_at,
        min_entries=min_entries,
        max_entries=max_entries,
        is_public=is_public,
        organiser=organiser,
    )


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise TournamentError(_("There is no such tournament."), ErrorCode.NOT_FOUND) from None


def _entry_of(tournament: Tournament, user: User) -> Entry | None:
    return tournament.entries.filter(Q(user=user) | Q(partner=user)).first()


def register(*, tournament_id: int, user: User, token: str | None = None, partner_of: int | None = None) -> Entry:
    """Enter ``user``; in Back Alley pairs, ``partner_of`` joins the named entry as its partner."""
    with transaction.atomic():
        # Lock the tournament so that two players cannot both take its last place.
        tournament = _locked(tournament_id)
        if not tournament.is_public and token != tournament.invite_token:
            raise TournamentError(_("This tournament is by invitation only."), ErrorCode.FORBIDDEN)
        if tournament.status != Tournament.Status.OPEN:
            raise TournamentError(_("Registration for this tournament is closed."), ErrorCode.NOT_LIVE)
        if _entry_of(tournament, user) is not None:
            raise TournamentError(_("You are already entered."), ErrorCode.INVALID)
        if partner_of is not None:
            entry = tournament.entries.filter(pk=partner_of, partner__isnull=True, withdrawn=False).first()
            if not tournament.team_game or entry is None:
                raise TournamentError(_("That entry is not looking for a partner."), ErrorCode.INVALID)
            entry.partner = user
            entry.save(update_fields=["partner"])
            return entry
        if tournament.entries.filter(withdrawn=False).count() >= tournament.max_entries:
            raise TournamentError(_("This tournament is full."), ErrorCode.FULL)
        return Entry.objects.create(tournament=tournament, user=user)


def withdraw(*, tournament_id: int, user: User) -> Entry:
    """Leave: before the start the entry is removed; after it, the entry's matches in play are resigned
    and it is paired no more (a round-robin's later games are forfeited)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = _entry_of(tournament, user)
        if entry is None or entry.withdrawn:
            raise TournamentError(_("You are not entered in this tournament."), ErrorCode.INVALID)
        if tournament.status == Tournament.Status.OPEN:
            if entry.partner_id == user.pk:
                entry.partner = None
                entry.save(update_fields=["partner"])
            else:
                entry.delete()
            return entry
        if tournament.status != Tournament.Status.RUNNING:
            raise TournamentError(_("This tournament is over."), ErrorCode.NOT_LIVE)
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
        in_play = Match.objects.filter(
            tournament_pairing__tournament=tournament,
            status=Match.Status.ACTIVE,
            seats__user_id__in=entry.user_ids(),
            seats__left="",
        ).distinct()
        for match_id in in_play.values_list("pk", flat=True):
            for seat in Seat.objects.filter(match_id=match_id, user_id__in=entry.user_ids(), left=""):
                match_services.resign(match_id=match_id, user=seat.user)
    return entry


def start(*, tournament_id: int, now: datetime, by: User | None = None) -> bool:
    """Close registration and pair round one (or cancel, with too few entries). ``by``: the organiser
    starting early; without it, only a tournament whose start time has come. True if started here."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if by is not None and by.pk != tournament.organiser_id:
            raise TournamentError(_("Only the organiser can start the tournament."), ErrorCode.FORBIDDEN)
        if tournament.status != Tournament.Status.OPEN or (by is None and tournament.starts_at > now):
            return False
        # Pairs still waiting for a partner cannot play.
        if tournament.team_game:
            tournament.entries.filter(partner__isnull=True).delete()
        entries = list(tournament.entries.filter(withdrawn=False))
        if len(entries) < tournament.min_entries or not _fits(tournament, len(entries)):
            if by is not None:
                raise TournamentError(
                    _("Too few entries to start: %(count)s.") % {"count": LocalNumber(len(entries))},
                    ErrorCode.INVALID,
                )
            tournament.status = Tournament.Status.CANCELLED
            tournament.finished_at = now
            tournament.save(update_fields=["status", "finished_at"])
            return False
        if tournament.format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.DOUBLE_ROUND_ROBIN):
            tournament.rounds = len(_schedule(tournament, [e.pk for e in entries]))
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status", "rounds"])
        _begin_round(tournament, 1, now)
    return True


def _fits(tournament: Tournament, count: int) -> bool:
    if tournament.format != Tournament.Format.TABLES:
        return count >= 2
    if tournament.game == "backalley":
        return count >= 4 and count % 4 == 0
    return count >= 3 and count != 5


def _can_go_on(tournament: Tournament, count: int) -> bool:
    """Enough entries left after withdrawals to pair another round (the odd ones out sit out)."""
    if tournament.format != Tournament.Format.TABLES:
        return count >= 2
    return count >= (4 if tournament.game == "backalley" else 3)


def _schedule(tournament: Tournament, entry_ids: list[int]) -> list[list[pairing.Pair]]:
    return pairing.round_robin(sorted(entry_ids), double=tournament.format == Tournament.Format.DOUBLE_ROUND_ROBIN)


def _begin_round(tournament: Tournament, number: int, now: datetime) -> None:
    """Pair round ``number`` and start its matches together (inside the caller's transaction)."""
    entries = {e.pk: e for e in tournament.entries.select_related("user", "partner")}
    active = [pk for pk, e in entries.items() if not e.withdrawn]
    previous = list(tournament.pairings.select_related("match").order_by("round__number", "board"))
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        started_at=now,
        deadline_at=now + timedelta(seconds=tournament.round_seconds),
    )
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    for board, (sides, forfeit_by) in enumerate(_draw(tournament, number, active, entries, previous), start=1):
        match = None
        if len(sides) > 1 and forfeit_by is None:
            match = _create_match(tournament, [entries[pk] for pk in sides])
        Pairing.objects.create(
            round=round_, tournament=tournament, board=board, sides=sides, match=match, forfeit_by_id=forfeit_by
        )
    if not Pairing.objects.filter(round=round_, match__isnull=False).exists():
        # Byes and forfeits only: nothing to wait for.
        transaction.on_commit(lambda: close_round(round_id=round_.pk, now=now))


def _draw(
    tournament: Tournament, number: int, active: list[int], entries: dict[int, Entry], previous: list[Pairing]
) -> list[tuple[list[int], int | None]]:
    """This round's sides, and for each the entry that forfeits it (a round-robin game of someone who
    withdrew), by the tournament's format."""
    fmt = tournament.format
    if fmt in (Tournament.Format.ROUND_ROBIN, Tournament.Format.DOUBLE_ROUND_ROBIN):
        # Entries are only flagged once the event runs, never removed: the schedule stays the same.
        schedule = _schedule(tournament, list(entries))
        result = []
        for first, second in schedule[number - 1]:
            sides = [first] if second is None else [first, second]
            gone = [pk for pk in sides if pk not in active]
            if len(gone) == len(sides):
                continue
            result.append((sides, gone[0] if gone else None))
        return result
    if fmt == Tournament.Format.SWISS:
        players = pairing.swiss_players(entries, _two_sided_games(previous), active=active)
        return [([a] if b is None else [a, b], None) for a, b in pairing.swiss_round(players)]
    seed = tournament.seed * 1000 + number
    tables_so_far = [p.sides for p in previous if p.match_id is not None]
    if tournament.game == "backalley":
        seated = active[: len(active) - len(active) % 4]
        out = pairing.draw_partner_tables(
            seated, pairing.partnerships(tables_so_far), pairing.meetings(tables_so_far), seed=seed
        )
        return [(t, None) for t in out] + [([pk], None) for pk in active[len(seated) :]]
    sizes = _table_sizes(len(active))
    return [(t, None) for t in pairing.draw_tables(active, pairing.meetings(tables_so_far), seed=seed, sizes=sizes)]


def _table_sizes(count: int) -> list[int]:
    try:
        return pairing.table_sizes(count)
    except ValueError:
        # Withdrawals left five (or fewer than three): a table of two where it must be.
        return pairing.table_sizes(count, smallest=2)


def _create_match(tournament: Tournament, sides: list[Entry]) -> Match:
    """The match of one pairing, through the core's services: everyone seated, so it starts at once."""
    if tournament.team_game:
        first, second = sides
        users = [first.user, second.user, first.partner, second.partner]
    else:
        users = [e.user for e in sides]
    match = match_services.create_match(
        user=users[0],
        game=tournament.game,
        players=len(users),
        is_public=tournament.is_public,
        pace_seconds=tournament.pace_seconds,
        rated=tournament.rated,
    )
    for user in users[1:]:
        match_services.join_match(match_id=match.pk, user=user, token=match.invite_token)
    return match


# --- results -------------------------------------------------------------------------------------


def side_points(pairing_: Pairing) -> list[int] | None:
    """Half-points of each side of a two-sided pairing that is over, else None (the pages show them)."""
    if pairing_.is_bye:
        return [2]
    if pairing_.forfeit_by_id is not None:
        return [0 if pk == pairing_.forfeit_by_id else 2 for pk in pairing_.sides]
    match = pairing_.match
    if match is None or match.status not in ENDED:
        return None
    if match.status == Match.Status.ABORTED or not match.result:
        return [0, 0]  # called off before the first move: neither side scores
    # Seat 0 is the first side (a team's first player); seat 1 the second.
    first, second = match.result["ranks"][0], match.result["ranks"][1]
    return [2, 0] if first < second else [1, 1] if first == second else [0, 2]


def _two_sided_games(pairings: Iterable[Pairing]) -> list[tuple[int, int | None, int, int]]:
    games: list[tuple[int, int | None, int, int]] = []
    for p in pairings:
        points = side_points(p)
        if points is None:
            continue
        if p.is_bye:
            games.append((p.sides[0], None, 2, 0))
        else:
            games.append((p.sides[0], p.sides[1], points[0], points[1]))
    return games


def _table_results(tournament: Tournament, pairings: Iterable[Pairing]) -> list[list[standings.Seat]]:
    results = []
    for p in pairings:
        match = p.match
        if match is None or match.status != Match.Status.FINISHED or not match.result:
            continue
        ranks, scores = match.result["ranks"], match.result["scores"]
        team = tournament.game == "backalley"
        results.append(
            [
                standings.Seat(entry, ranks[seat], scores[seat], team=seat % 2 if team else None)
                for seat, entry in enumerate(p.sides)
            ]
        )
    return results


def standings_of(tournament: Tournament, entries: Iterable[Entry], pairings: Iterable[Pairing]) -> list[standings.Row]:
    """The standings from the pairings so far (their matches loaded with them)."""
    ids = [e.pk for e in entries]
    pairings = list(pairings)
    if tournament.format == Tournament.Format.TABLES:
        return standings.tables(ids, _table_results(tournament, pairings))
    games = [standings.Game(a, b, pa, pb) for a, b, pa, pb in _two_sided_games(pairings)]
    if tournament.format == Tournament.Format.SWISS:
        return standings.swiss(ids, games)
    return standings.round_robin(ids, games)


# --- moving on -----------------------------------------------------------------------------------


def close_round(*, round_id: int, now: datetime) -> bool:
    """End the round if all its matches have ended, and pair the next one or finish the tournament.
    True if this call did it."""
    round_ = Round.objects.filter(pk=round_id).first()
    if round_ is None or round_.status != Round.Status.ACTIVE:
        return False
    open_matches = Match.objects.filter(tournament_pairing__round=round_).exclude(status__in=ENDED)
    if open_matches.exists():
        return False
    with transaction.atomic():
        # The claim: with several processes seeing the last match end, only one changes the row.
        claimed = Round.objects.filter(pk=round_id, status=Round.Status.ACTIVE).update(
            status=Round.Status.DONE, finished_at=now
        )
        if not claimed:
            return False
        tournament = _locked(round_.tournament_id)
        active = tournament.entries.filter(withdrawn=False).count()
        last = round_.number >= tournament.rounds
        if last or not _can_go_on(tournament, active):
            tournament.status = Tournament.Status.FINISHED
            tournament.finished_at = now
            tournament.save(update_fields=["status", "finished_at"])
        else:
            _begin_round(tournament, round_.number + 1, now)
    return True


def decide_overdue(*, round_id: int, now: datetime) -> int:
    """The round's deadline passed: every person still to move in its matches resigns (in a
    two-player match the opponent wins; at a card table a computer substitute plays the seat on, as
    it does for a player who ran out of time). Returns how many seats were resigned."""
    resigned = 0
    seats = Seat.objects.filter(
        match__tournament_pairing__round_id=round_id,
        match__status=Match.Status.ACTIVE,
        to_act=True,
        is_bot=False,
        user__isnull=False,
        left="",
    ).select_related("user")
    for seat in seats:
        try:
            match_services.resign(match_id=seat.match_id, user=seat.user)
        except match_services.MatchError as exc:  # it ended meanwhile
            log.info("Overdue seat %s not resigned: %s", seat.pk, exc.message)
        else:
            resigned += 1
    return resigned


def on_match_finished(*, match_id: int) -> None:
    """The hook on the core's ``match_finished``: close the match's round if it was the last."""
    round_id = Pairing.objects.filter(match_id=match_id).values_list("round_id", flat=True).first()
    if round_id is not None:
        close_round(round_id=round_id, now=timezone.now())


def tick(now: datetime) -> dict[str, int]:
    """Scheduled work: start tournaments whose time has come, decide rounds past their deadline, and
    close any round whose matches all ended without the hook closing it (a process that stopped
    between a match's commit and its hook). Safe in several processes at once."""
    started = sum(
        start(tournament_id=pk, now=now)
        for pk in Tournament.objects.filter(status=Tournament.Status.OPEN, starts_at__lte=now).values_list(
            "pk", flat=True
        )
    )
    overdue = sum(
        decide_overdue(round_id=pk, now=now)
        for pk in Round.objects.filter(status=Round.Status.ACTIVE, deadline_at__lte=now).values_list("pk", flat=True)
    )
    closed = sum(
        close_round(round_id=pk, now=now)
        for pk in Round.objects.filter(status=Round.Status.ACTIVE)
        .exclude(pairings__match__status__in=[Match.Status.WAITING, Match.Status.ACTIVE])
        .values_list("pk", flat=True)
    )
    return {"tournaments_started": started, "seats_resigned_at_deadline": overdue, "rounds_closed": closed}
