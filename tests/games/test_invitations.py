"""An invitation survives signing up or logging in: the person comes back seated, with no other step."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Match
from tests.support import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "a long secret 42"


def sign_up(client: Client, username: str, next_url: str) -> Any:
    return client.post(
        reverse("accounts:signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD, "next": next_url},
    )


@pytest.fixture
def invited(alice: Any) -> Match:
    return services.create_match(user=alice, game="tacocat", players=2, is_public=False)


def invite_path(match: Match) -> str:
    return reverse("games:invite", args=[match.invite_token])


def test_the_invitation_says_who_invites_to_what_and_offers_sign_up_and_log_in(invited: Match) -> None:
    sessions = Session.objects.count()
    response = Client().get(invite_path(invited))
    assert response.status_code == 200
    html = response.content.decode()
    assert "alice invites you to a match of Tacocat Spelled Backwards" in html
    assert 'href="/rules/tacocat/"' in html
    path = invite_path(invited)
    assert f'href="/accounts/signup/?next={path}"' in html
    assert f'href="/accounts/login/?next={path}"' in html
    # The link's holder is offered a seat, never the match: no board, no hand, no seed, no match page.
    assert 'id="match-body"' not in html and str(invited.seed) not in html and invited.shuffle_salt not in html
    assert f'href="/m/{invited.pk}/"' not in html
    # A capability: kept by no cache, indexed by no search engine; and a visit stores no session.
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert response["X-Robots-Tag"] == "noindex"
    assert Session.objects.count() == sessions


def test_signing_up_from_an_invitation_seats_the_new_player(invited: Match, django_user_model: Any) -> None:
    client = Client()
    form = client.get(reverse("accounts:signup"), {"next": invite_path(invited)})
    assert "alice invites you to a match of Tacocat Spelled Backwards" in form.content.decode()
    response = sign_up(client, "dora", invite_path(invited))
    assert response.status_code == 302 and response["Location"] == invited.get_absolute_url()
    dora = django_user_model.objects.get(username="dora")
    invited.refresh_from_db()
    assert invited.status == Match.Status.ACTIVE and invited.seats.filter(user=dora).exists()
    assert "You joined the match." in client.get(response["Location"]).content.decode()


def test_logging_in_from_an_invitation_seats_the_player(invited: Match, bob: Any) -> None:
    client = Client()
    url = f"{reverse('accounts:login')}?next={invite_path(invited)}"
    page = client.get(url).content.decode()
    assert "alice invites you to a match of Tacocat Spelled Backwards" in page
    # "Create an account" keeps the invitation.
    assert f'href="/accounts/signup/?next={invite_path(invited)}"' in page
    response = client.post(url, {"username": "bob", "password": "correct horse battery"})
    assert response.status_code == 302 and response["Location"] == invited.get_absolute_url()
    assert invited.seats.filter(user=bob).exists()


def test_a_player_already_seated_who_logs_in_from_the_invitation_goes_to_the_match(invited: Match, alice: Any) -> None:
    client = Client()
    url = f"{reverse('accounts:login')}?next={invite_path(invited)}"
    response = client.post(url, {"username": "alice", "password": "correct horse battery"})
    assert response.status_code == 302 and response["Location"] == invited.get_absolute_url()
    assert invited.seats.filter(user=alice).count() == 1


def test_a_full_match_says_why_and_seats_nobody(invited: Match, bob: Any, django_user_model: Any) -> None:
    services.join_match(match_id=invited.pk, user=bob, token=invited.invite_token)
    client = Client()
    response = sign_up(client, "dora", invite_path(invited))
    assert response.status_code == 302 and response["Location"] == invite_path(invited)
    page = client.get(response["Location"]).content.decode()
    assert "This match is no longer open to join." in page and "already started or ended" in page
    assert not invited.seats.filter(user__username="dora").exists()


@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/", "/\\evil.example/"])
def test_sign_up_and_log_in_never_send_anyone_off_the_site(next_url: str, bob: Any) -> None:
    response = sign_up(Client(), "dora", next_url)
    assert response.status_code == 302 and response["Location"] == reverse("games:home")
    login = Client().post(
        f"{reverse('accounts:login')}?next={next_url}", {"username": "bob", "password": "correct horse battery"}
    )
    assert login.status_code == 302 and login["Location"] == reverse("games:home")
    page = Client().get(reverse("accounts:signup"), {"next": next_url}).content.decode()
    # The form carries no ``next`` and "Log in" none either (the language switcher names the page itself).
    form = page[page.index('class="stack form-narrow"') : page.index("</form>", page.index("form-narrow"))]
    assert 'name="next"' not in form and "evil" not in form
    assert 'Already have an account? <a href="/accounts/login/">' in page


def test_a_next_that_is_a_word_not_a_path_is_followed_as_a_relative_address(db: None) -> None:
    """The fuzzer's find: redirect() would have read "a b" as the name of a view (a server error)."""
    response = sign_up(Client(), "dora", "a b")
    assert response.status_code == 302 and response["Location"] == "a%20b"


def test_sign_up_comes_back_to_any_page_of_the_site(alice: Any) -> None:
    """A challenge link in an email, a spectator link: log in or sign up, and come back to it."""
    private = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    response = sign_up(Client(), "dora", private.get_absolute_url())
    assert response.status_code == 302 and response["Location"] == private.get_absolute_url()


def test_the_log_in_page_says_nothing_of_a_match_it_is_sent_back_to(alice: Any) -> None:
    """Only the invitation's token is a capability: a match number in ``next`` reveals nothing."""
    private = services.create_match(user=alice, game="reversi", players=2, is_public=False)
    page = Client().get(reverse("accounts:login"), {"next": private.get_absolute_url()}).content.decode()
    assert "invites you" not in page and "alice" not in page and "Reversi" not in page


def test_signed_in_the_invitation_still_offers_its_seat(invited: Match, carol: Any) -> None:
    response = client_for(carol).get(invite_path(invited))
    assert response.status_code == 200
    assert "Take a seat" in response.content.decode()


def test_a_challenge_link_in_an_email_logs_in_and_comes_back_to_the_answer(alice: Any, bob: Any) -> None:
    from games.services import challenges

    match = challenges.challenge_player(user=alice, username="bob", game="reversi")
    client = Client()
    to_log_in = client.get(match.get_absolute_url())  # the link in bob's email, opened logged out
    assert to_log_in.status_code == 302
    response = client.post(to_log_in["Location"], {"username": "bob", "password": "correct horse battery"})
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    page = client.get(response["Location"]).content.decode()
    assert "alice challenges you to this match." in page and "Accept" in page
    assert not match.seats.filter(user=bob).exists()  # answering is bob's choice, not the log-in's


def test_signing_up_for_a_match_that_started_meanwhile_says_nothing_of_a_seat(invited: Match, bob: Any) -> None:
    services.join_match(match_id=invited.pk, user=bob, token=invited.invite_token)
    page = Client().get(reverse("accounts:signup"), {"next": invite_path(invited)}).content.decode()
    assert "invites you" not in page and "take your seat" not in page
