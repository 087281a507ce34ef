"""Ratings per game: openskill's Plackett-Luce model, for two players, free-for-alls and teams.

A rating is kept as openskill's ``mu`` and ``sigma`` and shown as ``mu`` scaled to the familiar
1500 scale. Ratings change only through finished rated matches, applied in the order the matches
finished, so rebuilding them from the stored results (``manage.py recompute_ratings``) gives exactly
the ratings that playing gave.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Match, Rating, RatingChange, Seat

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
SCALE = 60  # openskill's 25 shows as 1500
PROVISIONAL_BELOW = 5  # rated matches before a rating is considered established
ACTIVE_DAYS = 90  # leaderboards list players who played a rated match this recently


def shown(mu: float) -> int:
    """The rating as players see it."""
    return round(mu * SCALE)


@dataclass(frozen=True)
class Standing:
    game: str
    rating: int
    deviation: int
    rated_matches: int

    @property
    def provisional(self) -> bool:
        return self.rated_matches < PROVISIONAL_BELOW


def standing(rating: Rating | None, game: str) -> Standing:
    if rating is None:
        return Standing(game, shown(START_MU), shown(START_SIGMA), 0)
    return Standing(game, shown(rating.mu), shown(rating.sigma), rating.rated_matches)


def _teams(match: Match) -> list[list[int]]:
    """The sides that were ranked: a team game's result names its teams; otherwise each seat alone."""
    teams = (match.result or {}).get("detail", {}).get("teams")
    if teams:
        return [list(team["seats"]) for team in teams]
    return [[n] for n in range(match.player_count)]


def _ranks(match: Match, seats: list[Seat], teams: list[list[int]]) -> list[int]:
    """Each side's rank (1 best). A player who resigned or ran out of time ranks below everyone who stayed."""
    ranks = match.result["ranks"]  # type: ignore[index]
    left = {s.number for s in seats if s.left}
    worst = max(ranks) + 1
    return [worst if all(n in left for n in team) else min(ranks[n] for n in team) for team in teams]


def record(match: Match, seats: list[Seat]) -> list[RatingChange]:
    """Apply a finished rated match to its players' ratings (inside the finishing transaction)."""
    if not match.rated or match.result is None or match.finished_at is None:
        return []
    teams = _teams(match)
    by_number = {s.number: s for s in seats}
    user_ids = [by_number[n].user_id for team in teams for n in team]
    if any(uid is None for uid in user_ids):  # a rated match is never created with a computer seat
        return []
    # Lock the players' rating rows: two of their matches finishing at once must not both start from
    # the same rating and lose one update.
    current = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(game=match.game, user_id__in=user_ids).order_by("user_id")
    }
    openskill_teams = [
        [
            MODEL.rating(
                mu=current[uid].mu if uid in current else START_MU,
                sigma=current[uid].sigma if uid in current else START_SIGMA,
            )
            for uid in (by_number[n].user_id for n in team)
        ]
        for team in teams
    ]
    new_teams = MODEL.rate(openskill_teams, ranks=_ranks(match, seats, teams))
    changes = []
    for team, before_team, after_team in zip(teams, openskill_teams, new_teams, strict=True):
        for n, before, after in zip(team, before_team, after_team, strict=True):
            uid = by_number[n].user_id
            rating = current.get(uid) or Rating(user_id=uid, game=match.game, mu=START_MU, sigma=START_SIGMA)
            rating.mu, rating.sigma = after.mu, after.sigma
            rating.rated_matches += 1
            rating.last_played_at = match.finished_at
            rating.save()
            changes.append(
                RatingChange(
                    match=match,
                    user_id=uid,
                    game=match.game,
                    seat=n,
                    mu_before=before.mu,
                    sigma_before=before.sigma,
                    mu_after=after.mu,
                    sigma_after=after.sigma,
                    at=match.finished_at,
                )
            )
    return RatingChange.objects.bulk_create(changes)


def recompute(games: Iterable[str] | None = None) -> int:
    """Rebuild every rating from the finished rated matches, in the order they finished.

    Returns the number of matches applied. Deterministic: the same matches give the same ratings.
    """
    with transaction.atomic():
        ratings = Rating.objects.all()
        changes = RatingChange.objects.all()
        matches = Match.objects.filter(rated=True, status=Match.Status.FINISHED, result__isnull=False)
        if games is not None:
            games = list(games)
            ratings, changes, matches = (
                ratings.filter(game__in=games),
                changes.filter(game__in=games),
                matches.filter(game__in=games),
            )
        changes.delete()
        ratings.delete()
        applied = 0
        for match in matches.order_by("finished_at", "pk").prefetch_related("seats").iterator(chunk_size=200):
            if record(match, list(match.seats.all())):
                applied += 1
    return applied


# --- reading -------------------------------------------------------------------------------------


def changes_for(match: Match) -> dict[int, dict[str, Any]]:
    """Seat number -> the rating change a finished rated match made, for the result screen."""
    return {
        c.seat: {
            "before": shown(c.mu_before),
            "after": shown(c.mu_after),
            "delta": shown(c.mu_after) - shown(c.mu_before),
        }
        for c in match.rating_changes.all()
    }


def standings(user: Any) -> dict[str, Standing]:
    """Game slug -> the user's standing (the starting rating for games not yet played rated)."""
    return {r.game: standing(r, r.game) for r in Rating.objects.filter(user=user)}


def history(user: Any, game: str) -> list[tuple[datetime, int]]:
    """(when, rating after) for each rated match of ``user`` in ``game``, oldest first."""
    return [
        (at, shown(mu))
        for at, mu in RatingChange.objects.filter(user=user, game=game)
        .order_by("at", "match_id")
        .values_list("at", "mu_after")
    ]


# The leaderboards' order: best rating first, then the surer one, then by name.
_BEST_FIRST = (F("mu").desc(), F("sigma").asc(), F("user__username").asc())


def _on_the_board(now: datetime | None) -> Q:
    """Established players who played a rated match in the last ACTIVE_DAYS days."""
    since = (now or timezone.now()) - timedelta(days=ACTIVE_DAYS)
    return Q(rated_matches__gte=PROVISIONAL_BELOW, last_played_at__gte=since)


def leaderboard(game: str, *, now: datetime | None = None) -> QuerySet[Rating]:
    """Established players who played a rated match in the last ACTIVE_DAYS days, best first."""
    return Rating.objects.filter(_on_the_board(now), game=game).select_related("user").order_by(*_BEST_FIRST)


def top_players(games: list[str], size: int, *, now: datetime | None = None) -> dict[str, list[Rating]]:
    """Each game's first ``size`` rows of :func:`leaderboard`, in one query whatever the number of games
    (a rank per game from a window function; the rows carry ``rank``)."""
    ranked = (
        Rating.objects.filter(_on_the_board(now), game__in=games)
        .select_related("user")
        .annotate(rank=Window(RowNumber(), partition_by=[F("game")], order_by=list(_BEST_FIRST)))
        .filter(rank__lte=size)
        .order_by("game", "rank")
    )
    top: dict[str, list[Rating]] = {game: [] for game in games}
    for rating in ranked:
        top[rating.game].append(rating)
    return top
