"""Login throttling: per account and client address, per client address, on every login form, in the database."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.test import AsyncClient, Client
from django.urls import reverse

from tests.games.test_worker_processes import worker_env

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
ROOT = Path(__file__).resolve().parents[2]
CLIENT_A = "203.0.113.10"
CLIENT_B = "198.51.100.20"


def log_in(client: Client, username: str, password: str, *, ip: str = CLIENT_A, url: str = "") -> Any:
    return client.post(url or reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def fail(client: Client, username: str, times: int, *, ip: str = CLIENT_A, url: str = "") -> list[int]:
    return [log_in(client, username, "wrong password", ip=ip, url=url).status_code for _ in range(times)]


def test_repeated_failed_logins_are_throttled(alice: Any) -> None:
    client = Client()
    assert fail(client, "alice", 4) == [200] * 4
    assert fail(client, "alice", 1) == [429]
    response = log_in(client, "alice", PASSWORD)
    assert response.status_code == 429
    assert "Too many wrong passwords were tried for “alice” from your connection" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_admin_login_is_throttled_like_the_sites(make_user: Any) -> None:
    staff = make_user("stella")
    staff.is_staff = True
    staff.is_superuser = True
    staff.save()
    client = Client()
    admin_login = reverse("admin:login")
    statuses = fail(client, "stella", 50, url=admin_login)
    assert statuses[:4] == [200] * 4
    assert set(statuses[4:]) == {429}
    response = log_in(client, "stella", PASSWORD, url=admin_login)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("admin:index")).status_code == 302  # still sent to the login page


def test_a_lock_from_one_client_does_not_lock_the_player_out_elsewhere(alice: Any) -> None:
    fail(Client(), "alice", 10, ip=CLIENT_A)
    assert log_in(Client(), "alice", PASSWORD, ip=CLIENT_A).status_code == 429
    player = Client()
    response = log_in(player, "alice", PASSWORD, ip=CLIENT_B)
    assert response.status_code == 302
    assert player.session["_auth_user_id"] == str(alice.pk)


def test_spraying_many_usernames_from_one_client_is_stopped(alice: Any, bob: Any) -> None:
    client = Client()
    statuses = [log_in(client, f"player{n}", "password123").status_code for n in range(30)]
    assert statuses[:19] == [200] * 19
    assert set(statuses[19:]) == {429}
    response = log_in(client, "alice", PASSWORD)
    assert response.status_code == 429
    assert "logging in from it is paused for every account" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Another client is not affected.
    assert log_in(Client(), "bob", PASSWORD, ip=CLIENT_B).status_code == 302


def test_a_proxy_header_is_ignored_unless_configured(alice: Any) -> None:
    client = Client()
    for n in range(5):
        client.post(
            reverse("accounts:login"),
            {"username": "alice", "password": "wrong"},
            REMOTE_ADDR=CLIENT_A,
            HTTP_X_FORWARDED_FOR=f"10.0.0.{n}",
        )
    response = client.post(
        reverse("accounts:login"),
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR=CLIENT_A,
        HTTP_X_FORWARDED_FOR="10.9.9.9",
    )
    assert response.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {CLIENT_A}


def test_a_configured_proxy_header_names_the_client(alice: Any, settings: Any) -> None:
    settings.TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.1"
    for _ in range(5):
        # The left entry is whatever the client wrote; the proxy appended the address it saw.
        Client().post(
            reverse("accounts:login"),
            {"username": "alice", "password": "wrong"},
            REMOTE_ADDR=proxy,
            HTTP_X_FORWARDED_FOR=f"6.6.6.6, {CLIENT_A}",
        )
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {CLIENT_A}
    locked = Client().post(
        reverse("accounts:login"),
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR=CLIENT_A,
    )
    assert locked.status_code == 429
    other = Client().post(
        reverse("accounts:login"),
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR=CLIENT_B,
    )
    assert other.status_code == 302


def test_a_good_login_clears_only_that_accounts_failures(alice: Any, bob: Any) -> None:
    client = Client()
    fail(client, "bob", 4)
    for n in range(10):
        log_in(client, f"sprayed{n}", "password123")
    assert log_in(Client(), "bob", PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="bob").exists()
    # The sprayed names still count against the address: 10 so far, 6 more reach the limit of 20.
    assert fail(client, "nobody", 6)[-1] == 429


def test_the_lock_lifts_after_the_cool_off(alice: Any) -> None:
    fail(Client(), "alice", 5)
    assert log_in(Client(), "alice", PASSWORD).status_code == 429
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=15, seconds=1)
    )
    assert log_in(Client(), "alice", PASSWORD).status_code == 302


@pytest.mark.parametrize("debug", [True, False])
def test_the_sign_in_page_says_why_and_when_to_try_again(alice: Any, settings: Any, debug: bool) -> None:
    settings.DEBUG = debug
    fail(Client(), "alice", 5)
    response = log_in(Client(), "alice", PASSWORD)
    assert response.status_code == 429
    html = response.content.decode()
    assert "<title>Logging in is paused · Turnwise</title>" in html
    assert "Too many wrong passwords were tried for “alice” from your connection" in html
    assert "You can try again in 15 minutes (at " in html
    assert "Logging in from other devices and networks still works." in html
    assert reverse("accounts:password_reset") in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lockout_page_is_served_on_the_async_path_too(alice: Any) -> None:
    client = AsyncClient()
    data = {"username": "alice", "password": "wrong"}
    for _ in range(5):
        await client.post(reverse("accounts:login"), data, REMOTE_ADDR=CLIENT_A)
    response = await client.post(
        reverse("accounts:login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR=CLIENT_A
    )
    assert response.status_code == 429
    assert "Too many wrong passwords were tried for “alice”" in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_lock_lives_in_the_database_and_holds_in_a_fresh_process(alice: Any) -> None:
    fail(Client(), "alice", 5)
    assert AccessAttempt.objects.get(username="alice", ip_address=CLIENT_A).failures_since_start == 5
    script = (
        "from django.contrib.auth import authenticate\n"
        "from django.test import RequestFactory\n"
        f"for ip in ({CLIENT_A!r}, {CLIENT_B!r}):\n"
        "    request = RequestFactory().post('/accounts/login/', REMOTE_ADDR=ip)\n"
        f"    user = authenticate(request, username='alice', password={PASSWORD!r})\n"
        "    print(ip, 'refused' if user is None else 'allowed')\n"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=worker_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"{CLIENT_A} refused" in done.stdout
    assert f"{CLIENT_B} allowed" in done.stdout


def change_password(client: Client, old: str, *, url: str = "") -> Any:
    new = "a brand new passphrase"
    data = {"old_password": old, "new_password1": new, "new_password2": new}
    return client.post(url or reverse("accounts:password_change"), data, REMOTE_ADDR=CLIENT_A)


@pytest.mark.parametrize("url", ["/accounts/password/change/", "/admin/password_change/"])
def test_the_password_change_form_is_throttled_like_the_login(make_user: Any, url: str) -> None:
    """A stolen session cannot guess the old password: wrong tries count toward the login throttle,
    and once locked even the right one is refused and changes nothing."""
    user = make_user("stella")
    user.is_staff = True  # the admin's own "change my password" page too
    user.save()
    client = Client()
    client.force_login(user)
    statuses = [change_password(client, "guess", url=url).status_code for _ in range(30)]
    assert statuses[:4] == [200] * 4
    assert set(statuses[4:]) == {429}
    refused = change_password(client, PASSWORD, url=url)
    assert refused.status_code == 429
    assert "Too many wrong passwords were tried for “stella” from your connection" in refused.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_the_right_old_password_changes_it_when_not_locked(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    assert change_password(client, "guess").status_code == 200
    response = change_password(client, PASSWORD)
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("a brand new passphrase")
