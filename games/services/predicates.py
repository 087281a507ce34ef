"""What a player may do in a match now: the one definition that the services enforce and pages offer.

Pure functions of rows already loaded (no queries), so a page can ask them for every button it draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import registry
from games.models import Match, Seat
from games.record import takeback


def hands_dealt_in_rated(match: Match) -> bool:
    """A rated match of a card game has started: every seat has seen its hand (the deal is at the start)."""
    return match.rated and match.status == Match.Status.ACTIVE and registry.get(match.game).hidden_hands


def can_abort(match: Match, mine: Seat | None) -> bool:
    """A seated player may call a match off until its first move, except a rated match once the cards
    are dealt: there, leaving is resigning (it counts as a loss), or a bad hand could be walked away from."""
    return (
        mine is not None
        and match.move_count == 0
        and match.status in (Match.Status.WAITING, Match.Status.ACTIVE)
        and not hands_dealt_in_rated(match)
    )


def late_opponent(match: Match, seats: list[Seat], mine: Seat | None) -> Seat | None:
    """In a two-player match in play, the opponent whose time ran out on their turn (their win is claimable)."""
    if mine is None or match.status != Match.Status.ACTIVE or match.player_count != 2:
        return None
    return next((s for s in seats if s.number != mine.number and s.timed_out and s.to_act), None)


def can_claim(match: Match, seats: list[Seat], mine: Seat | None) -> bool:
    return mine is not None and not mine.is_bot and late_opponent(match, seats, mine) is not None


def can_reclaim(match: Match, mine: Seat | None) -> bool:
    """A player whose seat a computer substitute plays may take it back, unless they resigned."""
    return mine is not None and match.status == Match.Status.ACTIVE and mine.substitute and not mine.resigned


def takeback_pending(match: Match) -> bool:
    """A takeback request waits for its answer: made at the match's current version (a move passes it)."""
    return match.takeback_seat is not None and match.takeback_version == match.version


@dataclass(frozen=True)
class Takeback:
    """What a seated player's page offers about takebacks."""

    can_ask: bool
    asked_by_me: bool
    #: This player's latest request was declined and nobody has moved since.
    declined: bool
    #: The seat whose request this player may accept or decline, if any.
    asked_by: Seat | None


def takeback_offer(match: Match, seats: list[Seat], mine: Seat | None) -> Takeback | None:
    """None unless the viewer plays a live match of a game with takebacks. Whether they have a move to
    take back needs the log, so ``can_ask`` is the cheap part and the service checks the rest."""
    if mine is None or mine.is_bot or match.status != Match.Status.ACTIVE:
        return None
    if not takeback.allowed(registry.get(match.game).engine):
        return None
    waiting = takeback_pending(match)
    mine_asked = waiting and match.takeback_seat == mine.number
    asker = next((s for s in seats if s.number == match.takeback_seat), None) if waiting and not mine_asked else None
    refused = match.takeback_declined_at == match.move_count
    return Takeback(
        can_ask=not waiting and match.move_count > 0 and not refused,
        asked_by_me=mine_asked,
        declined=refused and not waiting and match.takeback_seat == mine.number,
        asked_by=asker,
    )
