"""Turn emails: only to players away from the site, at the rate they chose, with a one-click way out."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.background import notify
from games.models import Match, Notice

pytestmark = pytest.mark.django_db


def later(minutes: float) -> Any:
    return timezone.now() + timedelta(minutes=minutes)


def move(match: Match, user: Any) -> None:
    from games import registry

    match.refresh_from_db()
    engine = registry.get("reversi").engine
    state = engine.load(match.state)
    seat = engine.to_act(state)[0]
    services.act(match_id=match.pk, user=user, action=engine.legal_actions(state, seat)[0], version=match.version)


def test_an_away_player_is_emailed_once_when_it_becomes_their_turn(reversi_match: Match, alice: Any, bob: Any) -> None:
    mail.outbox.clear()
    Notice.objects.all().delete()  # the match-start notices
    move(reversi_match, alice)
    assert notify.send_due(later(0)) == 0  # within the grace period a live page may still show it
    assert notify.send_due(later(2)) == 1
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    body = mail.outbox[0].body
    assert f"/m/{reversi_match.pk}/" in body and "/accounts/unsubscribe/" in body
    assert "List-Unsubscribe" in mail.outbox[0].extra_headers
    assert notify.send_due(later(30)) == 0  # nothing new


def test_each_turn_emails_respect_the_interval(reversi_match: Match, alice: Any, bob: Any) -> None:
    mail.outbox.clear()
    move(reversi_match, alice)
    assert notify.send_due(later(2)) >= 1
    sent = len(mail.outbox)
    move(reversi_match, bob)
    move(reversi_match, alice)  # bob's turn again, five minutes after his last email
    assert notify.send_due(later(5)) == 0
    assert len(mail.outbox) == sent
    assert notify.send_due(later(18)) == 1  # the next window


def test_a_player_on_the_site_gets_no_email(reversi_match: Match, alice: Any, bob: Any) -> None:
    mail.outbox.clear()
    Notice.objects.all().delete()
    move(reversi_match, alice)
    User.objects.filter(pk=bob.pk).update(last_seen_at=timezone.now() + timedelta(seconds=1))
    assert notify.send_due(later(2)) == 0
    assert mail.outbox == []
    assert not Notice.objects.filter(handled_at__isnull=True).exists()


def test_digest_players_get_at_most_one_email_a_day(reversi_match: Match, alice: Any, bob: Any) -> None:
    User.objects.filter(pk=bob.pk).update(email_turns=User.EmailTurns.DIGEST)
    mail.outbox.clear()
    move(reversi_match, alice)
    assert notify.send_due(later(2)) >= 1
    bobs = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    assert len(bobs) == 1 and "digest" in bobs[0].subject
    move(reversi_match, bob)
    move(reversi_match, alice)
    notify.send_due(later(60 * 12))
    assert len([m for m in mail.outbox if m.to == ["bob@example.com"]]) == 1
    notify.send_due(later(60 * 25))
    assert len([m for m in mail.outbox if m.to == ["bob@example.com"]]) == 2


def test_never_means_never(reversi_match: Match, alice: Any, bob: Any) -> None:
    User.objects.filter(pk__in=[alice.pk, bob.pk]).update(email_turns=User.EmailTurns.NEVER)
    mail.outbox.clear()
    move(reversi_match, alice)
    services.resign(match_id=reversi_match.pk, user=bob)
    notify.send_due(later(60 * 48))
    assert mail.outbox == []


def test_match_start_and_end_notify_away_players(alice: Any, bob: Any) -> None:
    mail.outbox.clear()
    match = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=match.pk, user=bob)
    services.resign(match_id=match.pk, user=bob)
    kinds = set(Notice.objects.filter(user=alice).values_list("kind", flat=True))
    assert {Notice.Kind.STARTED, Notice.Kind.ENDED} <= kinds
    notify.send_due(later(2))
    alices = [m for m in mail.outbox if m.to == ["alice@example.com"]]
    assert len(alices) == 1 and "Match ended" in alices[0].body


def test_running_the_mailer_twice_sends_each_email_once(reversi_match: Match, alice: Any) -> None:
    mail.outbox.clear()
    move(reversi_match, alice)
    now = later(2)
    assert notify.send_due(now) + notify.send_due(now) == len(mail.outbox)
    assert len({tuple(m.to) for m in mail.outbox}) == len(mail.outbox)


def test_the_unsubscribe_link_works_without_logging_in(bob: Any) -> None:
    token = notify.unsubscribe_token(bob)
    client = Client()  # not logged in
    page = client.get(reverse("accounts:unsubscribe", args=[token]))
    assert page.status_code == 200 and "Unsubscribe" in page.content.decode()
    done = client.post(reverse("accounts:unsubscribe", args=[token]))
    assert done.status_code == 200
    bob.refresh_from_db()
    assert bob.email_turns == User.EmailTurns.NEVER


def test_a_forged_unsubscribe_token_changes_nothing(bob: Any) -> None:
    response = Client().post(reverse("accounts:unsubscribe", args=[f"{bob.pk}:forged"]))
    assert response.status_code == 404
    bob.refresh_from_db()
    assert bob.email_turns == User.EmailTurns.EACH


def test_settings_page_saves_the_email_choice(bob: Any) -> None:
    client = Client()
    client.force_login(bob)
    response = client.post(
        reverse("accounts:settings"), {"form": "email", "email": "b@example.org", "email_turns": "digest"}
    )
    assert response.status_code == 302
    bob.refresh_from_db()
    # The address changes only through a confirmation link (tests/accounts/test_email_change.py).
    assert (bob.email, bob.email_turns) == ("bob@example.com", "digest")
    assert "Turn on browser notifications" in client.get(reverse("accounts:settings")).content.decode()


def test_a_digest_lists_every_match_waiting_on_the_player(alice: Any, bob: Any) -> None:
    User.objects.filter(pk=bob.pk).update(email_turns=User.EmailTurns.DIGEST)
    quiet = services.create_match(user=bob, game="reversi", players=2)  # bob is Black: his turn
    services.join_match(match_id=quiet.pk, user=alice)
    Notice.objects.filter(match=quiet).update(handled_at=timezone.now())  # nothing new about it
    other = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=other.pk, user=bob)
    mail.outbox.clear()
    move(other, alice)
    notify.send_due(later(2))
    (digest,) = [m for m in mail.outbox if m.to == ["bob@example.com"]]
    assert f"/m/{quiet.pk}/" in digest.body and f"/m/{other.pk}/" in digest.body
