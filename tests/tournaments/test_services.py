"""Tournaments through their services: rounds start together, advance on the last result and on the
deadline, withdrawals forfeit, and rated tournaments rate their matches."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services as match_services
from games.models import Match, Notice, RatingChange, Seat
from tournaments import services
from tournaments.models import Entry, Pairing, Round, Tournament
from tournaments.services import TournamentError

# The round moves on after a commit (the hook runs on commit), so these tests commit for real.
pytestmark = pytest.mark.django_db(transaction=True)

DAY = 24 * 3600


def make_tournament(organiser: Any, **overrides: Any) -> Tournament:
    fields: dict[str, Any] = {
        "organiser": organiser,
        "name": "Autumn Swiss",
        "game": "reversi",
        "format": Tournament.Format.SWISS,
        "rounds": 3,
        "pace_seconds": DAY,
        "round_seconds": 3 * DAY,
        "rated": False,
        "starts_at": timezone.now() + timedelta(hours=1),
        "min_entries": 2,
        "max_entries": 16,
        "is_public": True,
        **overrides,
    }
    return services.create_tournament(**fields)


@pytest.fixture
def players(make_user: Any) -> list[Any]:
    return [make_user(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")]


def entered(tournament: Tournament, users: list[Any]) -> list[Entry]:
    return [services.register(tournament_id=tournament.pk, user=u) for u in users]


def lose(match: Match, loser: Any) -> None:
    match_services.resign(match_id=match.pk, user=loser)


def round_pairings(tournament: Tournament, number: int) -> list[Pairing]:
    return list(
        Pairing.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("match")
        .order_by("board")
    )


def user_of(entry_id: int) -> Any:
    return Entry.objects.select_related("user").get(pk=entry_id).user


def finish_round(tournament: Tournament, number: int, *, first_wins: bool = True) -> None:
    for p in round_pairings(tournament, number):
        if p.match is not None and p.match.status == Match.Status.ACTIVE:
            lose(p.match, user_of(p.sides[1] if first_wins else p.sides[0]))


def test_a_swiss_runs_round_by_round_to_its_final_standings(alice: Any, players: list[Any]) -> None:
    """Four players, three rounds: each round's matches start together when the last one ends."""
    t = make_tournament(alice)
    entered(t, players[:4])
    assert services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    first = round_pairings(t, 1)
    assert len(first) == 2
    assert all(p.match.status == Match.Status.ACTIVE and p.match.player_count == 2 for p in first)
    # Each player was told of the new match, like any turn.
    started = Notice.objects.filter(kind=Notice.Kind.STARTED, match__in=[p.match for p in first])
    assert sorted(started.values_list("user__username", flat=True)) == sorted(u.username for u in players[:4])

    lose(first[0].match, user_of(first[0].sides[1]))
    assert Round.objects.filter(tournament=t).count() == 1  # one match still in play
    lose(first[1].match, user_of(first[1].sides[1]))
    second = round_pairings(t, 2)
    assert len(second) == 2
    winners = {first[0].sides[0], first[1].sides[0]}
    assert set(second[0].sides) == winners  # the two winners meet on the top board
    finish_round(t, 2)
    finish_round(t, 3)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert Round.objects.filter(tournament=t, status=Round.Status.DONE).count() == 3
    entries = list(t.entries.all())
    rows = services.standings_of(t, entries, t.pairings.select_related("match"))
    assert sum(r.points for r in rows) == 2 * 2 * 3  # two games a round, two half-points each
    assert [r.games for r in rows] == [3, 3, 3, 3]
    assert rows[0].place == 1 and rows[0].points >= rows[-1].points
    # No pair met twice.
    met = [frozenset(p.sides) for n in (1, 2, 3) for p in round_pairings(t, n)]
    assert len(met) == len(set(met)) == 6


def test_an_odd_swiss_gives_one_bye_a_round_worth_a_win(alice: Any, players: list[Any]) -> None:
    t = make_tournament(alice, rounds=3)
    entered(t, players[:3])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    byes = []
    for n in (1, 2, 3):
        pairings = round_pairings(t, n)
        bye = [p for p in pairings if p.is_bye]
        assert len(bye) == 1 and bye[0].match is None
        byes.append(bye[0].sides[0])
        finish_round(t, n)
    assert len(set(byes)) == 3  # no one sat out twice
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    rows = services.standings_of(t, t.entries.all(), t.pairings.select_related("match"))
    assert sum(r.points for r in rows) == 3 * 2 * 2  # per round: one game and one bye


def test_a_round_robin_schedules_everyone_against_everyone(alice: Any, players: list[Any]) -> None:
    t = make_tournament(alice, format=Tournament.Format.ROUND_ROBIN, rounds=1)
    entered(t, players[:5])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    t.refresh_from_db()
    assert t.rounds == 5
    for n in range(1, 6):
        finish_round(t, n)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    games = [frozenset(p.sides) for p in t.pairings.all() if not p.is_bye]
    assert len(games) == len(set(games)) == 10


