"""The bot runner: computer seats move through services, once, after a visible pause."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import registry, services
from games.background import bots
from games.engine import Bot
from games.models import Match, Move
from games.read.replay import replays_to_stored_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def vs_computer(alice: Any) -> Match:
    return services.create_match(user=alice, game="reversi", players=2, bot_seats={1})


def fast_bot(
    bot: Bot, view: dict[str, Any], legal: list[dict[str, Any]], budget: float, level: str = "medium"
) -> dict[str, Any]:
    return bot(view, legal, rng=__import__("random").Random(1), budget_s=0.01)


def test_the_computer_waits_a_moment_before_moving(vs_computer: Match, alice: Any, settings: Any) -> None:
    settings.BOT_DELAY_SECONDS = 5
    services.act(match_id=vs_computer.pk, user=alice, action={"type": "place", "square": "d3"}, version=0)
    vs_computer.refresh_from_db()
    assert vs_computer.bot_due_at is not None
    assert bots.run_due(now=timezone.now()) == 0  # not due yet
    assert bots.run_due(now=timezone.now() + timedelta(seconds=6)) == 1
    vs_computer.refresh_from_db()
    assert vs_computer.version == 2
    assert list(vs_computer.moves.values_list("seat", flat=True)) == [0, 1]
    assert vs_computer.bot_due_at is None


def test_a_due_move_survives_a_restart_because_it_lives_in_the_database(vs_computer: Match, alice: Any) -> None:
    services.act(match_id=vs_computer.pk, user=alice, action={"type": "place", "square": "d3"}, version=0)
    # A runner claimed the move and died: its lease expires and a new runner takes the move.
    Match.objects.filter(pk=vs_computer.pk).update(bot_lease_until=timezone.now() + timedelta(seconds=30))
    assert bots.run_due(now=timezone.now() + timedelta(seconds=5)) == 0
    assert (
        bots.run_due(
            now=timezone.now() + timedelta(seconds=31),
        )
        == 1
    )


def test_a_claimed_move_is_made_once(vs_computer: Match, alice: Any) -> None:
    services.act(match_id=vs_computer.pk, user=alice, action={"type": "place", "square": "d3"}, version=0)
    later = timezone.now() + timedelta(seconds=10)
    assert bots.take_turn(vs_computer.pk, now=later, compute=fast_bot)
    assert not bots.take_turn(vs_computer.pk, now=later, compute=fast_bot)
    assert Move.objects.filter(match=vs_computer, seat=1).count() == 1


def test_a_stale_computer_move_is_refused_by_the_version_check(vs_computer: Match, alice: Any) -> None:
    services.act(match_id=vs_computer.pk, user=alice, action={"type": "place", "square": "d3"}, version=0)
    engine = registry.get("reversi").engine
    vs_computer.refresh_from_db()
    legal = engine.legal_actions(engine.load(vs_computer.state), 1)
    services.bot_act(match_id=vs_computer.pk, seat=1, action=legal[0], version=1)
    with pytest.raises(services.MatchError) as error:
        services.bot_act(match_id=vs_computer.pk, seat=1, action=legal[0], version=1)
    assert error.value.code == "stale"


def test_a_person_cannot_move_for_the_computer_seat(vs_computer: Match, alice: Any) -> None:
    with pytest.raises(services.MatchError) as error:
        services.bot_act(match_id=vs_computer.pk, seat=0, action={"type": "place", "square": "d3"}, version=0)
    assert error.value.code == "forbidden"


def test_a_whole_game_against_the_computer_finishes_and_replays(vs_computer: Match, alice: Any) -> None:
    engine = registry.get("reversi").engine
    for _ in range(80):
        vs_computer.refresh_from_db()
        if vs_computer.status != Match.Status.ACTIVE:
            break
        state = engine.load(vs_computer.state)
        if 0 in engine.to_act(state):
            action = engine.legal_actions(state, 0)[-1]
            services.act(match_id=vs_computer.pk, user=alice, action=action, version=vs_computer.version)
        else:
            assert bots.take_turn(vs_computer.pk, now=timezone.now() + timedelta(seconds=10), compute=fast_bot)
    assert vs_computer.status == Match.Status.FINISHED
    assert replays_to_stored_state(vs_computer)


def test_a_computer_acting_again_in_the_same_turn_waits_only_briefly(alice: Any, settings: Any) -> None:
    """A DOS turn has several steps; only the first waits the full pause, the next ones a short one."""
    settings.BOT_DELAY_SECONDS = 5
    settings.BOT_FOLLOW_UP_DELAY_SECONDS = 1
    # Alice deals, so the computer (seat 1, on her left) plays first.
    match = services.create_match(user=alice, game="dos", players=2, bot_seats={1}, options={"dealer": 0})
    assert match.bot_due_at - timezone.now() > timedelta(seconds=4)  # the first step: the full pause
    later = timezone.now() + timedelta(seconds=6)
    assert bots.take_turn(match.pk, now=later)
    match.refresh_from_db()
    # One step cannot end a DOS turn from a fresh deal (a match leaves "finish" to do, a draw a placement).
    assert match.seats.get(number=1).to_act
    assert match.bot_due_at - timezone.now() < timedelta(seconds=2)
