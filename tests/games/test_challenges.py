"""Inviting people: the invitation link, challenges by username, private rematches, the live inbox."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games import services
from games.background import notify
from games.models import Challenge, Match, Notice
from games.services import challenges
from tests.support import client_for

pytestmark = pytest.mark.django_db


@override_settings(SITE_URL="http://127.0.0.1:8000", SITE_URL_SET=False, ALLOWED_HOSTS=["play.example.org"])
def test_the_invitation_link_names_the_address_the_site_is_served_at(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    page = client_for(alice).get(match.get_absolute_url(), HTTP_HOST="play.example.org").content.decode()
    assert f'value="http://play.example.org/invite/{match.invite_token}/"' in page
    assert "127.0.0.1:8000" not in page


@override_settings(SITE_URL="https://turnwise.example", SITE_URL_SET=True, ALLOWED_HOSTS=["internal"])
def test_a_configured_site_address_wins_over_the_request(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    page = client_for(alice).get(match.get_absolute_url(), HTTP_HOST="internal:8000").content.decode()
    assert f'value="https://turnwise.example/invite/{match.invite_token}/"' in page


def _finished_private(alice: Any, bob: Any) -> Match:
    match = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    services.join_match(match_id=match.pk, user=bob, token=match.invite_token)
    services.resign(match_id=match.pk, user=bob)
    return match


def test_the_reserved_opponent_of_a_private_rematch_can_open_it_and_answer(alice: Any, bob: Any) -> None:
    original = _finished_private(alice, bob)
    rematch = services.offer_rematch(match_id=original.pk, user=alice)
    client = client_for(bob)
    page = client.get(rematch.get_absolute_url())
    assert page.status_code == 200
    assert "alice offers a rematch." in page.content.decode()
    api = client.get(reverse("games:api-match", args=[rematch.pk]))
    assert api.status_code == 200 and api.json()["status"] == "waiting"
    # The result screen of the finished match shows the offer with the answers too.
    result = client.get(original.get_absolute_url()).content.decode()
    assert "alice offers a rematch." in result and reverse("games:challenge-accept", args=[rematch.pk]) in result


def test_the_reserved_opponent_is_told_of_a_rematch(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = _finished_private(alice, bob)
    told: list[int] = []
    monkeypatch.setattr("games.live.realtime.announce_user", told.append)
    with django_capture_on_commit_callbacks(execute=True):
        rematch = services.offer_rematch(match_id=original.pk, user=alice)
    assert told == [bob.pk]  # bob's pages: the badge and the inbox
    assert Notice.objects.filter(user=bob, match=rematch, kind=Notice.Kind.CHALLENGE).exists()  # email, push
    home = client_for(bob).get(reverse("games:home")).content.decode()
    assert "alice offers a rematch." in home
    assert 'data-challenges="1"' in home and "1 challenge" in home


def test_accepting_a_rematch_starts_it_and_the_result_screen_takes_players_along(alice: Any, bob: Any) -> None:
    original = _finished_private(alice, bob)
    rematch = services.offer_rematch(match_id=original.pk, user=alice)
    response = client_for(bob).post(reverse("games:challenge-accept", args=[rematch.pk]))
    assert response.status_code == 302 and response.url == rematch.get_absolute_url()
    rematch.refresh_from_db()
    assert rematch.status == Match.Status.ACTIVE
    assert Challenge.objects.get(match=rematch).status == Challenge.Status.ACCEPTED
    result = client_for(alice).get(original.get_absolute_url()).content.decode()
    assert "data-follow" in result  # the page open on the result follows into the new match


def test_declining_a_private_rematch_tells_the_offerer_on_the_result_screen(alice: Any, bob: Any) -> None:
    original = _finished_private(alice, bob)
    rematch = services.offer_rematch(match_id=original.pk, user=alice)
    response = client_for(bob).post(
        reverse("games:challenge-decline", args=[rematch.pk]), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200 and response["HX-Redirect"] == reverse("games:home")
    assert "bob declined the rematch." in client_for(alice).get(original.get_absolute_url()).content.decode()
    result = client_for(bob).get(original.get_absolute_url()).content.decode()
    assert "Go to the rematch" not in result  # a private match he turned down is not his to open


def test_challenging_by_username_from_a_waiting_match_keeps_the_seat(alice: Any, bob: Any, carol: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    response = client_for(alice).post(reverse("games:challenge", args=[match.pk]), {"username": "BOB"})
    assert response.status_code == 302
    seat = match.seats.get(number=1)
    assert seat.reserved_for == bob and seat.user is None
    with pytest.raises(services.MatchError):
        services.join_match(match_id=match.pk, user=carol)  # the seat is kept for bob
    home = client_for(bob).get(reverse("games:home")).content.decode()
    assert "alice challenges you." in home
    # The home page's list refreshes itself from this fragment when the badge is pushed.
    fragment = client_for(bob).get(reverse("games:inbox")).content.decode()
    assert fragment.lstrip().startswith('<div id="inbox"') and "alice challenges you." in fragment


@pytest.mark.parametrize(
    ("username", "message"),
    [("", "Write the username"), ("nobody", "no player called nobody"), ("alice", "cannot challenge yourself")],
)
def test_a_challenge_to_nobody_is_refused_and_changes_nothing(alice: Any, username: str, message: str) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    with pytest.raises(services.MatchError) as error:
        challenges.challenge_to_match(match_id=match.pk, user=alice, username=username)
    assert message in error.value.message
    assert not Challenge.objects.exists() and match.seats.get(number=1).reserved_for is None


def test_only_a_seated_player_may_challenge(alice: Any, bob: Any, carol: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    with pytest.raises(services.MatchError) as error:
        challenges.challenge_to_match(match_id=match.pk, user=carol, username="bob")
    assert error.value.code == "forbidden"
    assert not Challenge.objects.exists()


def test_a_challenge_from_a_profile_makes_a_private_match_for_the_chosen_game(alice: Any, bob: Any) -> None:
    profile = client_for(alice).get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert "Challenge bob" in profile
    response = client_for(alice).post(reverse("games:challenge-player", args=["bob"]), {"game": "tacocat"})
    match = Match.objects.get()
    assert response.url == match.get_absolute_url()
    assert (match.game, match.is_public, match.status) == ("tacocat", False, Match.Status.WAITING)
    assert match.seats.get(number=1).reserved_for == bob
    challenges.accept(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_a_back_alley_challenge_fills_the_other_seats_with_computers(alice: Any, bob: Any) -> None:
    match = challenges.challenge_player(user=alice, username="bob", game="backalley")
    assert [(s.user, s.reserved_for, s.is_bot) for s in match.seats.all()] == [
        (alice, None, False),
        (None, bob, False),
        (None, None, True),
        (None, None, True),
    ]


def test_declining_frees_the_seat_and_tells_the_challenger(
    alice: Any, bob: Any, carol: Any, django_capture_on_commit_callbacks: Any
) -> None:
    match = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    challenges.challenge_to_match(match_id=match.pk, user=alice, username="bob")
    with django_capture_on_commit_callbacks() as callbacks:
        response = client_for(bob).post(reverse("games:challenge-decline", args=[match.pk]))
    assert response.status_code == 302
    assert callbacks  # announced: alice's page and badge, bob's inbox
    assert match.seats.get(number=1).reserved_for is None
    assert Challenge.objects.get().status == Challenge.Status.DECLINED
    assert Notice.objects.filter(user=alice, match=match, kind=Notice.Kind.DECLINED).exists()
    page = client_for(alice).get(match.get_absolute_url()).content.decode()
    assert "bob declined the challenge; the seat is open again." in page
    assert client_for(bob).get(match.get_absolute_url()).status_code == 404  # private, and no longer his
    services.join_match(match_id=match.pk, user=carol, token=match.invite_token)  # the seat is open


def test_declining_without_a_challenge_is_refused(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    with pytest.raises(services.MatchError):
        challenges.decline(match_id=match.pk, user=bob)
    with pytest.raises(services.MatchError):
        challenges.accept(match_id=match.pk, user=bob)
    assert match.seats.get(number=1).user is None


def test_an_open_challenge_in_the_lobby_is_accepted_by_joining(alice: Any, bob: Any, carol: Any) -> None:
    response = client_for(alice).post(reverse("games:open-challenge"), {"game": "dos"})
    match = Match.objects.get()
    assert response.url == match.get_absolute_url() and match.is_public
    lobby = client_for(bob).get(reverse("games:lobby")).content.decode()
    assert f'action="{reverse("games:join", args=[match.pk])}"' in lobby
    # A match whose only open seat is kept for someone is not offered to everyone.
    kept = services.create_match(user=carol, game="reversi", players=2)
    challenges.challenge_to_match(match_id=kept.pk, user=carol, username="alice")
    lobby = client_for(bob).get(reverse("games:lobby")).content.decode()
    assert f'action="{reverse("games:join", args=[kept.pk])}"' not in lobby
    services.join_match(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_the_waiting_page_offers_a_copy_button_and_the_challenge_form(alice: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    page = client_for(alice).get(match.get_absolute_url()).content.decode()
    assert 'class="copy-link" data-copy="invite-link"' in page and "readonly" in page
    assert "Challenge a player by username" in page


def test_an_away_player_is_emailed_a_challenge_and_the_challenger_a_refusal(alice: Any, bob: Any) -> None:
    match = services.create_match(user=alice, game="reversi", players=2)
    challenges.challenge_to_match(match_id=match.pk, user=alice, username="bob")
    mail.outbox.clear()
    assert notify.send_due(timezone.now() + timedelta(minutes=2)) == 1
    [email] = mail.outbox
    assert email.to == ["bob@example.com"] and "You are challenged" in email.body and f"#{match.pk}" in email.body
    challenges.decline(match_id=match.pk, user=bob)
    mail.outbox.clear()
    assert notify.send_due(timezone.now() + timedelta(minutes=2)) == 1
    assert mail.outbox[0].to == ["alice@example.com"] and "Challenge declined" in mail.outbox[0].body


@pytest.mark.parametrize("answer", ["decline", "accept", "call off"])
def test_a_challenge_settled_before_its_email_is_due_is_not_mailed(alice: Any, bob: Any, answer: str) -> None:
    """The report: declined and accepted within seconds, and still mailed a minute later."""
    match = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    challenges.challenge_to_match(match_id=match.pk, user=alice, username="bob")
    if answer == "decline":
        challenges.decline(match_id=match.pk, user=bob)
    elif answer == "accept":
        challenges.accept(match_id=match.pk, user=bob)
    else:
        services.abort(match_id=match.pk, user=alice)
    mail.outbox.clear()
    notify.send_due(timezone.now() + timedelta(minutes=2))
    to_bob = [m.body for m in mail.outbox if m.to == ["bob@example.com"]]
    assert not any("You are challenged" in body for body in to_bob)
    assert Notice.objects.get(user=bob, kind=Notice.Kind.CHALLENGE).handled_at is not None  # dropped, not kept
    if answer == "decline":  # the challenger still learns of the refusal
        assert any("Challenge declined" in m.body for m in mail.outbox if m.to == ["alice@example.com"])


def test_an_unanswered_challenge_is_still_mailed_beside_a_settled_one(alice: Any, bob: Any, carol: Any) -> None:
    answered = challenges.challenge_player(user=alice, username="bob", game="reversi")
    waiting = challenges.challenge_player(user=carol, username="bob", game="dos")
    challenges.decline(match_id=answered.pk, user=bob)
    mail.outbox.clear()
    notify.send_due(timezone.now() + timedelta(minutes=2))
    [email] = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    assert f"#{waiting.pk}" in email.body and f"#{answered.pk}" not in email.body
