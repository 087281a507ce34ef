"""Issue #29, on the server: the pages and page parts the issue names read, in Assamese and in Nepali,
with no Latin word, no ASCII digit and nothing of the other script (tests/i18n/checks.py,
reader_problems, with the reviewed list of tests/e2e/test_languages_e2e.py). The browser suite checks
every page type the same way, list numbers included; these are fast and need no browser."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.utils import timezone, translation

from accounts.models import User
from games import registry, services
from games.backalley.present import card as backalley_card
from games.dos.text import describe_event as dos_event
from games.models import Match, Rating
from games.support.i18n import readable
from games.tacocat.present import seat_label as tacocat_seat_label
from tests.e2e.test_languages_e2e import ALLOWED, EDGE_LABEL
from tests.i18n.checks import page_pieces, reader_problems

pytestmark = pytest.mark.django_db
LANGUAGES = ("as", "ne")


def problems(html: str, language: str, *names: str) -> list[str]:
    allowed = [*ALLOWED, *(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])" for name in names)]
    return reader_problems(page_pieces(html), language, allowed, EDGE_LABEL)


def reader(make_user: Any, language: str, name: str = "rupa") -> tuple[User, Client]:
    user = make_user(name)
    User.objects.filter(pk=user.pk).update(language=language)
    client = Client()
    client.force_login(user)
    return user, client


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "path",
    [
        "/accounts/signup/",  # the password's minimum length
        *(f"/rules/{game.slug}/" for game in registry.all_games()),  # every game's, Nim's (tests/nim) too
    ],
)
def test_pages_for_anyone_read_in_the_language(path: str, language: str) -> None:
    client = Client(headers={"accept-language": language})
    html = client.get(path).content.decode()
    assert f'<html lang="{language}"' in html
    assert problems(html, language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_players_pages_read_in_the_language(language: str, make_user: Any) -> None:
    """The password form, the status page (its window), the history (the replay links' hidden match
    number), the forms' player counts and Tacocat goals, a profile's ± and the leaderboard's counts."""
    user, client = reader(make_user, language)
    other = make_user("ben")
    finished = services.create_match(user=user, game="reversi", players=2, bot_seats={1})
    services.resign(match_id=finished.pk, user=user)
    now = timezone.now() - timedelta(days=1)
    for who, matches in ((user, 17), (other, 9)):
        Rating.objects.create(user=who, game="dos", mu=27.5, sigma=3.25, rated_matches=matches, last_played_at=now)
    paths = ["/accounts/password/change/", "/status/", "/history/", "/accounts/u/ben/", "/leaderboard/dos/"]
    paths += [f"/new/?game={game}" for game in ("dos", "tacocat", "backalley")]
    paths += [f"/challenge/ben/?game={game}" for game in ("dos", "tacocat")]
    found = []
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        # Nim is a game the test settings add (tests/nim), in the history's game filter.
        found += [f"{path}: {p}" for p in problems(response.content.decode(), language, "rupa", "ben", "Nim")]
    assert found == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_numbers_the_issue_names_are_in_the_languages_digits(language: str, make_user: Any) -> None:
    user, client = reader(make_user, language)
    Rating.objects.create(user=user, game="dos", mu=27.5, sigma=3.25, rated_matches=17, last_played_at=timezone.now())
    own = {"as": str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯"), "ne": str.maketrans("0123456789", "०१२३४५६७८९")}
    with translation.override(language):
        signup = Client(headers={"accept-language": language}).get("/accounts/signup/").content.decode()
        assert "8".translate(own[language]) in signup
        status = client.get("/status/").content.decode()
        assert "2000".translate(own[language]) in status and "15".translate(own[language]) in status
        board = client.get("/leaderboard/dos/").content.decode()
        assert "<td>" + "17".translate(own[language]) + "</td>" in board


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_short_password_is_refused_with_the_length_in_the_languages_digits(language: str) -> None:
    client = Client(headers={"accept-language": language})
    html = client.post(
        "/accounts/signup/", {"username": "rupa", "password1": "x7Qa", "password2": "x7Qa"}
    ).content.decode()
    assert not User.objects.exists()
    assert {"as": "৮", "ne": "८"}[language] in html
    assert problems(html, language) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("template", ["registration/locked_out.html", "too_many_requests.html"])
def test_the_pause_pages_give_the_time_and_its_zone_in_the_language(template: str, language: str) -> None:
    request = RequestFactory().get("/accounts/login/")
    request.user = AnonymousUser()
    until = timezone.now().replace(hour=14, minute=5) + timedelta(days=1)
    context = {"username": "rupa", "whole_client": False, "until": until, "minutes": 15, "message": "—"}
    with translation.override(language):
        html = render_to_string(template, context, request=request)
    assert {"as": "১৪:০৫ ইউটিচি", "ne": "१४:०५ युटिसी"}[language] in html
    assert problems(html, language, "rupa") == []


@pytest.mark.parametrize(
    ("language", "goal", "joker", "event"),
    [
        ("as", "ৱাও", "বিগ", "১ নং ৰাউণ্ড"),
        ("ne", "वाउ", "ठूलो", "रातो ७"),
    ],
)
def test_goals_jokers_and_dos_cards_are_named_in_the_language(language: str, goal: str, joker: str, event: str) -> None:
    with translation.override(language):
        assert goal in tacocat_seat_label(0)
        assert backalley_card("BB")["short"] == joker
        deal = {"type": "deal", "round": 1, "dealer": 0, "center": ["R7", "B9"]}
        line = dos_event(readable(deal), ["rupa"])  # as pages hand events over (games.read.pages)
        assert event in line
        assert reader_problems([("text", "event", line)], language, [r"\brupa\b"]) == []


def test_english_keeps_its_words() -> None:
    with translation.override("en"):
        assert tacocat_seat_label(1) == "goal YAY"
        assert backalley_card("LB")["short"] == "LB"
        line = dos_event({"type": "deal", "round": 2, "dealer": 0, "center": ["R7", "B9"]}, ["Dov"])
        assert line == "Round 2: Dov dealt; the Center Row shows red 7, blue 9."
    assert registry.get("tacocat").card_label("12") == "12"
    assert Match.objects.count() == 0
