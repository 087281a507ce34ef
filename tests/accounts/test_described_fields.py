"""Every aria-describedby on a form page names an element that is there.

Django points a field's ``aria-describedby`` at ``<id>_helptext`` when the field has help text, and at
``<id>_error`` too when it has errors; a template that draws the help or the errors itself must give
them those ids, or a screen reader announces nothing (axe does not check it: a missing id is silently
ignored by browsers).
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse


class Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.twice: set[str] = set()
        self.described: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            (self.twice if found["id"] in self.ids else self.ids).add(found["id"] or "")
        for target in (found.get("aria-describedby") or "").split():
            self.described.append((found.get("name") or tag, target))


def missing(html: str) -> list[str]:
    parsed = Ids()
    parsed.feed(html)
    absent = [f"{name} -> #{target}" for name, target in parsed.described if target not in parsed.ids]
    return absent + [f"#{twice} twice" for twice in sorted(parsed.twice)]


ANONYMOUS = ["accounts:signup", "accounts:login", "accounts:password_reset"]
SIGNED_IN = ["games:new", "games:play", "accounts:password_change", "accounts:settings"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", ANONYMOUS)
def test_anonymous_forms_describe_with_ids_that_exist(client: Client, name: str) -> None:
    url = reverse(name)
    assert missing(client.get(url).content.decode()) == []
    # Sent empty: every field has an error now, which Django adds to aria-describedby as well.
    response = client.post(url, {})
    assert response.status_code == 200
    assert missing(response.content.decode()) == []


@pytest.mark.django_db
@pytest.mark.parametrize("name", SIGNED_IN)
def test_signed_in_forms_describe_with_ids_that_exist(client: Client, alice: Any, name: str) -> None:
    client.force_login(alice)
    url = reverse(name)
    assert missing(client.get(url).content.decode()) == []


@pytest.mark.django_db
def test_a_refused_password_change_describes_its_errors(client: Client, alice: Any) -> None:
    client.force_login(alice)
    response = client.post(reverse("accounts:password_change"), {"old_password": "wrong"})
    assert response.status_code == 200
    assert missing(response.content.decode()) == []


@pytest.mark.django_db
def test_the_challenge_form_describes_with_ids_that_exist(client: Client, alice: Any, bob: Any) -> None:
    client.force_login(alice)
    url = reverse("games:challenge-player", args=[bob.username])
    assert missing(client.get(url).content.decode()) == []
    refused = client.post(url, {"game": "no-such-game", "pace": "nonsense", "rated": "on"})
    assert refused.status_code == 200 and 'aria-invalid="true"' in refused.content.decode()
    assert missing(refused.content.decode()) == []


@pytest.mark.django_db
def test_a_refused_new_match_describes_its_errors(client: Client, alice: Any) -> None:
    client.force_login(alice)
    refused = client.post(reverse("games:new"), {"game": "reversi", "pace": "nonsense", "players": "9"})
    assert refused.status_code == 200 and 'aria-invalid="true"' in refused.content.decode()
    assert missing(refused.content.decode()) == []
