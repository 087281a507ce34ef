"""An account that chose Nepali is written to in Nepali, with the site's real catalogues: the turn email,
the daily digest, the turn push and the password reset, whatever language the mover or the person who
asked for the reset was reading. Nothing English is left in them but names, codes and addresses."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone, translation

from accounts import push
from accounts.models import PushSubscription, User
from games import registry, services
from games.background import notify
from games.models import Match, Notice

pytestmark = pytest.mark.django_db

DEVANAGARI = re.compile(r"[\u0900-\u097F]")
URL = re.compile(r"\b(?:https?|mailto)://\S+|\b\S+@\S+\.\w+")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*")
# The site's name and the people's names.
NAMES = {"Turnwise", "alice", "bob"}


def english(text: str) -> list[str]:
    """The Latin-letter words of ``text`` outside addresses, names and Reversi squares (d3)."""
    words = WORD.findall(URL.sub(" ", text))
    return [w for w in words if w not in NAMES and not re.fullmatch(r"[a-h][1-8]", w)]


def in_nepali(subject: str, body: str) -> None:
    for part in (subject, body):
        assert DEVANAGARI.search(part), part
        assert english(part) == [], f"English in {part!r}"


def first_move(match: Match, user: User) -> None:
    """A legal move for seat 0, made from a page read in English."""
    engine = registry.get("reversi").engine
    state = engine.load(match.state)
    with translation.override("en"):
        services.act(match_id=match.pk, user=user, action=engine.legal_actions(state, 0)[0], version=match.version)


def test_a_turn_email_and_push_to_a_nepali_account_are_in_nepali(
    reversi_match: Match, alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    User.objects.filter(pk=bob.pk).update(language="ne")
    PushSubscription.objects.create(user=bob, endpoint="https://push.example/bob", p256dh="k", auth="a")
    pushed: list[dict[str, Any]] = []
    monkeypatch.setattr(push, "_deliver", lambda subscription, data, signing, now: pushed.append(data) or True)
    Notice.objects.all().delete()
    mail.outbox.clear()
    first_move(reversi_match, alice)
    with translation.override("en"):  # the worker's own language is not the reader's
        assert notify.send_due(timezone.now() + timedelta(minutes=2)) == 1
    (email,) = mail.outbox
    assert email.to == ["bob@example.com"]
    in_nepali(email.subject, email.body)
    assert f"/m/{reversi_match.pk}/" in email.body  # the link itself stays a link
    assert len(pushed) == 1
    assert english(pushed[0]["title"]) == []  # the site's name
    in_nepali(pushed[0]["body"], pushed[0]["body"])


def test_the_daily_digest_to_a_nepali_account_is_in_nepali(reversi_match: Match, alice: User, bob: User) -> None:
    User.objects.filter(pk=bob.pk).update(language="ne", email_turns=User.EmailTurns.DIGEST)
    Notice.objects.all().delete()
    mail.outbox.clear()
    first_move(reversi_match, alice)
    with translation.override("en"):
        notify.send_due(timezone.now() + timedelta(days=1, minutes=2))
    (email,) = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    in_nepali(email.subject, email.body)


def test_the_password_reset_of_a_nepali_account_is_in_nepali_whoever_asks(bob: User) -> None:
    User.objects.filter(pk=bob.pk).update(language="ne")
    mail.outbox.clear()
    # Asked for from a browser reading English.
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post("/accounts/password/reset/", {"email": "bob@example.com"})
    assert response.status_code == 302
    (email,) = mail.outbox
    in_nepali(email.subject, email.body)
