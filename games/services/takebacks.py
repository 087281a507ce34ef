"""Takebacks (lichess): a player asks to take their last move back and the opponent accepts or declines.

Only in games whose engine allows it (open information, no chance: Reversi). The request is two fields
on the match (who asked, at which version); it is pending while the match stays at that version, so a
move made instead of an answer declines it. An accepted takeback is logged as an entry of its own
(``games.record.takeback``): the state goes back to the position before the asker's latest move (with the
opponent's reply, if they made one: the asker is to move again), and replaying or verifying the log
arrives at the same state. Against a computer (always a casual match) a request is accepted at once.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.models import Match, Move, Seat
from games.record import fairplay, takeback
from games.services import predicates
from games.services.base import after_change, announce_on_commit, insert_rows, locked_with_seats
from games.services.errors import ErrorCode, MatchError


def _my_seat(match_id: int, user: User) -> tuple[Match, list[Seat], Seat]:
    # Lock the row: a request, an answer and a move must not interleave on the same version.
    match, seats = locked_with_seats(match_id)
    seat = next((s for s in seats if s.user_id == user.pk and not s.is_bot), None)
    if seat is None:
        raise MatchError(_("You do not have a seat in this match."), ErrorCode.FORBIDDEN)
    if match.status != Match.Status.ACTIVE:
        raise MatchError(_("This match is not in play."), ErrorCode.NOT_LIVE)
    if not takeback.allowed(registry.get(match.game).engine):
        raise MatchError(_("Moves cannot be taken back in this game."), ErrorCode.ILLEGAL)
    return match, seats, seat


def _entries(match: Match) -> list[tuple[int, object]]:
    return list(match.moves.order_by("seq").values_list("seat", "payload"))


def request_takeback(*, match_id: int, user: User) -> Match:
    """Ask to take back ``user``'s latest move; a computer opponent accepts at once."""
    with transaction.atomic():
        match, seats, seat = _my_seat(match_id, user)
        if predicates.takeback_pending(match):
            raise MatchError(_("A takeback request is already waiting for an answer."), ErrorCode.ILLEGAL)
        if match.takeback_declined_at == match.move_count:
            raise MatchError(
                _("Your opponent declined a takeback: you may ask again after the next move."), ErrorCode.ILLEGAL
            )
        if takeback.line_of(_entries(match)).before_last_move_of(seat.number) is None:
            raise MatchError(_("You have no move to take back."), ErrorCode.ILLEGAL)
        if all(s.is_bot for s in seats if s.number != seat.number):
            _take_back(match, seats, seat.number)
        else:
            match.version += 1
            match.takeback_seat = seat.number
            match.takeback_version = match.version
            match.save(update_fields=["version", "takeback_seat", "takeback_version", "updated_at"])
        announce_on_commit(match, seats=seats)
    return match


def answer_takeback(*, match_id: int, user: User, accept: bool) -> Match:
    """Accept or decline the opponent's pending request."""
    with transaction.atomic():
        match, seats, seat = _my_seat(match_id, user)
        if not predicates.takeback_pending(match) or match.takeback_seat == seat.number:
            raise MatchError(_("There is no takeback request to answer."), ErrorCode.ILLEGAL)
        asker = match.takeback_seat
        assert asker is not None
        if accept:
            _take_back(match, seats, asker)
        else:
            # The asker's seat stays recorded, so their page can say the request was declined.
            match.version += 1
            match.takeback_version = None
            match.takeback_declined_at = match.move_count
            match.save(update_fields=["version", "takeback_version", "takeback_declined_at", "updated_at"])
        announce_on_commit(match, seats=seats)
    return match


def _take_back(match: Match, seats: list[Seat], asker: int) -> None:
    """Log the takeback and store the state it returns to, as a move would (version, chain, turns)."""
    engine = registry.get(match.game).engine
    entries = _entries(match)
    to = takeback.line_of(entries).before_last_move_of(asker)
    assert to is not None
    state = takeback.replay(engine, match.player_count, match.seed, match.options, entries[:to])[to]
    action = {"type": takeback.TAKEBACK, "to": to}
    dumped = engine.dump(state)
    now = timezone.now()
    seq = match.version + 1
    digest = (
        fairplay.link(
            previous=match.log_digest,
            seq=seq,
            seat=asker,
            action=action,
            state=fairplay.state_digest(dumped, match.shuffle_salt),
        )
        if match.log_digest
        else ""
    )
    match.state = dumped
    match.version = match.turn_version = seq
    match.move_count += 1
    match.log_digest = digest
    match.takeback_seat = match.takeback_version = None
    match.save(
        update_fields=[
            "state",
            "version",
            "turn_version",
            "move_count",
            "log_digest",
            "takeback_seat",
            "takeback_version",
            "updated_at",
        ]
    )
    log_entry = (match.pk, seq, asker, action, now, digest)
    insert_rows(Move, ["match", "seq", "seat", "payload", "created_at", "digest"], [log_entry])
    # Whose turn it is again (a computer's pending move is refused: its seat no longer acts).
    after_change(match, engine.to_act(state), None, seats=seats)
