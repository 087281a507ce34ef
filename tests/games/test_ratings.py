"""Ratings: rated matches move openskill ratings; casual ones and computer players never do."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.backalley.scoring import match_result
from games.models import Match, Rating, RatingChange, Seat
from games.record import ratings
from games.services import base

pytestmark = pytest.mark.django_db


def rated_match(game: str, users: list[Any]) -> Match:
    match = services.create_match(user=users[0], game=game, players=len(users), rated=True)
    for user in users[1:]:
        services.join_match(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match


def finish(match: Match, result: dict[str, Any]) -> None:
    """End a match with a result in the engine's own format, through the service's finishing step."""
    from django.db import transaction

    with transaction.atomic():
        base.finish(match, result, list(match.seats.select_related("user")))


def rating(user: Any, game: str) -> Rating:
    return Rating.objects.get(user=user, game=game)


def test_a_rated_two_player_match_moves_the_winner_up_and_the_loser_down(alice: Any, bob: Any) -> None:
    match = rated_match("reversi", [alice, bob])
    services.resign(match_id=match.pk, user=bob)
    assert rating(alice, "reversi").mu > ratings.START_MU > rating(bob, "reversi").mu
    assert rating(alice, "reversi").rated_matches == rating(bob, "reversi").rated_matches == 1
    changes = ratings.changes_for(match)
    assert changes[0]["delta"] > 0 > changes[1]["delta"]
    assert changes[0]["before"] == changes[1]["before"] == 1500


def test_a_casual_match_leaves_ratings_alone(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    services.resign(match_id=match.pk, user=bob)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_rated_match_against_a_computer_player_cannot_be_created(alice: Any) -> None:
    with pytest.raises(services.MatchError) as refused:
        services.create_match(user=alice, game="reversi", players=2, bot_seats={1}, rated=True)
    assert refused.value.code == "invalid"
    assert not Match.objects.exists()


def test_a_four_player_free_for_all_ranks_every_player(make_user: Any) -> None:
    users = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    match = rated_match("dos", users)
    finish(match, {"scores": [210, 40, 120, 40], "ranks": [1, 3, 2, 3], "detail": {"rounds": 4, "target": 200}})
    mus = [rating(u, "dos").mu for u in users]
    assert mus[0] > mus[2] > mus[1]
    assert mus[1] == pytest.approx(mus[3])  # the two tied for third move alike
    assert mus[1] < ratings.START_MU


def test_a_team_match_moves_partners_together(make_user: Any) -> None:
    users = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    match = rated_match("backalley", users)
    finish(match, match_result((180, 150)))  # seats 0 and 2 against 1 and 3
    mus = [rating(u, "backalley").mu for u in users]
    assert mus[0] == pytest.approx(mus[2]) and mus[1] == pytest.approx(mus[3])
    assert mus[0] > ratings.START_MU > mus[1]


def test_a_player_who_resigned_ranks_last_in_a_free_for_all(make_user: Any) -> None:
    users = [make_user(name) for name in ("ann", "ben", "cat")]
    match = rated_match("dos", users)
    services.resign(match_id=match.pk, user=users[0])  # a computer substitute plays on for ann
    match.refresh_from_db()
    # The substitute went on to score the most; the player who left still ranks last.
    finish(match, {"scores": [200, 30, 10], "ranks": [1, 2, 3], "detail": {"rounds": 3, "target": 200}})
    assert Seat.objects.get(match=match, number=0).outcome == Seat.Outcome.LOSS
    mus = {u.username: rating(u, "dos").mu for u in users}
    assert mus["ann"] < mus["cat"] < mus["ben"]


def test_recomputing_from_scratch_gives_identical_ratings(make_user: Any, alice: Any, bob: Any, carol: Any) -> None:
    for winner, loser in [(alice, bob), (bob, carol), (alice, carol), (carol, alice), (alice, bob)]:
        match = rated_match("reversi", [winner, loser])
        services.resign(match_id=match.pk, user=loser)
    users = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    finish(rated_match("backalley", users), match_result((90, 120)))
    before = sorted(Rating.objects.values_list("user_id", "game", "mu", "sigma", "rated_matches"))
    history = sorted(RatingChange.objects.values_list("match_id", "user_id", "mu_before", "mu_after"))
    assert ratings.recompute() == 6
    assert sorted(Rating.objects.values_list("user_id", "game", "mu", "sigma", "rated_matches")) == before
    assert sorted(RatingChange.objects.values_list("match_id", "user_id", "mu_before", "mu_after")) == history


def test_a_rematch_of_a_rated_match_is_rated(alice: Any, bob: Any) -> None:
    match = rated_match("reversi", [alice, bob])
    services.resign(match_id=match.pk, user=bob)
    assert services.offer_rematch(match_id=match.pk, user=alice).rated


def test_a_rating_is_provisional_until_enough_rated_matches(alice: Any, bob: Any) -> None:
    for _ in range(ratings.PROVISIONAL_BELOW):
        assert ratings.standings(alice).get("reversi") is None or ratings.standings(alice)["reversi"].provisional
        match = rated_match("reversi", [alice, bob])
        services.resign(match_id=match.pk, user=bob)
    assert not ratings.standings(alice)["reversi"].provisional
    assert [r.user for r in ratings.leaderboard("reversi")] == [alice, bob]
