"""Play now: a player asks for a match (a seek) and is paired with others asking for the same.

Seeks ask for the same match when they name the same game, number of players, pace and rated or
casual (a "kind"). A rated seek pairs only with players whose rating is within its window, which
widens while it waits; a casual seek pairs with anyone. The oldest seeks are paired first. A pairing
creates the match through ``matches.create_match`` and ``matches.join_match``, like any match, so
seats, ratings, the fair-play commitment and the start and turn notices (emailed or pushed to a
player who is away) are those of any match.

Pairing runs when a seek is posted and on every clock tick (``games.background.clock``), which is what lets a
window widen with nobody posting. Every seek goes into at most one match, with any number of
processes pairing at once: see :func:`pair_kind`.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.models import Match, Rating, Seek
from games.record import ratings
from games.services import announcements, matches, people
from games.services.errors import ErrorCode, MatchError
from games.support.i18n import LocalNumber
from games.support.paces import PACES

MAX_OPEN_SEEKS = 5  # per player: an asynchronous seek may wait days, so several may be open at once
WINDOW_START = 100  # rating points either side, when the seek is posted ...
WINDOW_PER_MINUTE = 50  # ... widening by this much for each minute it waits ...
WINDOW_OPEN_AFTER = timedelta(minutes=20)  # ... until any rating will do
CANDIDATES = 200  # the oldest open seeks of a kind looked at per pairing; the rest wait their turn


@dataclass(frozen=True)
class Kind:
    """What a seek asks for; only seeks of the same kind are paired."""

    game: str
    players: int
    pace_seconds: int | None
    rated: bool

    @classmethod
    def of(cls, seek: Seek) -> Kind:
        return cls(seek.game, seek.players, seek.pace_seconds, seek.rated)


def window(seek: Seek, now: datetime) -> float:
    """How far (in rating points, either side) from its own rating a seek accepts an opponent now."""
    waited = max(now - seek.created_at, timedelta(0))
    if not seek.rated or waited >= WINDOW_OPEN_AFTER:
        return math.inf
    return WINDOW_START + WINDOW_PER_MINUTE * waited.total_seconds() / 60


def post_seek(
    *,
    user: User,
    game: str,
    players: int,
    pace_seconds: int | None,
    rated: bool,
    partner: str = "",
    now: datetime | None = None,
) -> Seek:
    """Ask for a match of ``game``; it is made at once if others are waiting for the same, else later.

    ``partner``: in a team game, the username of a player to sit with; the two are paired as partners
    once that player asks for the same match naming this one.
    """
    now = now or timezone.now()
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
    if pace_seconds not in {p for p, _label in PACES}:
        raise MatchError(_("That pace is not offered."), ErrorCode.INVALID)
    mate = _partner(spec, partner, user)
    with transaction.atomic():
        # Lock the player's row so two requests sent at once cannot both pass the cap or the duplicate
        # check (on SQLite the IMMEDIATE transaction already runs them one after the other).
        User.objects.select_for_update().filter(pk=user.pk).first()
        mine = list(Seek.objects.filter(user=user, status=Seek.Status.OPEN))
        wanted = Kind(game, players, pace_seconds, rated)
        if any(Kind.of(s) == wanted for s in mine):
            raise MatchError(_("You are already waiting for a match like this one."), ErrorCode.INVALID)
        if len(mine) >= MAX_OPEN_SEEKS:
            raise MatchError(
                _("You can wait for at most %(n)s matches at once; cancel one first.")
                % {"n": LocalNumber(MAX_OPEN_SEEKS)},
                ErrorCode.RATE_LIMITED,
            )
        rating = ratings.standing(Rating.objects.filter(user=user, game=game).first(), game).rating
        seek = Seek.objects.create(
            user=user,
            game=game,
            players=players,
            pace_seconds=pace_seconds,
            rated=rated,
            rating=rating,
            partner=mate,
            created_at=now,
        )
    pair_kind(wanted, now=now)
    seek.refresh_from_db()
    return seek


def _partner(spec: registry.Game, username: str, user: User) -> User | None:
    if not (username or "").strip():
        return None
    if not spec.teams:
        raise MatchError(
            _("%(game)s has no partnerships: leave the partner empty.") % {"game": spec.name}, ErrorCode.INVALID
        )
    mate = people.person(username, user)
    if people.has_blocked(mate.pk, user.pk) or people.has_blocked(user.pk, mate.pk):
        raise MatchError(_("You cannot play as partners with %(name)s.") % {"name": mate.username}, ErrorCode.FORBIDDEN)
    return mate


def cancel_seek(*, user: User, seek_id: int, now: datetime | None = None) -> None:
    """Stop waiting. A seek already paired stays paired: its match has begun."""
    now = now or timezone.now()
    # A conditional update: a pairing that took the seek first wins, and this changes nothing.
    if Seek.objects.filter(pk=seek_id, user=user, status=Seek.Status.OPEN).update(
        status=Seek.Status.CANCELLED, closed_at=now
    ):
        return
    if not Seek.objects.filter(pk=seek_id, user=user).exists():
        raise MatchError(_("There is no such request."), ErrorCode.NOT_FOUND)
    raise MatchError(_("This request was already paired or cancelled."), ErrorCode.NOT_LIVE)


def pair_waiting(*, now: datetime | None = None) -> int:
    """Pair whatever can be paired now, every kind; the number of matches made (the clock's work)."""
    now = now or timezone.now()
    kinds = (
        Seek.objects.filter(status=Seek.Status.OPEN)
        .values("game", "players", "pace_seconds", "rated")
        .annotate(waiting=Count("pk"))
        .filter(waiting__gte=F("players"))
    )
    return sum(
        len(pair_kind(Kind(k["game"], k["players"], k["pace_seconds"], k["rated"]), now=now)) for k in list(kinds)
    )


def pair_kind(kind: Kind, *, now: datetime | None = None) -> list[Match]:
    """Make every match the open seeks of ``kind`` allow now, oldest seeks first; the matches made."""
    now = now or timezone.now()
    made: list[Match] = []
    with transaction.atomic():
        # Lock the candidates so that two pairers (a post and the clock, or two processes) never put a
        # seek into two matches. On PostgreSQL a seek another pairer holds is skipped, not waited for;
        # on SQLite the IMMEDIATE transaction runs pairers one after the other. Either way the
        # conditional update below checks again that every seek of a group is still open. Only the
        # seeks are locked ("self"), not their players' rows, which other work writes meanwhile.
        seeks = list(
            Seek.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(
                status=Seek.Status.OPEN,
                user__is_active=True,
                game=kind.game,
                players=kind.players,
                pace_seconds=kind.pace_seconds,
                rated=kind.rated,
            )
            .select_related("user")
            .order_by("created_at", "pk")[:CANDIDATES]
        )
        blocked = people.blocked_pairs(s.user_id for s in seeks)
        for group in groups(seeks, kind.players, now=now, blocked=blocked):
            match = _make_match(kind, group, now)
            if match is not None:
                made.append(match)
    return made


def units(seeks: list[Seek]) -> list[list[Seek]]:
    """The seeks that are seated together, in the order of their oldest seek: two partners who named
    each other, or a seek alone. A seek naming a partner who has not named it back waits."""
    by_user = {s.user_id: s for s in seeks}  # a player has one open seek of a kind
    found: list[list[Seek]] = []
    placed: set[int] = set()
    for seek in seeks:
        if seek.pk in placed:
            continue
        if seek.partner_id is None:
            found.append([seek])
            placed.add(seek.pk)
            continue
        mate = by_user.get(seek.partner_id)
        if mate is not None and mate.partner_id == seek.user_id and mate.pk not in placed:
            found.append([seek, mate])
            placed.update((seek.pk, mate.pk))
    return found


def groups(seeks: list[Seek], size: int, *, now: datetime, blocked: set[frozenset[int]]) -> list[list[Seek]]:
    """Disjoint groups of ``size`` seeks that may play together, from the oldest seek on (pure).

    Together means: different players, none of whom blocked another, partners kept together, and
    (rated) every rating within the narrowest window of the group, so each player accepts every other.
    """
    reach = {s.pk: window(s, now) for s in seeks}  # once per seek: it is asked for every pair of seeks
    candidates = [u for u in units(seeks) if len(u) <= size and _fits([], u, reach, blocked)]
    taken: set[int] = set()
    found: list[list[Seek]] = []
    for first, anchor in enumerate(candidates):
        if first in taken:
            continue
        chosen, members = [first], list(anchor)
        # A quick necessary test first: with hundreds of seeks waiting, most pairs are out of reach.
        rating, limit = anchor[0].rating, min(reach[s.pk] for s in anchor)
        for n, unit in enumerate(candidates):
            if len(members) == size:
                break
            if abs(unit[0].rating - rating) > limit or n in taken or n in chosen or len(members) + len(unit) > size:
                continue
            if _fits(members, unit, reach, blocked):
                chosen.append(n)
                members += unit
        if len(members) == size:
            found.append(members)
            taken.update(chosen)
    return found


def _fits(group: list[Seek], unit: list[Seek], reach: dict[int, float], blocked: set[frozenset[int]]) -> bool:
    together = [*group, *unit]
    spread = max(s.rating for s in together) - min(s.rating for s in together)
    if spread > min(reach[s.pk] for s in together):
        return False
    users = [s.user_id for s in together]
    if len(set(users)) < len(users):
        return False
    return not blocked or not any(
        frozenset((a.user_id, b.user_id)) in blocked for a in unit for b in together if a is not b
    )


def seating(kind: Kind, group: list[Seek]) -> list[Seek]:
    """The group in seat order. In a team game partners take a team each; strangers are evened out
    over the other teams: by rating, the strongest and the weakest play together against the two
    between. Without teams, who sits first is drawn at random."""
    teams = registry.get(kind.game).teams
    if not teams:
        order = list(group)
        secrets.SystemRandom().shuffle(order)
        return order
    members: list[list[Seek]] = [[] for _team in teams]
    together = units(group)
    for team, pair in zip(members, [u for u in together if len(u) > 1], strict=False):
        team.extend(pair)
    free = [team for team in members if not team]
    singles = sorted((u[0] for u in together if len(u) == 1), key=lambda s: (-s.rating, s.created_at, s.pk))
    # Snake order (A, B, B, A, ...) gives each team one of the strong and one of the weak.
    for n, seek in enumerate(singles):
        lap, step = divmod(n, len(free))
        free[step if lap % 2 == 0 else len(free) - 1 - step].append(seek)
    seated: dict[int, Seek] = {}
    for seats, team in zip(teams, members, strict=True):
        seated.update(zip(seats, team, strict=True))
    return [seated[n] for n in range(kind.players)]


def _make_match(kind: Kind, group: list[Seek], now: datetime) -> Match | None:
    ids = [s.pk for s in group]
    with transaction.atomic():
        # Claim the seeks: if any was cancelled or paired in the meantime, nothing of this group changes.
        if Seek.objects.filter(pk__in=ids, status=Seek.Status.OPEN).update(
            status=Seek.Status.PAIRED, closed_at=now
        ) != len(ids):
            transaction.set_rollback(True)
            return None
        order = seating(kind, group)
        match = matches.create_match(
            user=order[0].user,
            game=kind.game,
            players=kind.players,
            pace_seconds=kind.pace_seconds,
            rated=kind.rated,
        )
        for seek in order[1:]:
            matches.join_match(match_id=match.pk, user=seek.user)
        Seek.objects.filter(pk__in=ids).update(match=match)
        for seek in group:
            announcements.on_commit(announcements.user_changed, user_id=seek.user_id)
    return match
