"""Changing the email address takes the current password and a link sent to the new address."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.core import mail, signing
from django.test import Client
from django.urls import reverse

from accounts import email_change
from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def ask(client: Client, new_email: str, password: str = PASSWORD) -> Any:
    return client.post(reverse("accounts:email_change"), {"new_email": new_email, "password": password})


def link_in(message: Any) -> str:
    return re.search(r"http://[^/\s]+(/accounts/settings/email/confirm/\S+/)", message.body).group(1)


def test_a_wrong_password_is_refused_and_nothing_is_sent(alice: Any) -> None:
    response = ask(logged_in(alice), "new@example.org", password="not my password")
    assert response.status_code == 200
    assert "That is not your current password." in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert mail.outbox == []


def test_the_address_is_unchanged_until_the_link_is_opened(alice: Any) -> None:
    client = logged_in(alice)
    response = ask(client, "new@example.org")
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    confirm, notice = mail.outbox
    assert confirm.to == ["new@example.org"]
    assert notice.to == ["alice@example.com"]
    assert "n***@example.org" in notice.body
    assert "new@example.org" not in notice.body
    assert reverse("accounts:password_change") in notice.body
    # Opening the link (a GET, as a mail scanner would) changes nothing yet.
    page = client.get(link_in(confirm))
    assert page.status_code == 200
    assert "Use new@example.org for your Turnwise emails" in page.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_the_confirmation_link_sets_the_new_address_once(alice: Any) -> None:
    client = logged_in(alice)
    ask(client, "new@example.org")
    link = link_in(mail.outbox[0])
    assert client.post(link).status_code == 302
    alice.refresh_from_db()
    assert alice.email == "new@example.org"
    again = client.post(link)
    assert again.status_code == 400
    assert "already been used" in again.content.decode()


def test_an_expired_link_is_refused(alice: Any, settings: Any, monkeypatch: Any) -> None:
    sent_at = int(time.time()) - settings.EMAIL_CHANGE_LINK_HOURS * 3600 - 5
    with monkeypatch.context() as patch:
        patch.setattr(signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(sent_at))
        token = email_change.make_token(user=alice, new_email="new@example.org")
    response = logged_in(alice).post(reverse("accounts:email_confirm", args=[token]))
    assert response.status_code == 400
    assert "This link has expired." in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_a_link_within_its_time_works(alice: Any, settings: Any, monkeypatch: Any) -> None:
    sent_at = int(time.time()) - settings.EMAIL_CHANGE_LINK_HOURS * 3600 + 60
    with monkeypatch.context() as patch:
        patch.setattr(signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(sent_at))
        token = email_change.make_token(user=alice, new_email="new@example.org")
    assert logged_in(alice).post(reverse("accounts:email_confirm", args=[token])).status_code == 302
    alice.refresh_from_db()
    assert alice.email == "new@example.org"


@pytest.mark.parametrize(
    "token",
    [
        "forged",
        signing.dumps({"user": 1, "old": "alice@example.com", "new": "evil@example.org"}, salt="another.salt"),
    ],
)
def test_a_forged_link_is_refused(alice: Any, token: str) -> None:
    response = logged_in(alice).post(reverse("accounts:email_confirm", args=[token]))
    assert response.status_code == 400
    assert "This link is not valid." in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_a_tampered_link_is_refused(alice: Any) -> None:
    client = logged_in(alice)
    ask(client, "new@example.org")
    token = link_in(mail.outbox[0]).rstrip("/").rsplit("/", 1)[1]
    value, _, signature = token.rpartition(":")
    response = client.post(reverse("accounts:email_confirm", args=[f"{value}x:{signature}"]))
    assert response.status_code == 400
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_a_link_for_another_player_is_refused(alice: Any, bob: Any) -> None:
    ask(logged_in(alice), "new@example.org")
    link = link_in(mail.outbox[0])
    response = logged_in(bob).post(link)
    assert response.status_code == 400
    assert "This link was sent for another account." in response.content.decode()
    assert User.objects.get(pk=alice.pk).email == "alice@example.com"
    assert User.objects.get(pk=bob.pk).email == "bob@example.com"


def test_the_link_needs_the_player_logged_in(alice: Any) -> None:
    ask(logged_in(alice), "new@example.org")
    response = Client().post(link_in(mail.outbox[0]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    assert User.objects.get(pk=alice.pk).email == "alice@example.com"


def test_a_player_without_an_address_gets_only_the_confirmation(make_user: Any) -> None:
    dora = make_user("dora")
    User.objects.filter(pk=dora.pk).update(email="")
    dora.refresh_from_db()
    client = logged_in(dora)
    ask(client, "dora@example.org")
    assert [m.to for m in mail.outbox] == [["dora@example.org"]]
    client.post(link_in(mail.outbox[0]))
    assert User.objects.get(pk=dora.pk).email == "dora@example.org"


def test_the_settings_page_does_not_change_the_address_directly(alice: Any) -> None:
    client = logged_in(alice)
    client.post(reverse("accounts:settings"), {"form": "email", "email": "evil@example.org", "email_turns": "never"})
    alice.refresh_from_db()
    assert (alice.email, alice.email_turns) == ("alice@example.com", "never")
    assert reverse("accounts:email_change") in client.get(reverse("accounts:settings")).content.decode()


def test_wrong_passwords_here_count_toward_the_login_throttle(alice: Any) -> None:
    client = logged_in(alice)
    statuses = [ask(client, "new@example.org", password="guess").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    refused = ask(client, "new@example.org")
    assert refused.status_code == 429
    assert "Too many wrong passwords were tried for “alice” from your connection" in refused.content.decode()
    assert mail.outbox == []


def test_a_token_names_the_player_and_both_addresses(alice: Any) -> None:
    token = email_change.make_token(user=alice, new_email="new@example.org")
    change = email_change.pending_change(user=alice, token=token)
    assert (change.user_id, change.old, change.new) == (alice.pk, "alice@example.com", "new@example.org")


def test_a_link_never_works_again_once_a_later_change_is_made(alice: Any) -> None:
    """Link 1 (to B), then link 2 (back to A): link 1 names the old address again, but is dead."""
    client = logged_in(alice)
    ask(client, "b@example.org")
    link_1 = link_in(mail.outbox[0])
    client.post(link_1)
    assert User.objects.get(pk=alice.pk).email == "b@example.org"
    mail.outbox.clear()
    ask(client, "alice@example.com")
    client.post(link_in(mail.outbox[0]))
    assert User.objects.get(pk=alice.pk).email == "alice@example.com"
    refused = client.post(link_1)
    assert refused.status_code == 400
    assert "This link has already been used" in refused.content.decode()
    assert User.objects.get(pk=alice.pk).email == "alice@example.com"


def test_a_confirmed_change_verifies_the_new_address(alice: Any) -> None:
    User.objects.filter(pk=alice.pk).update(email_verified=False)
    client = logged_in(alice)
    ask(client, "new@example.org")
    # The unproven old address is not written to: it may not be the player's.
    assert [m.to for m in mail.outbox] == [["new@example.org"]]
    client.post(link_in(mail.outbox[0]))
    alice.refresh_from_db()
    assert (alice.email, alice.email_verified) == ("new@example.org", True)


def test_confirmation_links_are_sent_a_few_times_an_hour(alice: Any) -> None:
    """Each request mails an address nobody has proven yet: counted with the verification links."""
    client = logged_in(alice)
    statuses = [ask(client, f"new{n}@example.org").status_code for n in range(4)]
    assert statuses == [302, 302, 302, 429]
    assert len([m for m in mail.outbox if m.to != ["alice@example.com"]]) == 3
    refused = ask(client, "new9@example.org")
    assert "You asked for several links in the last hour." in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
