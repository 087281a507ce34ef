"""Accounts: sign up, log in and out, change and reset a password, a profile with a record per game."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import services

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def test_signing_up_logs_the_new_player_in(django_user_model: Any) -> None:
    client = Client()
    response = client.post(
        reverse("accounts:signup"),
        {"username": "dora", "email": "", "password1": "a long secret 42", "password2": "a long secret 42"},
    )
    assert response.status_code == 302
    assert django_user_model.objects.filter(username="dora").exists()
    assert client.get(reverse("games:home")).context["user"].username == "dora"


def test_sign_up_explains_mismatched_passwords(django_user_model: Any) -> None:
    response = Client().post(
        reverse("accounts:signup"), {"username": "dora", "password1": "a long secret 42", "password2": "other"}
    )
    assert response.status_code == 200
    assert "password fields didn" in response.content.decode()
    assert not django_user_model.objects.filter(username="dora").exists()


def test_log_in_and_out(alice: Any) -> None:
    client = Client()
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    client.post(reverse("accounts:logout"))
    assert "_auth_user_id" not in client.session


def test_change_password(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": "another long one 7", "new_password2": "another long one 7"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another long one 7")


def test_reset_password_by_email(alice: Any) -> None:
    client = Client()
    client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200
    response = client.post(
        form.redirect_chain[-1][0], {"new_password1": "brand new secret 9", "new_password2": "brand new secret 9"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("brand new secret 9")


def test_profile_shows_the_record_per_game(alice: Any, bob: Any) -> None:
    for loser in (bob, alice, bob):
        match = services.create_match(user=alice, game="reversi", players=2)
        services.join_match(match_id=match.pk, user=bob)
        services.resign(match_id=match.pk, user=loser)
    client = Client()
    client.force_login(bob)
    response = client.get(reverse("accounts:profile", args=["alice"]))
    row = next(r for r in response.context["record"] if r["game"].slug == "reversi")
    assert (row["played"], row["won"], row["lost"], row["drawn"]) == (3, 2, 1, 0)
