"""The background work stays cheap: the mailer's queries do not grow with the number of players."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import services
from games.background import notify
from games.live import presence

pytestmark = pytest.mark.django_db


def away_players_with_a_turn(make_user: Any, pairs: int, prefix: str) -> None:
    for n in range(pairs):
        first, second = make_user(f"{prefix}a{n}"), make_user(f"{prefix}b{n}")
        match = services.create_match(user=first, game="reversi", players=2)
        services.join_match(match_id=match.pk, user=second)
    User.objects.filter(username__startswith=f"{prefix}b").update(email_turns=User.EmailTurns.DIGEST)


def test_the_mailer_sends_a_batch_in_a_constant_number_of_queries(make_user: Any) -> None:
    later = timezone.now() + timedelta(minutes=2)
    away_players_with_a_turn(make_user, 2, "few")
    with CaptureQueriesContext(connection) as few:
        sent_few = notify.send_due(later)
    away_players_with_a_turn(make_user, 8, "many")
    with CaptureQueriesContext(connection) as many:
        sent_many = notify.send_due(later)
    assert (sent_few, sent_many) == (4, 16)  # every player of each match: the start, and a turn or a digest
    assert len(mail.outbox) == 20
    assert len(many) == len(few)


def test_presence_is_written_once_a_minute_per_person_whatever_the_pages(alice: Any, bob: Any) -> None:
    for n in range(5):
        assert presence.admit(f"test-alice-{n}", alice.pk, "alice-session")
    assert presence.admit("test-bob", bob.pk, "bob-session")
    try:
        with CaptureQueriesContext(connection) as queries:
            assert presence.write_presence(now=1_000_000.0) == 2
            assert presence.write_presence(now=1_000_030.0) == 0  # within the minute: no write
            assert presence.write_presence(now=1_000_000.0 + presence.PRESENCE_EVERY_SECONDS) == 2
        assert len(queries) == 2
        assert User.objects.filter(pk__in=[alice.pk, bob.pk], last_seen_at__isnull=False).count() == 2
    finally:
        for n in range(5):
            presence.leave(f"test-alice-{n}")
        presence.leave("test-bob")
