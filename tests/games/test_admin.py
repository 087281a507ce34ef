"""The admin shows matches and their move log but cannot change a match's state or its log."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Match, Move

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user: Any) -> Client:
    user = make_user("stella")
    user.is_staff = user.is_superuser = True
    user.save()
    client = Client()
    client.force_login(user)
    return client


def test_posting_the_match_change_form_leaves_state_and_version_alone(staff: Client, reversi_match: Match) -> None:
    before = Match.objects.get(pk=reversi_match.pk)
    url = reverse("admin:games_match_change", args=[reversi_match.pk])
    page = staff.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert str(before.seed) not in html
    assert '"board"' not in html and "seed" not in html.lower()
    response = staff.post(
        url,
        {
            "is_public": "",
            "state": '{"board": "forged"}',
            "version": "99",
            "seed": "1",
            "status": Match.Status.FINISHED,
            "result": '{"winner": 1}',
            "seats-TOTAL_FORMS": "0",
            "seats-INITIAL_FORMS": "0",
            "seats-MIN_NUM_FORMS": "0",
            "seats-MAX_NUM_FORMS": "0",
        },
    )
    assert response.status_code == 302
    after = Match.objects.get(pk=reversi_match.pk)
    assert (after.state, after.version, after.seed, after.status, after.result) == (
        before.state,
        before.version,
        before.seed,
        before.status,
        before.result,
    )
    assert after.is_public is False  # the one field staff may change


def test_the_move_log_can_be_read_but_not_added_to_changed_or_deleted(
    staff: Client, reversi_match: Match, alice: Any
) -> None:
    services.act(
        match_id=reversi_match.pk, user=alice, action={"type": "place", "square": "d3"}, version=reversi_match.version
    )
    action = Move.objects.get(match=reversi_match)
    before = (action.seq, action.seat, action.payload)
    change = reverse("admin:games_move_change", args=[action.pk])
    assert staff.get(change).status_code == 200
    assert staff.post(change, {"match": reversi_match.pk, "seq": "7", "seat": "1", "payload": "{}"}).status_code == 403
    assert staff.post(reverse("admin:games_move_add"), {"match": reversi_match.pk}).status_code == 403
    assert staff.post(reverse("admin:games_move_delete", args=[action.pk]), {"post": "yes"}).status_code == 403
    bulk = staff.post(
        reverse("admin:games_move_changelist"),
        {"action": "delete_selected", "_selected_action": [action.pk], "post": "yes"},
    )
    assert bulk.status_code in {200, 302}
    action.refresh_from_db()
    assert (action.seq, action.seat, action.payload) == before
    assert Move.objects.filter(match=reversi_match).count() == 1


def test_staff_cannot_add_a_match_in_the_admin(staff: Client) -> None:
    assert staff.get(reverse("admin:games_match_add")).status_code == 403
