"""Look-alike usernames: a name confusable with an existing one, or mixing scripts, is refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts import usernames
from accounts.forms import check_username_look
from accounts.models import User

pytestmark = pytest.mark.django_db

SECRET = "a long secret 42"


def sign_up(username: str) -> Any:
    return Client().post(
        reverse("accounts:signup"), {"username": username, "email": "", "password1": SECRET, "password2": SECRET}
    )


@pytest.mark.parametrize(
    ("name", "existing"),
    [
        ("\u0430lice", "alice"),  # Cyrillic a
        ("\u0430\u04c0\u0456\u0441\u0435", "alice"),  # all Cyrillic, a whole-script look-alike
        ("ALICE", "alice"),
        ("a1ice", "alice"),
        ("aIice", "alice"),  # capital I for the small l
        ("\uff41\uff4c\uff49\uff43\uff45", "alice"),  # fullwidth
        ("b0b", "bob"),
        ("rnary", "mary"),
    ],
)
def test_names_that_look_alike_share_a_skeleton(name: str, existing: str) -> None:
    assert usernames.skeleton(name) == usernames.skeleton(existing) or (
        usernames.glyph_skeleton(name) == usernames.glyph_skeleton(existing)
    )


@pytest.mark.parametrize(("name", "other"), [("alice", "alicia"), ("ali", "all"), ("राम", "रमा"), ("সুমন", "সুমি")])
def test_different_names_have_different_skeletons(name: str, other: str) -> None:
    assert usernames.skeleton(name) != usernames.skeleton(other)
    assert usernames.glyph_skeleton(name) != usernames.glyph_skeleton(other)


@pytest.mark.parametrize("name", ["\u0430lice", "aIice", "a1ice", "\u0430\u04c0\u0456\u0441\u0435"])
def test_sign_up_refuses_a_look_alike_of_an_existing_name(alice: Any, name: str) -> None:
    response = sign_up(name)
    assert response.status_code == 200
    assert "looks too much like the existing player “alice”" in response.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


def test_sign_up_refuses_a_name_equal_but_for_case(alice: Any) -> None:
    response = sign_up("ALICE")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


@pytest.mark.parametrize("name", ["alic\u0435", "\u0440aul", "रामa", "abc১২"])
def test_sign_up_refuses_a_name_that_mixes_scripts(name: str) -> None:
    response = sign_up(name)
    assert response.status_code == 200
    assert "letters of one writing system only" in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["राम", "सीता_42", "जोशी", "সুমন", "জ্যোতি", "Priya"])
def test_names_in_one_script_are_welcome(name: str) -> None:
    response = sign_up(name)
    assert response.status_code == 302
    assert User.objects.filter(username=name).exists()


def test_the_look_alike_check_is_one_query(alice: Any, django_assert_num_queries: Any) -> None:
    usernames.skeleton("warm the table up")
    with django_assert_num_queries(1):
        check_username_look("dora")


def test_the_database_refuses_a_look_alike_that_slips_past_the_form(alice: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="\u0430\u04c0\u0456\u0441\u0435", password=SECRET)


def test_a_look_alike_stored_during_the_sign_up_gets_a_clear_answer(alice: Any, monkeypatch: Any) -> None:
    """Two sign-ups race: both pass the form's check, the database keeps one, the other is told."""
    monkeypatch.setattr("accounts.forms.check_username_look", lambda *a, **k: None)
    response = sign_up("\u0430\u04c0\u0456\u0441\u0435")
    assert response.status_code == 200
    assert "That name was just taken by someone else" in response.content.decode()
    assert User.objects.count() == 1


def test_staff_cannot_rename_a_player_to_a_look_alike(alice: Any, bob: Any, make_user: Any) -> None:
    admin = make_user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client = Client()
    client.force_login(admin)
    url = reverse("admin:accounts_user_change", args=[bob.pk])
    form = client.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "password"}
    data.update(
        {
            "username": "\u0430lice",
            "date_joined_0": bob.date_joined.strftime("%Y-%m-%d"),
            "date_joined_1": bob.date_joined.strftime("%H:%M:%S"),
            "email_turns": bob.email_turns,
        }
    )
    data.pop("date_joined", None)
    data.pop("groups", None)
    data.pop("user_permissions", None)
    data.pop("last_login", None)
    response = client.post(url, data)
    assert response.status_code == 200
    assert "looks too much like the existing player “alice”" in response.content.decode()
    bob.refresh_from_db()
    assert bob.username == "bob"
    data["username"] = "robert"
    assert client.post(url, data).status_code == 302
    bob.refresh_from_db()
    assert (bob.username, bob.username_skeleton) == ("robert", "robert")


def test_existing_look_alikes_are_kept_and_only_the_first_holds_the_skeleton(alice: Any, bob: Any) -> None:
    from importlib import import_module

    fill = import_module("accounts.migrations.0002_user_username_skeletons").fill_skeletons
    # As if "Alice" had signed up before the check existed.
    User.objects.filter(pk=bob.pk).update(username="Alice")
    User.objects.update(username_skeleton=None, username_glyph_skeleton=None)
    fill(apps, None)
    assert User.objects.get(pk=alice.pk).username_skeleton == "alice"
    legacy = User.objects.get(pk=bob.pk)
    assert legacy.username_skeleton is None
    legacy.email_turns = User.EmailTurns.NEVER
    legacy.save()  # other saves of the legacy name still work
    assert sign_up("ALICE").status_code == 200


@pytest.mark.parametrize("name", ["\u093eराम", "ra m", "ali\u200dce", "a\u20ddb"])
def test_marks_only_follow_a_character_and_invisible_or_odd_characters_are_refused(name: str) -> None:
    response = sign_up(name)
    assert response.status_code == 200
    assert "Enter a valid username." in response.content.decode()
    assert not User.objects.exists()
