"""Following and blocking: the people page, presence, one-click challenges, and what a block refuses."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services
from games.models import Block, Challenge, ChatMessage, Follow, Match
from games.read import pages
from games.services import ErrorCode, MatchError, challenges, people
from tests.support import client_for

pytestmark = pytest.mark.django_db

PEOPLE = "/people/"


def finished_match(one: Any, other: Any) -> Match:
    match = services.create_match(user=one, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=other)
    services.resign(match_id=match.pk, user=other)
    return match


# --- following and the people page -------------------------------------------------------------


def test_following_from_a_profile_lists_the_player_with_their_presence(alice: Any, bob: Any, carol: Any) -> None:
    client = client_for(alice)
    profile = client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert reverse("games:follow", args=["bob"]) in profile and reverse("games:block", args=["bob"]) in profile

    response = client.post(reverse("games:follow", args=["bob"]))

    assert response.status_code == 302 and response["Location"] == reverse("accounts:profile", args=["bob"])
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    people.follow(user=alice, username="carol")
    type(bob).objects.filter(pk=bob.pk).update(last_seen_at=timezone.now() - timedelta(seconds=30))
    type(carol).objects.filter(pk=carol.pk).update(last_seen_at=timezone.now() - timedelta(minutes=10))
    page = client.get(PEOPLE).content.decode()
    following = page.split('id="following"')[1].split("</ul>")[0]
    bob_row, carol_row = following.split("<li")[1:]
    assert "bob" in bob_row and "on the site now" in bob_row
    assert "carol" in carol_row and "on the site now" not in carol_row
    assert reverse("games:unfollow", args=["bob"]) in bob_row


def test_unfollowing_and_following_oneself_or_nobody(alice: Any, bob: Any) -> None:
    people.follow(user=alice, username="bob")
    people.follow(user=alice, username="BOB")  # twice is once
    assert Follow.objects.count() == 1
    client_for(alice).post(reverse("games:unfollow", args=["bob"]))
    assert not Follow.objects.exists()
    response = client_for(alice).post(reverse("games:follow", args=["alice"]), follow=True)
    assert "That is you." in response.content.decode()
    with pytest.raises(MatchError, match=re.escape("There is no player called zed.")):
        people.follow(user=alice, username="zed")
    assert not Follow.objects.exists()


def test_recent_opponents_are_listed_newest_first_without_oneself(alice: Any, bob: Any, carol: Any) -> None:
    finished_match(alice, bob)
    finished_match(carol, alice)
    services.create_match(user=alice, game="reversi", players=2, bot_seats={1})  # computers are not people
    page = client_for(alice).get(PEOPLE).content.decode()
    opponents = page.split('id="opponents"')[1].split("</ul>")[0]
    assert opponents.index(">carol<") < opponents.index(">bob<")
    assert ">alice<" not in opponents and "Computer" not in opponents


def test_one_click_challenge_from_the_people_page(alice: Any, bob: Any) -> None:
    finished_match(alice, bob)
    response = client_for(alice).post(reverse("games:people-challenge", args=["bob"]), {"game": "tacocat"})
    challenge = Challenge.objects.get(challenged=bob)
    assert response.status_code == 302 and response["Location"] == challenge.match.get_absolute_url()
    assert challenge.match.game == "tacocat" and challenge.challenger == alice


def test_the_people_page_costs_the_same_queries_however_many_people(
    alice: Any, bob: Any, carol: Any, make_user: Any
) -> None:
    client = client_for(alice)
    finished_match(alice, bob)
    people.follow(user=alice, username="bob")
    people.block(user=alice, username="carol")
    client.get(PEOPLE)
    with CaptureQueriesContext(connection) as few:
        client.get(PEOPLE)
    for n in range(4):
        other = make_user(f"p{n}")
        finished_match(other, alice)
        people.follow(user=alice, username=other.username)
        people.block(user=alice, username=make_user(f"b{n}").username)
    with CaptureQueriesContext(connection) as many:
        client.get(PEOPLE)
    assert len(many) == len(few)


# --- blocking ----------------------------------------------------------------------------------


def test_a_blocked_players_challenge_is_refused_with_a_clear_message(alice: Any, bob: Any) -> None:
    people.block(user=alice, username="bob")

    response = client_for(bob).post(reverse("games:people-challenge", args=["alice"]), {"game": "reversi"}, follow=True)

    assert "alice does not accept challenges from you." in response.content.decode()
    assert not Match.objects.exists() and not Challenge.objects.exists()
    with pytest.raises(MatchError) as refused:
        challenges.challenge_player(user=bob, username="alice", game="reversi")
    assert refused.value.code == ErrorCode.FORBIDDEN


def test_a_blocked_player_cannot_keep_a_seat_for_the_blocker_either(alice: Any, bob: Any) -> None:
    people.block(user=alice, username="bob")
    match = services.create_match(user=bob, game="dos", players=3)
    with pytest.raises(MatchError, match=re.escape("alice does not accept challenges from you.")):
        challenges.challenge_to_match(match_id=match.pk, user=bob, username="alice")
    assert not Challenge.objects.exists()


def test_the_blocker_is_told_to_unblock_before_challenging(alice: Any, bob: Any) -> None:
    people.block(user=alice, username="bob")
    told = "You blocked bob: unblock them on their profile to challenge them."
    with pytest.raises(MatchError, match=re.escape(told)):
        challenges.challenge_player(user=alice, username="bob", game="reversi")
    people.unblock(user=alice, username="bob")
    assert challenges.challenge_player(user=alice, username="bob", game="reversi").challenges.get().challenged == bob


def test_no_rematch_between_a_blocker_and_the_blocked(alice: Any, bob: Any) -> None:
    match = finished_match(alice, bob)
    people.block(user=alice, username="bob")
    with pytest.raises(MatchError, match="no rematch"):
        services.offer_rematch(match_id=match.pk, user=bob)
    assert Match.objects.count() == 1


def test_a_blocked_players_chat_is_refused_and_their_lines_hidden(reversi_match: Match, alice: Any, bob: Any) -> None:
    services.post_chat(match_id=reversi_match.pk, user=bob, text="before the block")
    services.post_chat(match_id=reversi_match.pk, user=alice, text="from alice")
    people.block(user=alice, username="bob")

    response = client_for(bob).post(
        reverse("games:chat", args=[reversi_match.pk]), {"text": "after the block"}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 403
    assert "A player of this match blocked you: you cannot write in its chat." in response.content.decode()
    assert not ChatMessage.objects.filter(text="after the block").exists()
    # Neither the page nor the live push (one render for every reader) shows the blocked player's lines.
    page = client_for(alice).get(reversi_match.get_absolute_url()).content.decode()
    assert "from alice" in page and "before the block" not in page
    pushed = pages.render_chat_log(reversi_match.pk, ["en"])["en"]
    assert "from alice" in pushed and "before the block" not in pushed


def test_blocking_ends_follows_both_ways_and_refuses_new_ones(alice: Any, bob: Any) -> None:
    people.follow(user=alice, username="bob")
    people.follow(user=bob, username="alice")

    client_for(alice).post(reverse("games:block", args=["bob"]))

    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    assert not Follow.objects.exists()
    with pytest.raises(MatchError, match=re.escape("You cannot follow alice.")):
        people.follow(user=bob, username="alice")
    page = client_for(alice).get(PEOPLE).content.decode()
    assert 'id="blocked"' in page and reverse("games:unblock", args=["bob"]) in page


def test_a_block_takes_each_out_of_the_others_recent_opponents(alice: Any, bob: Any) -> None:
    """Neither sees the other listed, nor so whether the other is on the site now."""
    finished_match(alice, bob)
    people.block(user=alice, username="bob")
    for who in (alice, bob):
        page = client_for(who).get(PEOPLE).content.decode()
        assert 'id="opponents"' not in page


def test_follow_and_block_answer_only_posts_and_go_back_only_to_this_site(alice: Any, bob: Any) -> None:
    client = client_for(alice)
    assert client.get(reverse("games:block", args=["bob"])).status_code == 405
    response = client.post(reverse("games:follow", args=["bob"]), {"next": "https://evil.example/"})
    assert response["Location"] == reverse("accounts:profile", args=["bob"])
    response = client.post(reverse("games:unfollow", args=["bob"]), {"next": PEOPLE})
    assert response["Location"] == PEOPLE
