"""Challenge spam: how many challenges one person may send, and how many may wait on one person.

The limits are ``games.services.challenges.PER_MINUTE`` and its neighbours (documented in
docs/security.md, "Challenges and leaving"). A refused challenge writes nothing: no match, no seat
kept, no challenge row, no notice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Challenge, Match, Notice, Seat
from games.read import queries
from games.services import challenges
from tests.support import client_for

pytestmark = pytest.mark.django_db


def age_all_challenges(days: float = 2) -> None:
    """Move every challenge sent so far into the past: out of the per-minute and per-day windows."""
    Challenge.objects.update(created_at=timezone.now() - timedelta(days=days))


def rows() -> tuple[int, int, int, int]:
    return (
        Match.objects.count(),
        Challenge.objects.count(),
        Notice.objects.count(),
        Seat.objects.filter(reserved_for__isnull=False).count(),
    )


def refused(call: Callable[[], Any], code: str = "rate_limited") -> str:
    before = rows()
    with pytest.raises(services.MatchError) as error:
        call()
    assert error.value.code == code
    assert rows() == before
    return error.value.message


def test_a_hundred_challenges_to_one_person_in_a_burst_leave_three_waiting(alice: Any, bob: Any) -> None:
    """The report: 100 challenges to one person in 10 s made 100 pending. Now bob has three to answer."""
    client = client_for(alice)
    answers = [client.post(reverse("games:challenge-player", args=["bob"]), {"game": "reversi"}) for _ in range(100)]
    assert [a.status_code for a in answers] == [302] * challenges.WAITING_TO_ONE + [429] * 97
    assert Challenge.objects.filter(challenged=bob).count() == challenges.WAITING_TO_ONE
    assert Match.objects.count() == challenges.WAITING_TO_ONE
    assert len(queries.pending_for(bob)) == challenges.WAITING_TO_ONE
    # The refused ones are told why, on the challenge form they came from.
    refusal = answers[-1].content.decode()
    assert "bob has not answered your last 3 challenges yet: wait for an answer before sending more." in refusal
    assert 'class="stack new-match challenge-terms"' in refusal


def test_at_most_five_challenges_a_minute(alice: Any, make_user: Any) -> None:
    people = [make_user(f"p{n}") for n in range(challenges.PER_MINUTE + 1)]
    for person in people[:-1]:
        challenges.challenge_player(user=alice, username=person.username, game="reversi")
    message = refused(lambda: challenges.challenge_player(user=alice, username=people[-1].username, game="reversi"))
    assert message == "You are sending challenges too fast: at most 5 a minute. Wait a minute and try again."
    Challenge.objects.update(created_at=timezone.now() - timedelta(seconds=61))
    challenges.challenge_player(user=alice, username=people[-1].username, game="reversi")


def test_at_most_fifty_challenges_a_day_answered_or_not(alice: Any, bob: Any, carol: Any) -> None:
    """Declined challenges count too: sending and having them declined is no way around the limit."""
    match = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    Challenge.objects.bulk_create(
        [
            Challenge(match=match, seat=1, challenger=alice, challenged=bob, status=Challenge.Status.DECLINED)
            for _ in range(challenges.PER_DAY)
        ]
    )
    age_all_challenges(days=0.5)
    message = refused(lambda: challenges.challenge_player(user=alice, username="carol", game="reversi"))
    assert message == "You have sent 50 challenges today, the most a day allows. Try again tomorrow."
    age_all_challenges(days=1.01)
    challenges.challenge_player(user=alice, username="carol", game="reversi")


def test_at_most_ten_challenges_wait_for_answers_and_calling_a_match_off_withdraws_one(
    alice: Any, make_user: Any
) -> None:
    people = [make_user(f"p{n}") for n in range(challenges.WAITING_SENT + 1)]
    made = []
    for n, person in enumerate(people[:-1]):
        if n % challenges.PER_MINUTE == 0:
            age_all_challenges()
        made.append(challenges.challenge_player(user=alice, username=person.username, game="reversi"))
    age_all_challenges()
    message = refused(lambda: challenges.challenge_player(user=alice, username=people[-1].username, game="reversi"))
    assert message.startswith("10 of your challenges are still waiting for an answer")
    # An answered challenge no longer waits; nor does one whose match was called off.
    challenges.decline(match_id=made[0].pk, user=people[0])
    challenges.challenge_player(user=alice, username=people[-1].username, game="reversi")
    refused(lambda: challenges.challenge_player(user=alice, username=people[0].username, game="reversi"))
    services.abort(match_id=made[1].pk, user=alice)
    challenges.challenge_player(user=alice, username=people[0].username, game="reversi")


def test_at_most_twenty_challenges_wait_on_one_person(bob: Any, make_user: Any) -> None:
    senders = [make_user(f"s{n}") for n in range(challenges.WAITING_RECEIVED // challenges.WAITING_TO_ONE + 1)]
    sent = 0
    for sender in senders:
        for _ in range(challenges.WAITING_TO_ONE):
            if sent < challenges.WAITING_RECEIVED:
                challenges.challenge_player(user=sender, username="bob", game="reversi")
                sent += 1
    last = senders[-1]
    assert Challenge.objects.filter(challenger=last).count() < challenges.WAITING_TO_ONE
    message = refused(lambda: challenges.challenge_player(user=last, username="bob", game="reversi"))
    assert message == "bob has too many challenges waiting for an answer. Try again later."
    # From a waiting match too, not only from a profile.
    match = services.create_match(user=last, game="reversi", players=2, is_public=False)
    refused(lambda: challenges.challenge_to_match(match_id=match.pk, user=last, username="bob"))
    assert match.seats.get(number=1).reserved_for is None
    # Once bob answers one, there is room again.
    challenges.accept(match_id=queries.pending_for(bob)[0].match_id, user=bob)
    challenges.challenge_to_match(match_id=match.pk, user=last, username="bob")


def test_rematch_offers_are_not_challenges_by_name(alice: Any, bob: Any) -> None:
    """A rematch is offered once per finished match; it neither counts against nor is refused by the limits."""
    for _ in range(challenges.WAITING_TO_ONE):
        challenges.challenge_player(user=alice, username="bob", game="reversi")
    finished = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    services.join_match(match_id=finished.pk, user=bob, token=finished.invite_token)
    services.resign(match_id=finished.pk, user=bob)
    rematch = services.offer_rematch(match_id=finished.pk, user=alice)
    assert Challenge.objects.get(match=rematch).challenged == bob
