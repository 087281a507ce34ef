"""An address gets nothing but its verification link until its owner opens that link; password
resets go only to a verified address and are rate-limited per address and per client."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import verification
from accounts.models import User
from games.background import notify
from games.models import Match, Notice
from tests.games.test_notify import move
from tests.support import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def verify_link(message: Any) -> str:
    return re.search(r"http://[^/\s]+(/accounts/email/verify/\S+/)", message.body).group(1)


def sign_up(client: Client, username: str, email: str) -> Any:
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("accounts:signup"), data)


def test_sign_up_logs_in_at_once_and_sends_only_the_verification_link() -> None:
    client = Client()
    response = sign_up(client, "erin", "erin@example.org")
    assert response.status_code == 302
    assert client.session["_auth_user_id"]
    erin = User.objects.get(username="erin")
    assert not erin.email_verified
    assert [m.to for m in mail.outbox] == [["erin@example.org"]]
    assert verify_link(mail.outbox[0])


def test_the_link_verifies_the_address_once() -> None:
    sign_up(Client(), "erin", "erin@example.org")
    link = verify_link(mail.outbox[0])
    stranger = Client()  # the link is the proof: no log-in needed, e.g. opened on a phone
    page = stranger.get(link)
    assert page.status_code == 200 and "erin@example.org" in page.content.decode()
    assert not User.objects.get(username="erin").email_verified  # a mail scanner's GET changes nothing
    assert stranger.post(link).status_code == 302
    assert User.objects.get(username="erin").email_verified
    again = stranger.post(link)
    assert again.status_code == 400
    assert "This link has already been used" in again.content.decode()


def test_a_link_for_an_earlier_address_is_refused(make_user: Any) -> None:
    dora = make_user("dora")
    User.objects.filter(pk=dora.pk).update(email_verified=False)
    dora.refresh_from_db()
    link = reverse("accounts:email_verify", args=[verification.make_token(dora)])
    # The address changes (and back): the count moved on, the old link is dead.
    User.objects.filter(pk=dora.pk).update(email="other@example.org", email_generation=dora.email_generation + 1)
    User.objects.filter(pk=dora.pk).update(email="dora@example.com", email_generation=dora.email_generation + 2)
    assert Client().post(link).status_code == 400
    assert not User.objects.get(pk=dora.pk).email_verified


def test_a_forged_link_is_refused(alice: Any) -> None:
    response = Client().post(reverse("accounts:email_verify", args=["not-a-token"]))
    assert response.status_code == 400
    assert "This link is not valid" in response.content.decode()


def test_turn_notices_are_not_emailed_to_an_unverified_address(reversi_match: Match, alice: Any, bob: Any) -> None:
    User.objects.filter(pk=bob.pk).update(email_verified=False)
    mail.outbox.clear()
    Notice.objects.all().delete()
    move(reversi_match, alice)
    assert notify.send_due(timezone.now() + timedelta(minutes=2)) == 0
    # Only the link that proves the address, with why the notices stopped: no word of the match.
    [reminder] = mail.outbox
    assert reminder.to == ["bob@example.com"] and verify_link(reminder)
    assert "not confirmed yet" in reminder.body and f"/m/{reversi_match.pk}/" not in reminder.body
    Client().post(verify_link(reminder))
    assert User.objects.get(pk=bob.pk).email_verified


def test_an_unverified_address_is_reminded_at_most_once_a_month(reversi_match: Match, alice: Any, bob: Any) -> None:
    User.objects.filter(pk=bob.pk).update(email_verified=False)
    mail.outbox.clear()
    Notice.objects.all().delete()
    now = timezone.now()
    for days in (0, 10, 29, 31):  # a turn for bob on each of these days
        move(reversi_match, alice)
        notify.send_due(now + timedelta(days=days, minutes=2))
        move(reversi_match, bob)
    assert sum(m.to == ["bob@example.com"] for m in mail.outbox) == 2  # days 0 and 31


def test_no_reminder_within_a_month_of_the_sign_up_link(reversi_match: Match, alice: Any) -> None:
    sign_up(Client(), "erin", "erin@example.org")
    erin = User.objects.get(username="erin")
    assert verification.remind(erin) is False  # the sign-up link counts as this month's
    assert len(mail.outbox) == 1


def test_the_settings_page_sends_the_link_again_a_few_times_an_hour(alice: Any) -> None:
    User.objects.filter(pk=alice.pk).update(email_verified=False)
    client = client_for(alice)
    assert "Your address is not confirmed yet" in client.get(reverse("accounts:settings")).content.decode()
    statuses = [client.post(reverse("accounts:settings"), {"form": "verify"}).status_code for _ in range(4)]
    assert statuses == [302, 302, 302, 429]
    assert [m.to for m in mail.outbox] == [["alice@example.com"]] * 3
    refused = client.post(reverse("accounts:settings"), {"form": "verify"})
    assert "You asked for several links in the last hour." in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    Client().post(verify_link(mail.outbox[-1]))
    assert User.objects.get(pk=alice.pk).email_verified
    assert "Your address is not confirmed yet" not in client.get(reverse("accounts:settings")).content.decode()


def ask_reset(client: Client, email: str, ip: str = "203.0.113.7") -> Any:
    return client.post(reverse("accounts:password_reset"), {"email": email}, REMOTE_ADDR=ip)


def test_reset_mail_goes_only_to_a_verified_address(make_user: Any) -> None:
    owner, squatter = make_user("owner"), make_user("squatter")
    User.objects.filter(pk=owner.pk).update(email="shared@example.org")
    User.objects.filter(pk=squatter.pk).update(email="shared@example.org", email_verified=False)
    assert ask_reset(Client(), "shared@example.org").status_code == 302
    assert len(mail.outbox) == 1
    assert "owner" in mail.outbox[0].body and "squatter" not in mail.outbox[0].body
    mail.outbox.clear()
    User.objects.filter(pk=owner.pk).update(email_verified=False)
    # The same answer either way: nothing tells whether an account has the address.
    assert ask_reset(Client(), "shared@example.org").status_code == 302
    assert mail.outbox == []


def test_reset_requests_are_rate_limited_per_address(alice: Any) -> None:
    client = Client()
    statuses = [ask_reset(client, "alice@example.com").status_code for _ in range(30)]
    assert statuses[:3] == [302] * 3 and set(statuses[3:]) == {429}
    assert len(mail.outbox) == 3
    refused = ask_reset(client, "ALICE@example.com")  # the same address, however written
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Several password resets were asked for this address" in refused.content.decode()
    assert ask_reset(client, "alice@example.com", ip="198.51.100.9").status_code == 429  # from anywhere


def test_reset_requests_are_rate_limited_per_client() -> None:
    client = Client()
    statuses = [ask_reset(client, f"nobody{n}@example.org").status_code for n in range(12)]
    assert statuses == [302] * 10 + [429] * 2
    assert ask_reset(client, "nobody@example.org", ip="198.51.100.9").status_code == 302
