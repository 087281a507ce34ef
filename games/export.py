"""A finished match as a self-contained record: enough to replay and verify it with the pure engine."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable
from typing import Any

from games import fairplay, registry
from games.models import Match, Seat


def can_export(match: Match) -> bool:
    """Only a finished match: before the end its seed (and so every hidden card) is secret."""
    return match.status == Match.Status.FINISHED


def record(match: Match, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The JSON record of a finished match (see docs/fair-play.md for the format)."""
    if not can_export(match):
        raise ValueError("Only a finished match can be exported.")
    if seats is None:
        seats = list(match.seats.select_related("user"))
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
        "actions": [
            # An unchained match's moves (created before the chain) have no digest: null.
            {"seq": seq, "seat": seat, "action": payload, "digest": digest or None}
            for seq, seat, payload, digest in match.moves.order_by("seq").values_list(
                "seq", "seat", "payload", "digest"
            )
        ],
        "result": match.result,
        "final_state": match.state,
    }


def transcript(match: Match) -> str | None:
    """The game's standard move list of the match (e.g. Reversi's ``f5d6c3``), if the game has one."""
    notation = registry.get(match.game).transcript
    if notation is None:
        return None
    return notation(list(match.moves.order_by("seq").values_list("payload", flat=True)))


def filename(match: Match, extension: str) -> str:
    return f"turnwise-{match.game}-{match.pk}.{extension}"


def archive(matches: Iterable[Match]) -> bytes:
    """One zip of the JSON records (and Reversi transcripts) of the given finished matches."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for match in matches:
            zf.writestr(filename(match, "json"), json.dumps(record(match), indent=1))
            if (moves := transcript(match)) is not None:
                zf.writestr(filename(match, "txt"), moves + "\n")
    return buffer.getvalue()
