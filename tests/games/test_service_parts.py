"""The services' parts that other code shares: the bot runner's lease, the predicates the pages offer
buttons by, and the error codes the views map to HTTP statuses."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import Match
from games.services import predicates
from games.services.bot_turns import LEASE, RETRY_AFTER_ERROR
from games.web.views import HTTP_STATUS

pytestmark = pytest.mark.django_db


@pytest.fixture
def vs_computer(alice: Any) -> Match:
    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1})
    match.refresh_from_db()
    services.act(match_id=match.pk, user=alice, action={"type": "place", "square": "d3"}, version=match.version)
    match.refresh_from_db()
    return match


def test_a_due_move_is_leased_to_one_runner_and_shows_only_the_seats_view(vs_computer: Match) -> None:
    later = timezone.now() + timedelta(seconds=10)
    turn = services.claim_bot_turn(vs_computer.pk, later)
    assert turn is not None and (turn.seat, turn.version, turn.level) == (1, vs_computer.version, "medium")
    assert turn.view["seat"] == 1 and turn.legal
    assert services.claim_bot_turn(vs_computer.pk, later) is None  # leased
    assert services.due_match_ids(later) == []
    vs_computer.refresh_from_db()
    assert vs_computer.bot_lease_until == later + LEASE
    assert services.claim_bot_turn(vs_computer.pk, later + LEASE + timedelta(seconds=1)) is not None  # expired


def test_a_released_lease_lets_the_move_be_claimed_again_unless_the_match_moved_on(vs_computer: Match) -> None:
    later = timezone.now() + timedelta(seconds=10)
    turn = services.claim_bot_turn(vs_computer.pk, later)
    assert turn is not None
    services.release_bot_turn(turn)
    assert services.due_match_ids(later) == [vs_computer.pk]
    turn = services.claim_bot_turn(vs_computer.pk, later)
    assert turn is not None
    Match.objects.filter(pk=vs_computer.pk).update(version=turn.version + 1)
    services.release_bot_turn(turn)  # too late: the lease stays
    assert services.due_match_ids(later) == []


def test_a_failed_bot_is_retried_after_a_pause(vs_computer: Match) -> None:
    turn = services.claim_bot_turn(vs_computer.pk, timezone.now() + timedelta(seconds=10))
    assert turn is not None
    before = timezone.now()
    services.retry_bot_turn_later(turn)
    vs_computer.refresh_from_db()
    assert vs_computer.bot_lease_until is None and vs_computer.bot_due_at >= before + RETRY_AFTER_ERROR


def test_the_predicates_follow_the_match(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    seats = list(match.seats.all())
    assert predicates.can_abort(match, seats[0]) and not predicates.can_abort(match, None)
    assert not predicates.can_claim(match, seats, seats[0]) and not predicates.can_reclaim(match, seats[0])
    seats[1].timed_out = seats[1].to_act = True
    assert predicates.late_opponent(match, seats, seats[0]) == seats[1]
    assert predicates.can_claim(match, seats, seats[0]) and not predicates.can_claim(match, seats, seats[1])
    seats[0].substitute = True
    assert predicates.can_reclaim(match, seats[0])
    seats[0].left = seats[0].Left.RESIGNED
    assert seats[0].resigned and not predicates.can_reclaim(match, seats[0])
    match.move_count = 1
    assert not predicates.can_abort(match, seats[0])


def test_every_error_code_has_an_http_status() -> None:
    assert set(HTTP_STATUS) == set(services.ErrorCode)
    assert services.MatchError("x", services.ErrorCode.STALE).code == "stale"  # codes read as their strings
