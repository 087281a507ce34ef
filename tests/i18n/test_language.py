"""Choosing a language and being written to in it: Accept-Language on a first visit, the switcher
(cookie, and the account for a signed-in player), emails and pushes in the account's language, the
reader's digits, rules pages per language, the JavaScript catalogue.

The site's real catalogues come from the translators; these tests put a small sample catalogue of
their own first on LOCALE_PATHS, so they check the plumbing whatever the translations say.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.core import mail
from django.template import engines
from django.test import Client, override_settings
from django.utils import timezone, translation

from accounts import email_change, push
from accounts.models import PushSubscription, User
from games import services
from games.background import notify
from games.models import Match, Notice
from games.support.i18n import LocalNumber, digits
from tools.compile_catalogues import compile_all

pytestmark = pytest.mark.django_db

SAMPLE = {
    "Confirm your new Turnwise email address": "NE confirm your new address",
    "Reset your Turnwise password": "NE reset your password",
    "Your turn": "NE your turn",
    "Your turn on Turnwise (%(n)s)": "NE your turn on Turnwise (%(n)s)",
    "Log in": "NE log in",
    "Your turn.": "NE your turn.",
}
SAMPLE_JS = {"Link copied.": "NE link copied."}


@pytest.fixture
def sample_catalogue(tmp_path: Path) -> Iterator[Path]:
    """A Nepali catalogue with a few messages, ahead of the site's own."""
    folder = tmp_path / "locale" / "ne" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    for domain, messages in (("django", SAMPLE), ("djangojs", SAMPLE_JS)):
        po = polib.POFile()
        po.metadata = {
            "Language": "ne",
            "Plural-Forms": "nplurals=2; plural=(n != 1);",
            "Content-Type": "text/plain; charset=UTF-8",
        }
        for msgid, msgstr in messages.items():
            po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
        po.save(str(folder / f"{domain}.po"))
    compile_all(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path / "locale", *settings.LOCALE_PATHS]):
        yield tmp_path


def page_language(response: Any) -> str:
    found = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert found, "no <html lang>"
    return found.group(1)