def test_a_round_advances_when_its_deadline_passes(alice: Any, players: list[Any]) -> None:
    """At the deadline, whoever is still to move resigns (through the match services), so the round
    ends and the next is paired; the worker's clock tick does it."""
    from games.background import clock

    t = make_tournament(alice, rounds=2)
    entered(t, players[:4])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    first = round_pairings(t, 1)
    lose(first[0].match, user_of(first[0].sides[1]))
    deadline = Round.objects.get(tournament=t, number=1).deadline_at
    assert clock.tick(deadline - timedelta(seconds=1))["rounds_closed"] == 0
    assert Round.objects.filter(tournament=t).count() == 1
    done = clock.tick(deadline + timedelta(seconds=1))
    assert done["seats_resigned_at_deadline"] == 1
    late = Match.objects.get(pk=first[1].match_id)
    assert late.status == Match.Status.FINISHED
    # Black (seat 0, the first side) was to move in the untouched match, and lost on the deadline.
    assert late.result["detail"]["forfeit"] == 0
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.DONE
    assert len(round_pairings(t, 2)) == 2


def test_a_tournament_starts_on_time_or_is_cancelled(alice: Any, players: list[Any]) -> None:
    soon = timezone.now() + timedelta(hours=1)
    t = make_tournament(alice, starts_at=soon)
    few = make_tournament(alice, starts_at=soon, min_entries=3)
    entered(t, players[:2])
    entered(few, players[:2])
    assert services.tick(soon - timedelta(seconds=1))["tournaments_started"] == 0
    assert services.tick(soon)["tournaments_started"] == 1
    t.refresh_from_db()
    few.refresh_from_db()
    assert (t.status, few.status) == (Tournament.Status.RUNNING, Tournament.Status.CANCELLED)


def test_withdrawing_mid_event_forfeits_the_match_and_stops_pairing(alice: Any, players: list[Any]) -> None:
    t = make_tournament(alice, rounds=3)
    entered(t, players[:4])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    first = round_pairings(t, 1)
    quitter = user_of(first[0].sides[0])
    services.withdraw(tournament_id=t.pk, user=quitter)
    match = Match.objects.get(pk=first[0].match_id)
    assert match.status == Match.Status.FINISHED
    assert match.result["detail"]["forfeit"] == 0
    lose(first[1].match, user_of(first[1].sides[1]))
    second = round_pairings(t, 2)
    seated = {pk for p in second for pk in p.sides}
    assert first[0].sides[0] not in seated
    assert len(seated) == 3 and sum(p.is_bye for p in second) == 1


def test_a_withdrawn_round_robin_player_forfeits_the_games_left(alice: Any, players: list[Any]) -> None:
    t = make_tournament(alice, format=Tournament.Format.ROUND_ROBIN, rounds=1)
    entered(t, players[:4])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    quitter_entry = round_pairings(t, 1)[0].sides[0]
    services.withdraw(tournament_id=t.pk, user=user_of(quitter_entry))
    for n in (1, 2, 3):
        finish_round(t, n)
    later = [p for n in (2, 3) for p in round_pairings(t, n) if quitter_entry in p.sides]
    assert len(later) == 2
    assert all(p.match is None and p.forfeit_by_id == quitter_entry for p in later)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    rows = {r.entry: r for r in services.standings_of(t, t.entries.all(), t.pairings.select_related("match"))}
    assert rows[quitter_entry].points == 0 and rows[quitter_entry].games == 3


def test_a_rated_tournament_rates_its_matches(alice: Any, players: list[Any]) -> None:
    t = make_tournament(alice, rated=True, rounds=1)
    entered(t, players[:2])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    (p,) = round_pairings(t, 1)
    assert p.match.rated
    lose(p.match, user_of(p.sides[1]))
    assert RatingChange.objects.filter(match=p.match).count() == 2


def test_dos_tables_seat_three_or_four(alice: Any, players: list[Any]) -> None:
    t = make_tournament(alice, game="dos", format=Tournament.Format.TABLES, min_entries=3)
    entered(t, players[:7])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    tables = round_pairings(t, 1)
    assert sorted(p.match.player_count for p in tables) == [3, 4]
    for p in tables:
        seats = list(Seat.objects.filter(match=p.match).order_by("number").values_list("user_id", flat=True))
        assert seats == [user_of(pk).pk for pk in p.sides]


def test_back_alley_pairs_seat_partners_opposite(alice: Any, players: list[Any]) -> None:
    """Fixed partnerships: the second player joins the first's entry; partners sit at seats 0 and 2."""
    t = make_tournament(alice, game="backalley", format=Tournament.Format.ROUND_ROBIN)
    one = services.register(tournament_id=t.pk, user=players[0])
    services.register(tournament_id=t.pk, user=players[1], partner_of=one.pk)
    two = services.register(tournament_id=t.pk, user=players[2])
    services.register(tournament_id=t.pk, user=players[3], partner_of=two.pk)
    lonely = services.register(tournament_id=t.pk, user=players[4])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    assert not Entry.objects.filter(pk=lonely.pk).exists()  # no partner by the start: not in the event
    (p,) = round_pairings(t, 1)
    seats = list(Seat.objects.filter(match=p.match).order_by("number").values_list("user__username", flat=True))
    first, second = (Entry.objects.get(pk=pk) for pk in p.sides)
    assert seats == [first.user.username, second.user.username, first.partner.username, second.partner.username]


