"""A finished match as a self-contained record: enough to replay and verify it with the pure engine."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from typing import Any

import zipstream

from accounts.models import User
from games import registry
from games.models import Match, Move, Seat
from games.record import fairplay
from games.record.takeback import actions_on_line

# Rows fetched per round trip while the archive streams: the memory it holds, whatever its size.
ARCHIVE_FETCH = 200


def can_export(match: Match) -> bool:
    """Only a finished match: before the end its seed (and so every hidden card) is secret."""
    return match.status == Match.Status.FINISHED


Moves = list[tuple[int, int, Any, str]]  # seq, seat, payload, digest


def _moves(match: Match) -> Moves:
    return list(match.moves.order_by("seq").values_list("seq", "seat", "payload", "digest"))


def record(match: Match, seats: list[Seat] | None = None, moves: Moves | None = None) -> dict[str, Any]:
    """The JSON record of a finished match (see docs/fair-play.md for the format); ``seats`` and
    ``moves`` (seq, seat, payload, digest in order) are read from the database unless given."""
    if not can_export(match):
        raise ValueError("Only a finished match can be exported.")
    if seats is None:
        seats = list(match.seats.select_related("user"))
    if moves is None:
        moves = _moves(match)
    return {
        "format": fairplay.FORMAT,
        "id": match.pk,
        "game": match.game,
        "players": match.player_count,
        "options": match.options,
        "rated": match.rated,
        "seats": [
            {
                "seat": s.number,
                "player": s.user.username if s.user_id else None,
                "computer": s.is_bot and s.user_id is None,
                "left": s.left or None,
                "outcome": s.outcome or None,
                "score": s.score,
            }
            for s in seats
        ],
        "started_at": match.started_at.isoformat() if match.started_at else None,
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "commitment_version": match.commitment_version,
        "commitment": match.shuffle_commitment,
        "seed": match.seed,
        "salt": match.shuffle_salt,
        # An unchained match's moves (created before the chain) have no digest: null.
        "actions": [
            {"seq": seq, "seat": seat, "action": payload, "digest": digest or None}
            for seq, seat, payload, digest in moves
        ],
        "result": match.result,
        "final_state": match.state,
    }


def transcript(match: Match, moves: Moves | None = None) -> str | None:
    """The game's standard move list of the match (e.g. Reversi's ``f5d6c3``), if the game has one."""
    notation = registry.get(match.game).transcript
    if notation is None:
        return None
    entries = [(seat, payload) for _seq, seat, payload, _digest in (_moves(match) if moves is None else moves)]
    # Moves taken back are not part of the game's move list.
    return notation(actions_on_line(entries))


def filename(match: Match, extension: str) -> str:
    return f"turnwise-{match.game}-{match.pk}.{extension}"


class _Groups[Row]:
    """Rows ordered by match id, handed out one match's worth at a time, in step with the matches."""

    def __init__(self, rows: Iterator[Row], match_id: Callable[[Row], int]) -> None:
        self._groups = itertools.groupby(rows, match_id)
        self._next = next(self._groups, None)

    def of(self, match_id: int) -> list[Row]:
        # Rows of a match before this one belong to a match that finished after the matches were
        # read (the three queries are not one snapshot): not in this archive, skipped.
        while self._next is not None and self._next[0] < match_id:
            self._next = next(self._groups, None)
        if self._next is None or self._next[0] != match_id:
            return []
        rows = list(self._next[1])
        self._next = next(self._groups, None)
        return rows


def archive(user: User) -> Iterator[bytes]:
    """The zip of the JSON records (and transcripts) of every finished match ``user`` played, made as
    it is read: three queries (matches, seats, moves), each read in order a few rows at a time, so the
    queries and the memory do not grow with the number of matches. Entries in match-number order."""
    matches = Match.objects.filter(
        pk__in=Seat.objects.filter(user=user).values("match_id"), status=Match.Status.FINISHED
    ).order_by("pk")
    in_archive = matches.values("pk")
    seats = _Groups(
        Seat.objects.filter(match__in=in_archive)
        .select_related("user")
        .order_by("match_id", "number")
        .iterator(chunk_size=ARCHIVE_FETCH),
        lambda seat: seat.match_id,
    )
    moves = _Groups(
        Move.objects.filter(match__in=in_archive)
        .order_by("match_id", "seq")
        .values_list("match_id", "seq", "seat", "payload", "digest")
        .iterator(chunk_size=ARCHIVE_FETCH * 50),
        lambda row: row[0],
    )
    zs = zipstream.ZipStream(compress_type=zipstream.ZIP_DEFLATED, sized=False)
    for match in matches.iterator(chunk_size=ARCHIVE_FETCH):
        match_moves = [row[1:] for row in moves.of(match.pk)]
        zs.add(json.dumps(record(match, seats.of(match.pk), match_moves), indent=1), filename(match, "json"))
        if (notation := transcript(match, match_moves)) is not None:
            zs.add(notation + "\n", filename(match, "txt"))
        yield from zs.all_files()
    yield from zs.footer()