# --- choosing ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "as", "ne"])
def test_a_first_visit_is_in_the_browsers_language(language: str) -> None:
    response = Client().get("/rules/reversi/", HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")
    assert page_language(response) == language
    assert response["Content-Language"] == language


def test_a_language_the_site_lacks_falls_back_to_english() -> None:
    assert page_language(Client().get("/rules/reversi/", HTTP_ACCEPT_LANGUAGE="fr")) == "en"


def test_every_page_has_a_labelled_switcher_that_works_without_javascript(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    for url in ("/", "/rules/dos/", "/accounts/settings/", "/history/"):
        html = client.get(url).content.decode()
        form = re.search(r'<form method="post" action="/language/" class="language-form">(.*?)</form>', html, re.S)
        assert form, url
        body = form.group(1)
        assert '<label for="language-choice">' in body and '<select id="language-choice" name="language">' in body
        assert 'name="csrfmiddlewaretoken"' in body and '<button type="submit"' in body
        assert f'name="next" value="{url}"' in body
        for code, name in (("en", "English"), ("as", "অসমীয়া"), ("ne", "नेपाली")):
            assert f'<option value="{code}" lang="{code}"' in body and f">{name}</option>" in body


def test_choosing_a_language_sets_the_cookie_and_goes_back() -> None:
    client = Client()
    response = client.post("/language/", {"language": "as", "next": "/rules/dos/"})
    assert response.status_code == 302 and response["Location"] == "/rules/dos/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "as"
    # The choice beats the browser's Accept-Language from now on.
    assert page_language(client.get("/rules/dos/", HTTP_ACCEPT_LANGUAGE="ne")) == "as"


def test_an_unknown_language_or_a_foreign_address_changes_nothing(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    response = client.post("/language/", {"language": "xx", "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    alice.refresh_from_db()
    assert alice.language == ""
    assert client.get("/language/").status_code == 405


def test_a_signed_in_players_choice_is_kept_on_the_account_and_follows_them(alice: User) -> None:
    client = Client()
    client.force_login(alice)
    client.post("/language/", {"language": "ne", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "ne"
    elsewhere = Client(HTTP_ACCEPT_LANGUAGE="en")
    elsewhere.force_login(alice)
    assert page_language(elsewhere.get("/")) == "ne"


def test_signing_in_stores_the_language_of_an_account_that_never_chose(alice: User, bob: User) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="as")
    response = client.post("/accounts/login/", {"username": "alice", "password": "correct horse battery"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.language == "as"
    # An account that chose keeps its choice, whatever the browser says.
    User.objects.filter(pk=bob.pk).update(language="ne")
    Client(HTTP_ACCEPT_LANGUAGE="as").post("/accounts/login/", {"username": "bob", "password": "correct horse battery"})
    bob.refresh_from_db()
    assert bob.language == "ne"


def test_pages_are_translated_with_the_catalogues(sample_catalogue: Path) -> None:
    html = Client().get("/rules/reversi/", HTTP_ACCEPT_LANGUAGE="ne").content.decode()
    assert "NE log in" in html
    assert '<script src="/jsi18n/ne/"' in html
    response = Client().get("/jsi18n/ne/", HTTP_ACCEPT_LANGUAGE="en")  # the address names the language
    assert "NE link copied." in response.content.decode() and "function" in response.content.decode()
    assert "max-age=3600" in response["Cache-Control"] and "public" in response["Cache-Control"]
    assert "NE link copied." not in Client().get("/jsi18n/en/").content.decode()
    assert Client().get("/jsi18n/xx/").status_code == 404


# --- written to in the account's language -----------------------------------------------------------


def test_the_email_change_email_is_in_the_accounts_language(sample_catalogue: Path, alice: User) -> None:
    User.objects.filter(pk=alice.pk).update(language="ne")
    alice.refresh_from_db()
    mail.outbox.clear()
    with translation.override("en"):  # the request's language does not matter
        email_change.request_change(user=alice, new_email="new@example.com")
    assert {m.subject for m in mail.outbox} >= {"NE confirm your new address"}


def test_the_password_reset_email_is_in_the_accounts_language(sample_catalogue: Path, alice: User, bob: User) -> None:
    User.objects.filter(pk=alice.pk).update(language="ne")
    mail.outbox.clear()
    Client(HTTP_ACCEPT_LANGUAGE="en").post("/accounts/password/reset/", {"email": "alice@example.com"})
    Client(HTTP_ACCEPT_LANGUAGE="ne").post("/accounts/password/reset/", {"email": "bob@example.com"})
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects == {
        "alice@example.com": "NE reset your password",
        "bob@example.com": "Reset your Turnwise password",
    }


def test_turn_emails_and_pushes_are_in_the_accounts_language(
    sample_catalogue: Path, reversi_match: Match, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    User.objects.filter(pk=bob.pk).update(language="ne")
    PushSubscription.objects.create(user=bob, endpoint="https://push.example/bob", p256dh="k", auth="a")
    pushed: list[dict[str, Any]] = []
    monkeypatch.setattr(push, "_deliver", lambda subscription, data, signing, now: pushed.append(data) or True)
    Notice.objects.all().delete()
    mail.outbox.clear()
    from games import registry

    engine = registry.get("reversi").engine
    state = engine.load(reversi_match.state)
    with translation.override("en"):  # Alice moves from an English page
        services.act(
            match_id=reversi_match.pk,
            user=alice,
            action=engine.legal_actions(state, 0)[0],
            version=reversi_match.version,
        )
        notify.send_due(timezone.now() + timedelta(minutes=2))
    assert [m.subject for m in mail.outbox] == ["NE your turn on Turnwise (१)"]
    assert "NE your turn" in mail.outbox[0].body
    assert len(pushed) == 1 and pushed[0]["body"].startswith("NE your turn")
    assert pushed[0]["body"].endswith("#" + digits(reversi_match.pk, "ne"))


# --- digits ------------------------------------------------------------------------------------------


def test_digits_are_written_in_each_languages_own() -> None:
    assert digits("12:05, 2026", "as") == "১২:০৫, ২০২৬"
    assert digits(1234567890, "ne") == "१२३४५६७८९०"
    assert digits(42, "en") == "42"
    with translation.override("ne"):
        assert digits(7) == "७" and str(LocalNumber(15)) == "१५" and f"{LocalNumber(3):02d}" == "०३"
        assert LocalNumber(15) + 1 == 16  # still a number


def test_the_filter_keeps_plurals_and_escaping() -> None:
    template = engines["django"].from_string(
        "{% load i18n locale_digits %}"
        "{% blocktranslate count n=n|digits %}{{ n }} day{% plural %}{{ n }} days{% endblocktranslate %}|{{ s|digits }}"
    )
    with translation.override("as"):
        assert template.render({"n": 1, "s": "<b>3</b>"}) == "১ day|&lt;b&gt;৩&lt;/b&gt;"
        assert template.render({"n": 21, "s": None}) == "২১ days|None"


def test_pages_show_the_readers_digits_and_keep_machine_values_ascii(reversi_match: Match, alice: User) -> None:
    User.objects.filter(pk=alice.pk).update(language="ne")
    client = Client()
    client.force_login(alice)
    html = client.get("/").content.decode()
    number = digits(reversi_match.pk, "ne")
    assert f"#{number}</a>" in html
    assert 'data-count="1"' in html  # read by the page's script
    assert f'href="/m/{reversi_match.pk}/"' in html  # addresses keep ASCII digits
    assert "(१)" in html.split("</title>")[0]


# --- rules pages -------------------------------------------------------------------------------------


def test_the_rules_page_written_in_the_readers_language_is_chosen(tmp_path: Path) -> None:
    folder = tmp_path / "reversi"
    folder.mkdir(parents=True)
    (folder / "rules.ne.html").write_text(
        '{% extends "games/rules/_base.html" %}{% block rules %}NE rules{% endblock %}'
    )
    templates = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
    with override_settings(TEMPLATES=templates):
        assert "NE rules" in Client().get("/rules/reversi/", HTTP_ACCEPT_LANGUAGE="ne").content.decode()
        english = Client().get("/rules/reversi/", HTTP_ACCEPT_LANGUAGE="as").content.decode()
        assert "NE rules" not in english and "ৰিভাৰ্ছি" in english  # the game's name in Assamese


def test_each_seated_player_gets_the_live_update_in_their_own_language(
    sample_catalogue: Path, reversi_match: Match, alice: User, bob: User
) -> None:
    from games.read import pages

    User.objects.filter(pk=alice.pk).update(language="ne")
    seats = list(reversi_match.seats.select_related("user", "reserved_for"))
    with translation.override("en"):  # rendered in Bob's request, say
        by_user, _spectators = pages.render_for_push(reversi_match, seats, {alice.pk: [], bob.pk: []})
    assert "NE your turn." in by_user[alice.pk]  # Alice, Black, is to move
    assert "NE " not in by_user[bob.pk]


def test_engine_sentences_show_their_numbers_in_the_readers_digits() -> None:
    from games.engine import Text
    from games.support.i18n import localize

    text = Text(
        "%(name)s scores %(points)s (%(total)d in all) on %(square)s.",
        {"name": "Ann", "points": 12, "total": 40, "square": "f5"},
    )
    with translation.override("ne"):
        assert localize(text) == "Ann scores १२ (40 in all) on f5."
    with translation.override("en"):
        assert localize(text) == "Ann scores 12 (40 in all) on f5."


def test_live_turn_badges_are_in_each_players_language(reversi_match: Match, alice: User, bob: User) -> None:
    from unittest.mock import patch

    from games.live import realtime

    User.objects.filter(pk=alice.pk).update(language="ne")
    seats = list(reversi_match.seats.select_related("user", "reserved_for"))
    with translation.override("en"), patch.object(realtime, "deliver") as deliver:
        realtime.announce(reversi_match, seats)
    badges = {
        group: message["html"] for group, message in deliver.call_args[0][0] if message["type"] == "turns.changed"
    }
    assert "१" in badges[realtime.user_group(alice.pk)]  # Alice, to move: "1 match" in Nepali digits
    assert 'data-count="1"' in badges[realtime.user_group(alice.pk)]
    assert "No turns waiting" in badges[realtime.user_group(bob.pk)]


def test_a_badge_announced_on_its_own_is_in_its_players_language(reversi_match: Match, alice: User) -> None:
    from unittest.mock import patch

    from games.live import realtime

    User.objects.filter(pk=alice.pk).update(language="as")
    with translation.override("en"), patch.object(realtime, "deliver") as deliver:
        realtime.announce_user(alice.pk)
    [(group, message)] = deliver.call_args[0][0]
    assert group == realtime.user_group(alice.pk) and "১" in message["html"]  # one match waiting, Assamese digits


def test_a_socket_renders_in_its_players_language(sample_catalogue: Path, reversi_match: Match, alice: User) -> None:
    from games.read import pages

    User.objects.filter(pk=alice.pk).update(language="ne")
    alice.refresh_from_db()
    with translation.override("en"):  # whatever a socket thread had active
        fragment = pages.render_live_fragments(reversi_match, alice)
        badge = pages.render_turn_badge(alice)
    assert fragment is not None and "NE your turn." in fragment
    assert "१" in badge and 'data-count="1"' in badge