def test_back_alley_individual_rotates_partners_at_tables_of_four(alice: Any, players: list[Any]) -> None:
    t = make_tournament(alice, game="backalley", format=Tournament.Format.TABLES, min_entries=4)
    entered(t, players[:8])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    tables = round_pairings(t, 1)
    assert [p.match.player_count for p in tables] == [4, 4]


def test_refusals_change_nothing(alice: Any, bob: Any, carol: Any, players: list[Any]) -> None:
    private = make_tournament(alice, is_public=False)
    with pytest.raises(TournamentError):
        services.register(tournament_id=private.pk, user=bob)
    services.register(tournament_id=private.pk, user=bob, token=private.invite_token)
    with pytest.raises(TournamentError):
        services.register(tournament_id=private.pk, user=bob, token=private.invite_token)
    small = make_tournament(alice, max_entries=2)
    entered(small, players[:2])
    with pytest.raises(TournamentError):
        services.register(tournament_id=small.pk, user=carol)
    with pytest.raises(TournamentError):
        services.start(tournament_id=small.pk, now=timezone.now(), by=bob)
    with pytest.raises(TournamentError):
        make_tournament(alice, game="dos", format=Tournament.Format.SWISS)
    with pytest.raises(TournamentError):
        make_tournament(alice, pace_seconds=None)
    with pytest.raises(TournamentError):
        make_tournament(alice, name="x" * 81)
    with pytest.raises(TournamentError):
        make_tournament(alice, name="   ")
    assert Entry.objects.filter(user=carol).count() == 0
    assert Tournament.objects.count() == 2


def test_withdrawing_before_the_start_removes_the_entry(alice: Any, bob: Any) -> None:
    t = make_tournament(alice)
    services.register(tournament_id=t.pk, user=bob)
    services.withdraw(tournament_id=t.pk, user=bob)
    assert not t.entries.exists()


def test_back_alley_individual_goes_on_after_a_withdrawal_with_the_odd_ones_sitting_out(
    alice: Any, players: list[Any]
) -> None:
    """Eight players, one withdraws in round one: round two seats four at one table, three sit out."""
    t = make_tournament(alice, game="backalley", format=Tournament.Format.TABLES, min_entries=4, rounds=2)
    entered(t, players[:8])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    tables = round_pairings(t, 1)
    quitter = user_of(tables[0].sides[0])
    services.withdraw(tournament_id=t.pk, user=quitter)
    # Everyone else at the tables resigns too: a match left to computers alone ends (the last person
    # to leave ends it), and the round closes on its last result.
    for p in tables:
        for pk in p.sides:
            user = user_of(pk)
            if user != quitter:
                match_services.resign(match_id=p.match_id, user=user)
    assert set(Match.objects.filter(pk__in=[p.match_id for p in tables]).values_list("status", flat=True)) == {
        Match.Status.FINISHED
    }
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.DONE
    second = round_pairings(t, 2)
    assert [len(p.sides) for p in second] == [4, 1, 1, 1]
    assert all(p.match is None for p in second[1:])
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_a_failed_pairing_leaves_the_move_done_and_the_tick_retries(
    alice: Any, players: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    t = make_tournament(alice, rounds=2)
    entered(t, players[:2])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    (p,) = round_pairings(t, 1)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("pairing failed")

    real = services._begin_round
    monkeypatch.setattr(services, "_begin_round", broken)
    lose(p.match, user_of(p.sides[1]))  # no exception reaches the player who resigned
    assert Match.objects.get(pk=p.match_id).status == Match.Status.FINISHED
    assert Round.objects.get(tournament=t, number=1).status == Round.Status.ACTIVE
    monkeypatch.setattr(services, "_begin_round", real)
    assert services.tick(timezone.now())["rounds_closed"] == 1
    assert len(round_pairings(t, 2)) == 1


def test_a_match_called_off_scores_nothing_and_the_round_still_ends(alice: Any, players: list[Any]) -> None:
    """Calling off sends no match_finished; the clock tick sees the round over and moves on."""
    t = make_tournament(alice, rounds=2)
    entered(t, players[:2])
    services.start(tournament_id=t.pk, now=timezone.now(), by=alice)
    (p,) = round_pairings(t, 1)
    match_services.abort(match_id=p.match_id, user=user_of(p.sides[0]))
    assert services.tick(timezone.now())["rounds_closed"] == 1
    rows = services.standings_of(t, t.entries.all(), t.pairings.select_related("match"))
    assert [(r.points, r.games) for r in rows] == [(0, 1), (0, 1)]
    assert len(round_pairings(t, 2)) == 1
