"""Play now: seeks asking for the same match are paired into one, through the usual create path."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.background import clock, notify
from games.models import Match, Notice, Rating, Seat, Seek
from games.record import ratings
from games.services import ErrorCode, MatchError, pairing, people

pytestmark = pytest.mark.django_db


def seek(user: Any, game: str = "reversi", players: int = 2, **kwargs: Any) -> Seek:
    kwargs.setdefault("pace_seconds", 24 * 3600)
    kwargs.setdefault("rated", False)
    return pairing.post_seek(user=user, game=game, players=players, **kwargs)


def rate(user: Any, game: str, shown: int) -> None:
    """Give ``user`` the rating ``shown`` (the 1500 scale) in ``game``."""
    Rating.objects.create(user=user, game=game, mu=shown / ratings.SCALE, sigma=ratings.START_SIGMA)


def seated(match: Match) -> list[str]:
    return [s.user.username for s in Seat.objects.filter(match=match).select_related("user").order_by("number")]


def test_two_reversi_seekers_are_paired_into_one_started_match(alice: Any, bob: Any) -> None:
    first = seek(alice)
    assert first.status == Seek.Status.OPEN and first.match_id is None

    second = seek(bob)

    first.refresh_from_db()
    assert first.status == second.status == Seek.Status.PAIRED
    assert first.match_id == second.match_id is not None
    match = Match.objects.get(pk=first.match_id)
    assert match.status == Match.Status.ACTIVE
    assert (match.game, match.player_count, match.pace_seconds, match.rated) == ("reversi", 2, 24 * 3600, False)
    assert sorted(seated(match)) == ["alice", "bob"]
    # Like any match: a fair-play commitment, and start and turn notices (emailed or pushed if away).
    assert match.shuffle_commitment
    assert Notice.objects.filter(match=match, kind=Notice.Kind.STARTED).count() == 2
    assert Notice.objects.filter(match=match, kind=Notice.Kind.TURN).count() == 1


def test_a_pairing_made_while_away_reaches_both_players_by_email(alice: Any, bob: Any, mailoutbox: Any) -> None:
    start = timezone.now()
    seek(alice, now=start)
    seek(bob, now=start)

    clock.tick(timezone.now() + notify.GRACE + timedelta(seconds=1))

    assert sorted(m.to[0] for m in mailoutbox) == ["alice@example.com", "bob@example.com"]
    assert all("Match started" in m.body for m in mailoutbox)


def test_a_deactivated_players_seek_is_not_paired(alice: Any, bob: Any) -> None:
    seek(alice)
    type(alice).objects.filter(pk=alice.pk).update(is_active=False)
    assert seek(bob).status == Seek.Status.OPEN
    assert Match.objects.count() == 0


def test_three_dos_seekers_fill_a_table_of_three(alice: Any, bob: Any, carol: Any, make_user: Any) -> None:
    seek(alice, "dos", 3)
    seek(bob, "dos", 3)
    seek(make_user("dave"), "dos", 4)  # a table of four is another kind of match
    assert Match.objects.count() == 0

    mine = seek(carol, "dos", 3)

    match = Match.objects.get(pk=mine.match_id)
    assert match.player_count == 3 and match.status == Match.Status.ACTIVE
    assert sorted(seated(match)) == ["alice", "bob", "carol"]
    assert Seek.objects.get(user__username="dave").status == Seek.Status.OPEN


def test_four_back_alley_seekers_are_seated_as_two_even_teams(make_user: Any) -> None:
    people_ = {name: make_user(name) for name in ("ann", "ben", "cat", "dan")}
    for name, shown in {"ann": 1700, "ben": 1500, "cat": 1400, "dan": 1600}.items():
        rate(people_[name], "backalley", shown)
    for name in people_:
        last = seek(people_[name], "backalley", 4)

    match = Match.objects.get(pk=last.match_id)
    assert match.status == Match.Status.ACTIVE
    # Seats 0 and 2 are partners against 1 and 3: the strongest with the weakest.
    assert seated(match) == ["ann", "dan", "cat", "ben"]


def test_two_pairs_of_partners_each_take_a_team(make_user: Any) -> None:
    people_ = {name: make_user(name) for name in ("ann", "ben", "cat", "dan")}
    seek(people_["ann"], "backalley", 4, partner="cat")
    seek(people_["ben"], "backalley", 4, partner="dan")
    seek(people_["dan"], "backalley", 4, partner="ben")
    assert Match.objects.count() == 0  # ann's partner has not asked yet

    last = seek(people_["cat"], "backalley", 4, partner="ann")

    assert seated(Match.objects.get(pk=last.match_id)) == ["ann", "ben", "cat", "dan"]


def test_a_pair_of_partners_plays_two_strangers_seated_together(make_user: Any) -> None:
    people_ = {name: make_user(name) for name in ("ann", "ben", "cat", "dan", "eve")}
    for name, shown in {"ann": 1500, "ben": 1900, "cat": 1400, "dan": 1500, "eve": 1600}.items():
        rate(people_[name], "backalley", shown)
    seek(people_["ben"], "backalley", 4)
    seek(people_["ann"], "backalley", 4, partner="dan")
    seek(people_["dan"], "backalley", 4, partner="ann")
    seek(people_["eve"], "backalley", 4, partner="cat")  # cat never names eve: eve waits

    last = seek(people_["cat"], "backalley", 4)

    assert seated(Match.objects.get(pk=last.match_id)) == ["ann", "ben", "dan", "cat"]
    assert Seek.objects.get(user=people_["eve"]).status == Seek.Status.OPEN


def test_a_partner_is_only_for_team_games_and_not_across_a_block(alice: Any, bob: Any) -> None:
    with pytest.raises(MatchError, match="Reversi has no partnerships"):
        seek(alice, partner="bob")
    people.block(user=bob, username="alice")
    with pytest.raises(MatchError, match="You cannot play as partners with bob"):
        seek(alice, "backalley", 4, partner="bob")
    with pytest.raises(MatchError, match="There is no player called zed"):
        seek(alice, "backalley", 4, partner="zed")
    assert not Seek.objects.exists()


def test_partners_who_blocked_one_another_since_asking_are_not_seated_together(make_user: Any) -> None:
    people_ = {name: make_user(name) for name in ("ann", "ben", "cat", "dan")}
    seek(people_["ann"], "backalley", 4, partner="cat")
    seek(people_["cat"], "backalley", 4, partner="ann")
    people.block(user=people_["cat"], username="ann")
    seek(people_["ben"], "backalley", 4)
    seek(people_["dan"], "backalley", 4)
    assert Match.objects.count() == 0


def test_seeks_for_different_matches_are_not_paired(alice: Any, bob: Any, make_user: Any) -> None:
    seek(alice, "reversi", pace_seconds=24 * 3600, rated=False)
    seek(bob, "reversi", pace_seconds=3 * 24 * 3600, rated=False)  # another pace
    seek(make_user("cy"), "reversi", pace_seconds=24 * 3600, rated=True)  # rated
    seek(make_user("di"), "tacocat", pace_seconds=24 * 3600, rated=False)  # another game
    seek(make_user("ed"), "dos", 2, pace_seconds=24 * 3600, rated=False)  # another game again

    assert pairing.pair_waiting(now=timezone.now() + timedelta(days=3)) == 0
    assert Match.objects.count() == 0
    assert set(Seek.objects.values_list("status", flat=True)) == {Seek.Status.OPEN}


def test_a_blocked_player_is_never_paired_with_the_blocker(alice: Any, bob: Any, carol: Any) -> None:
    people.block(user=alice, username="bob")
    seek(alice)
    seek(bob)
    assert pairing.pair_waiting(now=timezone.now() + timedelta(days=3)) == 0
    assert Match.objects.count() == 0

    third = seek(carol)  # anyone else is paired with the older of the two

    assert sorted(seated(Match.objects.get(pk=third.match_id))) == ["alice", "carol"]
    assert Seek.objects.get(user=bob).status == Seek.Status.OPEN


def test_the_blocked_player_is_not_paired_with_the_blocker_either(alice: Any, bob: Any) -> None:
    people.block(user=bob, username="alice")
    seek(alice)
    seek(bob)
    assert Match.objects.count() == 0


def test_the_rating_window_widens_while_a_rated_seek_waits(alice: Any, bob: Any) -> None:
    rate(alice, "reversi", 1500)
    rate(bob, "reversi", 1800)
    start = timezone.now()
    seek(alice, rated=True, now=start)
    seek(bob, rated=True, now=start)
    assert Match.objects.count() == 0  # 300 points apart, windows of 100

    # 100 points either side at first, 50 more each minute: 300 after four minutes.
    assert clock.tick(start + timedelta(minutes=3, seconds=59))["paired"] == 0
    assert clock.tick(start + timedelta(minutes=4))["paired"] == 1

    match = Match.objects.get()
    assert match.rated and sorted(seated(match)) == ["alice", "bob"]


def test_a_casual_seek_pairs_whatever_the_ratings(alice: Any, bob: Any) -> None:
    rate(alice, "reversi", 1200)
    rate(bob, "reversi", 2200)
    seek(alice)
    assert seek(bob).status == Seek.Status.PAIRED


def test_a_new_seek_far_away_waits_for_its_own_window(alice: Any, bob: Any, carol: Any) -> None:
    """Every player accepts every other: an old seek's wide window does not override a new one's."""
    rate(alice, "reversi", 1500)
    rate(bob, "reversi", 1900)
    start = timezone.now()
    seek(alice, rated=True, now=start - timedelta(hours=1))
    seek(bob, rated=True, now=start)
    assert Match.objects.count() == 0
    assert pairing.pair_waiting(now=start + timedelta(minutes=6)) == 1


def test_a_player_keeps_several_seeks_up_to_the_cap(alice: Any) -> None:
    kinds = [("reversi", 2), ("tacocat", 2), ("dos", 2), ("dos", 3), ("dos", 4)]
    for game, players in kinds:
        seek(alice, game, players)
    with pytest.raises(MatchError) as refused:
        seek(alice, "backalley", 4)
    assert refused.value.code == ErrorCode.RATE_LIMITED
    assert "at most 5" in refused.value.message
    assert Seek.objects.filter(user=alice, status=Seek.Status.OPEN).count() == 5


def test_the_same_request_twice_is_refused(alice: Any) -> None:
    seek(alice)
    with pytest.raises(MatchError, match="already waiting"):
        seek(alice)
    assert Seek.objects.count() == 1


@pytest.mark.parametrize(
    ("game", "players", "pace", "message"),
    [
        ("chess", 2, None, "There is no such game."),
        ("reversi", 3, None, "Reversi is for 2 to 2 players."),
        ("reversi", 2, 17, "That pace is not offered."),
    ],
)
def test_a_bad_request_is_refused_and_stores_nothing(
    alice: Any, game: str, players: int, pace: int | None, message: str
) -> None:
    with pytest.raises(MatchError) as refused:
        pairing.post_seek(user=alice, game=game, players=players, pace_seconds=pace, rated=False)
    assert refused.value.message == message
    assert not Seek.objects.exists()


def test_a_cancelled_seek_is_never_paired(alice: Any, bob: Any) -> None:
    mine = seek(alice)
    pairing.cancel_seek(user=alice, seek_id=mine.pk)
    assert seek(bob).status == Seek.Status.OPEN
    mine.refresh_from_db()
    assert mine.status == Seek.Status.CANCELLED and Match.objects.count() == 0


def test_a_paired_seek_cannot_be_cancelled_nor_another_players(alice: Any, bob: Any) -> None:
    mine = seek(alice)
    seek(bob)
    with pytest.raises(MatchError, match="already paired or cancelled"):
        pairing.cancel_seek(user=alice, seek_id=mine.pk)
    with pytest.raises(MatchError) as refused:
        pairing.cancel_seek(user=bob, seek_id=mine.pk)
    assert refused.value.code == ErrorCode.NOT_FOUND
    assert Seek.objects.get(pk=mine.pk).status == Seek.Status.PAIRED


def test_a_group_read_before_a_cancel_makes_no_match(alice: Any, bob: Any) -> None:
    """The claim re-checks every seek: a pairer that read the seeks before one was cancelled (another
    process, between its read and its write) makes no match and leaves the other seek open."""
    now = timezone.now()
    first = Seek.objects.create(user=alice, game="reversi", players=2, rating=1500, created_at=now)
    second = Seek.objects.create(user=bob, game="reversi", players=2, rating=1500, created_at=now)
    kind = pairing.Kind.of(first)
    [group] = pairing.groups([first, second], 2, now=now, blocked=set())
    pairing.cancel_seek(user=bob, seek_id=second.pk)

    assert pairing._make_match(kind, group, now) is None

    assert Match.objects.count() == 0
    assert Seek.objects.get(pk=first.pk).status == Seek.Status.OPEN
