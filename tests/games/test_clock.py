"""Deadlines, substitutes, vacations: time is driven by the tests (no sleeping)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import registry, services
from games.background import clock
from games.models import Match, Notice, Seat

pytestmark = pytest.mark.django_db

DAY = 24 * 3600
D3 = {"type": "place", "square": "d3"}


@pytest.fixture
def paced(alice: Any, bob: Any) -> Match:
    """Alice (to move) against Bob, one day per move."""
    match = services.create_match(user=alice, game="reversi", players=2, pace_seconds=DAY)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match


@pytest.fixture
def substitute_policy() -> Iterator[None]:
    """Play Reversi under the substitute rule of DOS and Back Alley, to test the mechanism."""
    original = registry.get("reversi")
    registry._games["reversi"] = dataclasses.replace(original, timeout_policy="substitute")
    yield
    registry._games["reversi"] = original


def seat(match: Match, number: int) -> Seat:
    return Seat.objects.get(match=match, number=number)


def test_a_turn_gets_a_deadline_of_the_matchs_pace(paced: Match) -> None:
    alice_seat = seat(paced, 0)
    assert alice_seat.deadline_at - alice_seat.waiting_since == timedelta(days=1)
    assert seat(paced, 1).deadline_at is None


def test_a_match_without_pace_has_no_deadlines(reversi_match: Match) -> None:
    assert not Seat.objects.filter(match=reversi_match, deadline_at__isnull=False).exists()


def test_the_deadline_warning_fires_once_at_80_percent(paced: Match) -> None:
    start = seat(paced, 0).waiting_since
    assert clock.tick(start + timedelta(hours=19))["warned"] == 0
    assert clock.tick(start + timedelta(hours=20))["warned"] == 1
    assert clock.tick(start + timedelta(hours=21))["warned"] == 0
    assert Notice.objects.filter(kind=Notice.Kind.DEADLINE).count() == 1


def test_a_timeout_in_a_two_player_match_lets_the_opponent_claim_the_win(paced: Match, alice: Any, bob: Any) -> None:
    start = seat(paced, 0).waiting_since
    with pytest.raises(services.MatchError):
        services.claim_win(match_id=paced.pk, user=bob)  # not yet
    assert clock.tick(start + timedelta(days=1, seconds=1))["timed_out"] == 1
    assert clock.tick(start + timedelta(days=2))["timed_out"] == 0  # once
    paced.refresh_from_db()
    assert paced.status == Match.Status.ACTIVE  # the opponent may also keep waiting
    with pytest.raises(services.MatchError):
        services.claim_win(match_id=paced.pk, user=alice)  # the late player cannot claim
    services.claim_win(match_id=paced.pk, user=bob)
    paced.refresh_from_db()
    assert paced.status == Match.Status.FINISHED
    assert seat(paced, 1).outcome == Seat.Outcome.WIN
    late = seat(paced, 0)
    assert (late.outcome, late.left) == (Seat.Outcome.LOSS, Seat.Left.TIMED_OUT)


def test_moving_after_a_timeout_takes_the_claim_away(paced: Match, alice: Any, bob: Any) -> None:
    clock.tick(seat(paced, 0).waiting_since + timedelta(days=2))
    paced.refresh_from_db()
    services.act(match_id=paced.pk, user=alice, action=D3, version=paced.version)
    with pytest.raises(services.MatchError):
        services.claim_win(match_id=paced.pk, user=bob)


def test_a_substitute_takes_the_seat_and_hands_it_back(paced: Match, alice: Any, substitute_policy: None) -> None:
    """The substitute mechanism, exercised on Reversi with the policy of DOS and Back Alley."""
    from games.background import bots

    start = seat(paced, 0).waiting_since
    assert clock.tick(start + timedelta(days=1, seconds=1))["timed_out"] == 1
    sub = seat(paced, 0)
    assert sub.is_bot and sub.substitute and sub.user == alice
    assert "computer substitute" in sub.display_name()
    paced.refresh_from_db()
    assert paced.bot_due_at is not None
    assert bots.run_due(now=timezone.now() + timedelta(seconds=10)) == 1  # the substitute moves for alice
    services.reclaim_seat(match_id=paced.pk, user=alice)
    back = seat(paced, 0)
    assert not back.is_bot and not back.substitute


def test_resigning_a_team_game_hands_the_seat_to_a_substitute_for_good(alice: Any, bob: Any) -> None:
    from games.background import bots

    # Seat 3 deals, so alice (seat 0) bids first and her substitute has a move due.
    match = services.create_match(user=alice, game="backalley", players=4, bot_seats={2, 3}, options={"dealer": 3})
    services.join_match(match_id=match.pk, user=bob)
    services.resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE  # bob and the computers play on
    gone = seat(match, 0)
    assert (gone.is_bot, gone.substitute, gone.resigned, gone.left) == (True, True, True, Seat.Left.RESIGNED)
    assert bots.run_due(now=timezone.now() + timedelta(seconds=10)) == 1
    with pytest.raises(services.MatchError) as error:
        services.reclaim_seat(match_id=match.pk, user=alice)
    assert error.value.code == "forbidden"


def test_when_the_last_person_resigns_and_only_computers_are_left_the_match_ends(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="dos", players=4, bot_seats={2, 3})
    services.join_match(match_id=match.pk, user=bob)
    services.resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE  # alice still plays
    services.resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["detail"] == {"forfeit": 0} and match.bot_due_at is None
    outcomes = {s.number: (s.outcome, s.is_bot) for s in Seat.objects.filter(match=match)}
    assert outcomes == {
        0: (Seat.Outcome.LOSS, False),  # she resigned; no substitute played for her
        1: (Seat.Outcome.LOSS, True),  # bob's substitute, since he resigned while alice played on
        2: (Seat.Outcome.WIN, True),
        3: (Seat.Outcome.WIN, True),
    }
    assert not Seat.objects.filter(match=match, to_act=True).exists()


def test_team_games_use_a_substitute_when_time_runs_out(alice: Any, bob: Any) -> None:
    # Seat 3 deals, so alice (seat 0, on the dealer's left) bids first.
    match = services.create_match(
        user=alice, game="backalley", players=4, bot_seats={1, 2}, pace_seconds=DAY, options={"dealer": 3}
    )
    services.join_match(match_id=match.pk, user=bob)
    late = Seat.objects.get(match=match, to_act=True)
    assert late.user == alice
    assert clock.tick(late.waiting_since + timedelta(days=1, seconds=1))["timed_out"] == 1
    late.refresh_from_db()
    assert late.is_bot and late.substitute and not late.resigned
    match.refresh_from_db()
    assert match.bot_due_at is not None


def test_vacation_pauses_the_clock(paced: Match, alice: Any) -> None:
    now = seat(paced, 0).waiting_since
    services.start_vacation(user=alice, days=3, now=now + timedelta(hours=1))
    assert clock.tick(now + timedelta(days=2))["timed_out"] == 0  # on vacation: nothing runs out
    alice.refresh_from_db()
    assert seat(paced, 0).deadline_at == now + timedelta(days=4)
    assert clock.tick(now + timedelta(days=4, seconds=1))["timed_out"] == 1


def test_ending_a_vacation_early_refunds_the_unused_days(paced: Match, alice: Any) -> None:
    now = seat(paced, 0).waiting_since
    assert services.vacation_days_left(alice, now) == 21
    services.start_vacation(user=alice, days=5, now=now)
    alice.refresh_from_db()
    services.end_vacation(user=alice, now=now + timedelta(days=1))
    alice.refresh_from_db()
    assert services.vacation_days_left(alice, now + timedelta(days=1)) == 20
    assert seat(paced, 0).deadline_at == now + timedelta(days=2)


def test_vacation_days_are_limited_per_year(alice: Any) -> None:
    now = timezone.now()
    with pytest.raises(services.MatchError) as error:
        services.start_vacation(user=alice, days=22, now=now)
    assert "1 to 21 days" in error.value.message


def test_a_turn_that_starts_during_a_vacation_gets_its_deadline_after_it(paced: Match, alice: Any, bob: Any) -> None:
    now = timezone.now()
    services.start_vacation(user=bob, days=2, now=now)
    services.act(match_id=paced.pk, user=alice, action=D3, version=paced.version)
    bob.refresh_from_db()
    assert seat(paced, 1).deadline_at >= bob.vacation_until + timedelta(days=1)
