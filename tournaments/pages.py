"""What the tournament pages show: standings with tie-breaks, rounds with results, the crosstable.

Built from three queries whatever the size of the event (the entries, the rounds, the pairings with
their matches), so a page costs the same in round one and round twelve.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry
from games.models import Match
from games.support.i18n import LocalNumber, digits
from tournaments import services
from tournaments.models import Entry, Pairing, Round, Tournament

TIEBREAK_NAMES = {
    Tournament.Format.SWISS: [gettext_lazy("Buchholz"), gettext_lazy("Sonneborn-Berger")],
    Tournament.Format.ROUND_ROBIN: [gettext_lazy("Head-to-head"), gettext_lazy("Sonneborn-Berger")],
    Tournament.Format.DOUBLE_ROUND_ROBIN: [gettext_lazy("Head-to-head"), gettext_lazy("Sonneborn-Berger")],
    Tournament.Format.TABLES: [gettext_lazy("Game points")],
}


# The crosstable's marks: a player's own cell, and a round sat out.
SELF = "\u00d7"  # multiplication sign
SAT_OUT = "\u2013"  # en dash


def points(value: Fraction | int) -> str:
    """A score as people write it: 2, 2½, ½ (in the active language's digits)."""
    value = Fraction(value)
    whole, rest = divmod(value, 1)
    if rest == 0:
        return digits(int(whole))
    if rest == Fraction(1, 2):
        return (digits(int(whole)) if whole else "") + "½"
    return digits(f"{float(value):.2f}")


@dataclass
class Side:
    name: str
    entry_id: int
    # "1", "½", "0" in two-sided events; the place at the table ("1st") in table events; "" until over.
    result: str = ""


@dataclass
class Board:
    number: int
    sides: list[Side]
    match: Match | None
    note: str = ""


@dataclass
class RoundView:
    round: Round
    boards: list[Board] = field(default_factory=list)


def _result_marks(p: Pairing) -> list[str]:
    half_points = services.side_points(p)
    if half_points is None:
        return [""] * len(p.sides)
    return [points(Fraction(h, 2)) for h in half_points]


def _table_marks(p: Pairing) -> list[str]:
    match = p.match
    if match is None or match.status != Match.Status.FINISHED or not match.result:
        return [""] * len(p.sides)
    return [
        _("%(place)s of %(count)s") % {"place": LocalNumber(rank), "count": LocalNumber(len(p.sides))}
        for rank in match.result["ranks"][: len(p.sides)]
    ]


def _board(t: Tournament, p: Pairing, names: dict[int, str]) -> Board:
    marks = _table_marks(p) if t.format == Tournament.Format.TABLES else _result_marks(p)
    sides = [Side(names[pk], pk, mark) for pk, mark in zip(p.sides, marks, strict=True)]
    note = ""
    if p.is_bye:
        note = _("Bye (counts as a win)") if t.two_sided else _("Sits out this round")
    elif p.forfeit_by_id is not None:
        note = _("Not played: %(name)s withdrew") % {"name": names[p.forfeit_by_id]}
    elif p.match is not None and p.match.status == Match.Status.ABORTED:
        note = _("Called off: neither side scores")
    return Board(p.board, sides, p.match, note)


def tournament_context(t: Tournament, viewer: Any) -> dict[str, Any]:
    entries = list(t.entries.select_related("user", "partner"))
    rounds = list(t.round_set.all())
    pairings = list(t.pairings.select_related("match").order_by("round__number", "board"))
    names = {e.pk: e.name for e in entries}
    by_round: dict[int, RoundView] = {r.pk: RoundView(r) for r in rounds}
    for p in pairings:
        by_round[p.round_id].boards.append(_board(t, p, names))
    rows = services.standings_of(t, entries, pairings) if entries else []
    by_id = {e.pk: e for e in entries}
    mine = next((e for e in entries if viewer.pk in e.user_ids()), None)
    columns, cells = _crosstable(t, rows, pairings, rounds)
    return {
        "tournament": t,
        "entries": entries,
        "mine": mine,
        "can_withdraw": mine is not None
        and not mine.withdrawn
        and t.status in (Tournament.Status.OPEN, Tournament.Status.RUNNING),
        "rounds": list(reversed(by_round.values())),
        "standings": [
            {
                "row": r,
                "entry": by_id[r.entry],
                "points": points(r.score),
                "tiebreaks": [points(v) for v in r.tiebreaks],
                "cells": row_cells,
            }
            for r, row_cells in zip(rows, cells, strict=True)
        ],
        "tiebreak_names": TIEBREAK_NAMES[t.format],
        "cross_columns": columns,
        "looking_for_partner": [e for e in entries if t.team_game and e.partner_id is None and e != mine],
        "is_organiser": viewer.pk == t.organiser_id,
    }


def _crosstable(
    t: Tournament, rows: list[Any], pairings: list[Pairing], rounds: list[Round]
) -> tuple[list[str], list[list[str]]]:
    """Two-sided: each entry's results against each other entry (in standings order). Tables: each
    entry's place in each round."""
    order = [r.entry for r in rows]
    if t.format == Tournament.Format.TABLES:
        cells: dict[tuple[int, int], str] = {}
        number = {r.pk: r.number for r in rounds}
        for p in pairings:
            for pk, mark in zip(p.sides, _table_marks(p), strict=True):
                cells[(pk, number[p.round_id])] = mark or (SAT_OUT if p.is_bye else "")
        return [digits(r.number) for r in rounds], [[cells.get((pk, r.number), "") for r in rounds] for pk in order]
    marks: dict[tuple[int, int], list[str]] = {}
    for p in pairings:
        if p.is_bye:
            continue
        a, b = p.sides
        for (me, other), mark in zip(((a, b), (b, a)), _result_marks(p), strict=True):
            if mark:
                marks.setdefault((me, other), []).append(mark)
    columns = [digits(i) for i in range(1, len(order) + 1)]
    return columns, [[SELF if a == b else " ".join(marks.get((a, b), [])) for b in order] for a in order]


def visible(t: Tournament, viewer: Any, token: str | None) -> bool:
    """A public tournament is seen by anyone; one by invitation, by those invited, its entrants and
    its organiser (anyone else gets a 404: it is not said to exist)."""
    if t.is_public or token == t.invite_token or viewer.pk == t.organiser_id:
        return True
    return (
        Entry.objects.filter(tournament=t).filter(user_id=viewer.pk).exists()
        or Entry.objects.filter(tournament=t, partner_id=viewer.pk).exists()
    )


@dataclass
class Placing:
    """Where one person finished in one finished tournament, for their history."""

    tournament: Tournament
    game_name: Promise | str  # the game's name, translated as the page is drawn
    place: int
    entries: int
    withdrew: bool


def finished_placings(
    person: Any, *, game: str = "", opponent: str = "", shown: int, page: int = 1
) -> tuple[list[Placing], bool]:
    """The ``page``-th ``shown`` finished tournaments ``person`` played in (alone or as a partner),
    newest first, each with their final place from the same standings as the tournament's page; and
    whether there are older ones. ``game`` keeps one game's; ``opponent`` (a username, any case) those that
    person also played in. Three queries, however many tournaments: the tournaments, their entries,
    their pairings with their matches' results."""
    played = Entry.objects.filter(Q(user=person) | Q(partner=person))
    found = Tournament.objects.filter(status=Tournament.Status.FINISHED, pk__in=played.values("tournament_id"))
    if game:
        found = found.filter(game=game)
    if opponent:
        # As the match history's filter: anyone else who played, by the name as typed ("Bob" finds bob).
        theirs = Entry.objects.filter(
            (Q(user__username__iexact=opponent) & ~Q(user=person))
            | (Q(partner__username__iexact=opponent) & ~Q(partner=person))
        )
        found = found.filter(pk__in=theirs.values("tournament_id"))
    start = (page - 1) * shown
    tournaments = list(found.order_by("-finished_at", "-pk")[start : start + shown + 1])
    more = len(tournaments) > shown
    tournaments = tournaments[:shown]
    ids = [t.pk for t in tournaments]
    entries: dict[int, list[Entry]] = {pk: [] for pk in ids}
    for entry in Entry.objects.filter(tournament_id__in=ids):
        entries[entry.tournament_id].append(entry)
    pairings: dict[int, list[Pairing]] = {pk: [] for pk in ids}
    # Only what the standings read of a match (its status and result), not its whole state.
    for p in (
        Pairing.objects.filter(tournament_id__in=ids)
        .select_related("match")
        .only("tournament", "round", "board", "sides", "forfeit_by", "match", "match__status", "match__result")
    ):
        pairings[p.tournament_id].append(p)
    placings = []
    for t in tournaments:
        mine = next(e for e in entries[t.pk] if person.pk in e.user_ids())
        rows = services.standings_of(t, entries[t.pk], pairings[t.pk])
        place = next(r.place for r in rows if r.entry == mine.pk)
        placings.append(Placing(t, registry.get(t.game).name, place, len(entries[t.pk]), mine.withdrawn))
    return placings, more
