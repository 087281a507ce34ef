"""Standings and tie-breaks, from the results so far. Pure: no Django.

Points are kept in half-points (a win 2, a draw 1) and tie-breaks as exact fractions, so that no
rounding ever decides a place. Which tie-breaks apply depends on the format:

- Swiss: points, then Buchholz (the sum of the opponents' points), then Sonneborn-Berger (the points
  of the opponents beaten, plus half those of the opponents drawn).
- Round-robin: points, then head-to-head (the points scored in the games among the players tied on
  points), then Sonneborn-Berger.
- Tables (DOS, Back Alley with rotating partners): placing points (one for each opponent at the table
  finished ahead of, a half for each tied with; a partner is no opponent), then the game's own points.

A bye counts as a win for the player who had it; it adds nothing to Buchholz or Sonneborn-Berger (no
opponent was met). Players still tied after every tie-break share the place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class Game:
    """A finished two-sided game: ``first``'s half-points (2, 1 or 0); ``second`` None for a bye.
    ``second_points``: the second's, where they are not the rest of two (a game called off before
    its first move scores nothing for either)."""

    first: int
    second: int | None
    points: int
    second_points: int | None = None

    @property
    def points_of_second(self) -> int:
        return 2 - self.points if self.second_points is None else self.second_points


@dataclass(frozen=True)
class Seat:
    """One entry's finish at a table: its rank there (1 the best; equal ranks tie) and game points."""

    entry: int
    rank: int
    score: int
    # Partners (Back Alley) share a team: finishing level with one's partner earns nothing.
    team: int | None = None


@dataclass
class Row:
    entry: int
    # Half-points (two-sided events) or placing half-points (tables).
    points: int = 0
    games: int = 0
    tiebreaks: list[Fraction] = field(default_factory=list)
    place: int = 0

    @property
    def score(self) -> Fraction:
        return Fraction(self.points, 2)


def _two_sided(entries: Iterable[int], games: Sequence[Game]) -> dict[int, Row]:
    rows = {e: Row(e) for e in entries}
    for g in games:
        rows[g.first].points += g.points
        rows[g.first].games += 1
        if g.second is not None:
            rows[g.second].points += g.points_of_second
            rows[g.second].games += 1
    return rows


def _played(games: Sequence[Game]) -> Iterable[tuple[int, int, int]]:
    """Each played game from both sides: (player, opponent, player's half-points)."""
    for g in games:
        if g.second is not None:
            yield g.first, g.second, g.points
            yield g.second, g.first, g.points_of_second


def buchholz(games: Sequence[Game], rows: dict[int, Row]) -> dict[int, Fraction]:
    totals = dict.fromkeys(rows, Fraction(0))
    for player, opponent, _points in _played(games):
        totals[player] += rows[opponent].score
    return totals


def sonneborn_berger(games: Sequence[Game], rows: dict[int, Row]) -> dict[int, Fraction]:
    totals = dict.fromkeys(rows, Fraction(0))
    for player, opponent, points in _played(games):
        totals[player] += rows[opponent].score * Fraction(points, 2)
    return totals


def _place(rows: list[Row], key: Callable[[Row], tuple[object, ...]]) -> list[Row]:
    rows.sort(key=lambda r: (key(r), -r.entry), reverse=True)
    for i, row in enumerate(rows):
        row.place = rows[i - 1].place if i and key(rows[i - 1]) == key(row) else i + 1
    return rows


def swiss(entries: Iterable[int], games: Sequence[Game]) -> list[Row]:
    """Standings of a Swiss: points, Buchholz, Sonneborn-Berger."""
    rows = _two_sided(entries, games)
    bh, sb = buchholz(games, rows), sonneborn_berger(games, rows)
    for e, row in rows.items():
        row.tiebreaks = [bh[e], sb[e]]
    return _place(list(rows.values()), lambda r: (r.points, *r.tiebreaks))


def round_robin(entries: Iterable[int], games: Sequence[Game]) -> list[Row]:
    """Standings of a round-robin: points, head-to-head among those tied on points, Sonneborn-Berger."""
    rows = _two_sided(entries, games)
    sb = sonneborn_berger(games, rows)
    tied: dict[int, set[int]] = {}
    for row in rows.values():
        tied.setdefault(row.points, set()).add(row.entry)
    head_to_head = dict.fromkeys(rows, Fraction(0))
    for player, opponent, points in _played(games):
        if opponent in tied[rows[player].points]:
            head_to_head[player] += Fraction(points, 2)
    for e, row in rows.items():
        row.tiebreaks = [head_to_head[e], sb[e]]
    return _place(list(rows.values()), lambda r: (r.points, *r.tiebreaks))


def tables(entries: Iterable[int], results: Iterable[Sequence[Seat]]) -> list[Row]:
    """Standings of a table event: placing points, then game points."""
    rows = {e: Row(e, tiebreaks=[Fraction(0)]) for e in entries}
    for table in results:
        for seat in table:
            row = rows[seat.entry]
            row.games += 1
            # Half-points: two for each player finished ahead of, one for each tied with.
            others = [o for o in table if o is not seat and (seat.team is None or o.team != seat.team)]
            row.points += sum(2 if seat.rank < o.rank else 1 for o in others if o.rank >= seat.rank)
            row.tiebreaks[0] += seat.score
    return _place(list(rows.values()), lambda r: (r.points, *r.tiebreaks))
