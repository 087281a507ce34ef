"""services: the one door for changes. Fixed cast: alice (Black) and bob (White) seated, carol outside."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Match, Move, RatingChange, Seat
from games.read.replay import replays_to_stored_state
from tests.support import client_for

pytestmark = pytest.mark.django_db

D3 = {"type": "place", "square": "d3"}


def snapshot(match: Match) -> tuple[Any, ...]:
    match.refresh_from_db()
    return (
        match.version,
        match.state,
        match.status,
        Move.objects.filter(match=match).count(),
        list(Seat.objects.filter(match=match).values_list("to_act", flat=True)),
    )


def test_creating_a_two_player_match_waits_for_the_second_player(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    assert match.status == Match.Status.WAITING
    assert match.state is None
    assert [s.user for s in match.seats.all()] == [alice, None]


def test_joining_the_last_seat_starts_the_match_with_black_to_move(reversi_match: Match, alice: Any) -> None:
    assert reversi_match.status == Match.Status.ACTIVE
    seats = list(reversi_match.seats.all())
    assert [s.to_act for s in seats] == [True, False]
    assert seats[0].user == alice


def test_a_match_against_the_computer_starts_at_once(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, bot_seats={1})
    assert match.status == Match.Status.ACTIVE
    assert match.bot_due_at is None  # Black (alice) moves first


def test_a_legal_move_is_applied_logged_and_announced(
    reversi_match: Match, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        services.act(match_id=reversi_match.pk, user=alice, action=D3, version=reversi_match.version)
    reversi_match.refresh_from_db()
    assert reversi_match.version == 2  # 1 was bob joining
    assert list(Move.objects.filter(match=reversi_match).values_list("seq", "seat", "payload")) == [(2, 0, D3)]
    assert [s.to_act for s in reversi_match.seats.all()] == [False, True]
    assert len(callbacks) == 1


@pytest.mark.parametrize(
    ("who", "action", "version_delta", "code", "message"),
    [
        ("bob", D3, 0, "not_your_turn", "It is not your turn."),
        ("alice", D3, -1, "stale", "moved on"),
        ("carol", D3, 0, "forbidden", "You do not have a seat in this match."),
        ("alice", {"type": "place", "square": "a1"}, 0, "illegal", "a1"),
        ("alice", {"type": "place", "square": "z9"}, 0, "invalid", "z9"),
        ("alice", {"type": "pass"}, 0, "invalid", ""),
        ("alice", {"square": "d3"}, 0, "invalid", ""),
        ("alice", ["d3"], 0, "invalid", ""),
    ],
    ids=[
        "out-of-turn",
        "stale-version",
        "outsider",
        "illegal",
        "bad-square",
        "no-pass-action",
        "no-type",
        "not-an-object",
    ],
)
def test_rejected_requests_say_why_and_change_nothing(
    reversi_match: Match,
    who: str,
    action: Any,
    version_delta: int,
    code: str,
    message: str,
    request: pytest.FixtureRequest,
    django_capture_on_commit_callbacks: Any,
) -> None:
    user = request.getfixturevalue(who)
    before = snapshot(reversi_match)
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(services.MatchError) as error:
        services.act(match_id=reversi_match.pk, user=user, action=action, version=reversi_match.version + version_delta)
    assert error.value.code == code
    assert message in error.value.message
    assert snapshot(reversi_match) == before
    assert callbacks == []


def test_a_double_submit_is_refused_as_stale(reversi_match: Match, alice: Any) -> None:
    seen = reversi_match.version
    services.act(match_id=reversi_match.pk, user=alice, action=D3, version=seen)
    before = snapshot(reversi_match)
    with pytest.raises(services.MatchError) as error:
        services.act(match_id=reversi_match.pk, user=alice, action=D3, version=seen)
    assert error.value.code == "stale"
    assert snapshot(reversi_match) == before


def test_a_move_on_a_finished_match_is_refused(reversi_match: Match, alice: Any, bob: Any) -> None:
    services.resign(match_id=reversi_match.pk, user=bob)
    reversi_match.refresh_from_db()
    with pytest.raises(services.MatchError) as error:
        services.act(match_id=reversi_match.pk, user=alice, action=D3, version=reversi_match.version)
    assert error.value.code == "not_live"


def test_an_unknown_match_is_not_found(alice: Any) -> None:
    with pytest.raises(services.MatchError) as error:
        services.act(match_id=987654, user=alice, action=D3, version=1)
    assert error.value.code == "not_found"


def test_resigning_a_two_player_match_gives_the_opponent_the_win(reversi_match: Match, alice: Any, bob: Any) -> None:
    services.resign(match_id=reversi_match.pk, user=alice)
    reversi_match.refresh_from_db()
    assert reversi_match.status == Match.Status.FINISHED
    outcomes = {s.user.username: s.outcome for s in reversi_match.seats.all()}
    assert outcomes == {"alice": Seat.Outcome.LOSS, "bob": Seat.Outcome.WIN}
    assert not reversi_match.seats.filter(to_act=True).exists()


def test_an_outsider_cannot_resign_or_abort(reversi_match: Match, carol: Any) -> None:
    before = snapshot(reversi_match)
    for call in (services.resign, services.abort):
        with pytest.raises(services.MatchError) as error:
            call(match_id=reversi_match.pk, user=carol)
        assert error.value.code == "forbidden"
    assert snapshot(reversi_match) == before


def test_abort_is_allowed_only_before_the_first_move(reversi_match: Match, alice: Any, bob: Any) -> None:
    services.act(match_id=reversi_match.pk, user=alice, action=D3, version=reversi_match.version)
    with pytest.raises(services.MatchError) as error:
        services.abort(match_id=reversi_match.pk, user=bob)
    assert error.value.code == "not_live"
    fresh = services.create_match(user=alice, game="reversi", players=2)
    services.abort(match_id=fresh.pk, user=alice)
    fresh.refresh_from_db()
    assert fresh.status == Match.Status.ABORTED


def _full(game: str, people: list[Any], *, rated: bool) -> Match:
    match = services.create_match(user=people[0], game=game, players=len(people), rated=rated)
    for person in people[1:]:
        services.join_match(match_id=match.pk, user=person)
    match.refresh_from_db()
    return match


@pytest.mark.parametrize(("game", "players"), [("dos", 2), ("tacocat", 2), ("backalley", 4)])
def test_a_rated_card_match_cannot_be_called_off_once_dealt_leaving_is_resigning(
    game: str, players: int, make_user: Any
) -> None:
    """Every seat has seen its hand before the first move: calling off would walk away from a bad deal."""
    people = [make_user(name) for name in ("alice", "bob", "carol", "dave")[:players]]
    match = _full(game, people, rated=True)
    assert match.status == Match.Status.ACTIVE and match.move_count == 0
    before = snapshot(match)
    with pytest.raises(services.MatchError) as error:
        services.abort(match_id=match.pk, user=people[1])
    assert error.value.code == "not_live"
    assert error.value.message == (
        "The cards are dealt in this rated match: it can no longer be called off, only resigned."
    )
    assert snapshot(match) == before
    page = client_for(people[1]).get(match.get_absolute_url()).content.decode()
    assert "Call off (no record)" not in page and ">Resign</button>" in page
    services.resign(match_id=match.pk, user=people[1])
    resigned = Seat.objects.get(match=match, user=people[1])
    assert resigned.left == Seat.Left.RESIGNED
    if players == 2:  # the opponent wins, and both ratings move
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and resigned.outcome == Seat.Outcome.LOSS
        assert RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.parametrize("game", ["dos", "tacocat", "backalley"])
def test_a_casual_card_match_can_still_be_called_off_before_the_first_move(game: str, make_user: Any) -> None:
    people = [make_user(name) for name in ("alice", "bob", "carol", "dave")[: 4 if game == "backalley" else 2]]
    match = _full(game, people, rated=False)
    services.abort(match_id=match.pk, user=people[1])
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED


def test_a_rated_card_match_still_waiting_for_players_can_be_called_off(alice: Any) -> None:
    """Nothing is dealt until every seat is taken."""
    match = services.create_match(user=alice, game="dos", players=2, rated=True)
    services.abort(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED


def test_a_rated_reversi_match_can_be_called_off_before_the_first_move(alice: Any, bob: Any) -> None:
    """Reversi hides nothing: before the first move nobody has learnt anything."""
    match = _full("reversi", [alice, bob], rated=True)
    services.abort(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED


def test_invite_only_matches_need_the_token(alice: Any, bob: Any, carol: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    with pytest.raises(services.MatchError) as error:
        services.join_match(match_id=match.pk, user=carol, token="guess")
    assert error.value.code == "forbidden"
    services.join_match(match_id=match.pk, user=bob, token=match.invite_token)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_a_full_match_cannot_be_joined_twice(reversi_match: Match, carol: Any, bob: Any) -> None:
    for user in (carol, bob):
        with pytest.raises(services.MatchError):
            services.join_match(match_id=reversi_match.pk, user=user)


def test_create_rejects_bad_player_counts_and_bad_bot_seats(alice: Any) -> None:
    with pytest.raises(services.MatchError):
        services.create_match(user=alice, game="reversi", players=3)
    with pytest.raises(services.MatchError):
        services.create_match(user=alice, game="reversi", players=2, bot_seats={0})
    with pytest.raises(services.MatchError):
        services.create_match(user=alice, game="chess", players=2)
    with pytest.raises(services.MatchError):
        services.create_match(user=alice, game="reversi", players=2, options={"board": "short"})


def test_a_game_played_to_the_end_records_outcomes_and_replays_to_the_stored_state(
    reversi_match: Match, alice: Any, bob: Any
) -> None:
    from games import registry

    engine = registry.get("reversi").engine
    users = {0: alice, 1: bob}
    while True:
        reversi_match.refresh_from_db()
        if reversi_match.status != Match.Status.ACTIVE:
            break
        state = engine.load(reversi_match.state)
        seat = engine.to_act(state)[0]
        action = engine.legal_actions(state, seat)[0]
        services.act(match_id=reversi_match.pk, user=users[seat], action=action, version=reversi_match.version)
    assert reversi_match.status == Match.Status.FINISHED
    assert reversi_match.finished_at is not None
    seats = list(reversi_match.seats.all())
    assert sum(s.score for s in seats) <= 64
    assert {s.outcome for s in seats} in ({Seat.Outcome.WIN, Seat.Outcome.LOSS}, {Seat.Outcome.DRAW})
    assert replays_to_stored_state(reversi_match)


def test_a_version_from_the_future_is_refused(reversi_match: Match, alice: Any) -> None:
    before = snapshot(reversi_match)
    with pytest.raises(services.MatchError) as error:
        services.act(match_id=reversi_match.pk, user=alice, action=D3, version=reversi_match.version + 50)
    assert error.value.code == "stale"
    assert snapshot(reversi_match) == before


def test_a_second_commit_in_a_simultaneous_step_gets_the_engines_reason(alice: Any, bob: Any) -> None:
    from games import registry

    match = services.create_match(user=alice, game="tacocat", players=2)
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    engine = registry.get("tacocat").engine
    state = engine.load(match.state)
    assert sorted(engine.to_act(state)) == [0, 1]  # both choose at once
    action = engine.legal_actions(state, 0)[0]
    services.act(match_id=match.pk, user=alice, action=action, version=match.version)
    match.refresh_from_db()
    with pytest.raises(services.MatchError) as error:
        services.act(match_id=match.pk, user=alice, action=action, version=match.version)
    assert (error.value.code, error.value.message) == ("not_your_turn", "You have already chosen.")
