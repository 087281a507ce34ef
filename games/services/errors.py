"""Why a service refused: a typed code for programs and a sentence for the player.

The codes know nothing of HTTP; the views map them to statuses (``games.web.views.HTTP_STATUS``).
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    NOT_FOUND = "not_found"
    FORBIDDEN = "forbidden"
    INVALID = "invalid"  # a malformed request: bad fields, options or values
    ILLEGAL = "illegal"  # a well-formed move the rules do not allow now
    NOT_YOUR_TURN = "not_your_turn"
    STALE = "stale"  # the page was drawn for an earlier version
    NOT_LIVE = "not_live"  # the match is not in the state this needs (waiting, in play, over)
    FULL = "full"
    RATE_LIMITED = "rate_limited"


class MatchError(Exception):
    """A rejected request, with nothing written. ``message`` is for the player; ``code`` for programs."""

    def __init__(self, message: str, code: ErrorCode) -> None:
        super().__init__(message)
        self.message = message
        self.code = ErrorCode(code)
