"""The move's hand-built writes store what Django's ORM stores for the same values (games.services.base)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from games.models import Match, Move, Notice
from games.services.base import insert_rows, update_where

pytestmark = pytest.mark.django_db(transaction=True)


def stored(model: type, pk: Any) -> dict[str, Any]:
    obj = model.objects.get(pk=pk)
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields if not f.primary_key}


def test_a_conditional_update_writes_what_the_querysets_update_writes(reversi_match: Match) -> None:
    before = reversi_match.version
    values = {
        "state": {"nested": [1, "two", None], "text": "quote ' and \" and é"},
        "version": before + 1,
        "turn_version": before + 1,
        "move_count": 7,
        "updated_at": timezone.now(),
    }
    with transaction.atomic():
        assert Match.objects.filter(pk=reversi_match.pk, version=before).update(**values) == 1
        by_django = stored(Match, reversi_match.pk)
        transaction.set_rollback(True)
    assert update_where(Match, values, pk=reversi_match.pk, version=before) == 1
    assert stored(Match, reversi_match.pk) == by_django
    # At a version the row no longer has, nothing changes: the caller sees 0 rows.
    assert update_where(Match, {**values, "move_count": 99}, pk=reversi_match.pk, version=before) == 0
    assert stored(Match, reversi_match.pk) == by_django


def test_inserted_rows_are_what_create_would_store(reversi_match: Match, alice: Any, bob: Any) -> None:
    now = timezone.now()
    payload = {"type": "place", "square": "d3", "note": "é ' \""}
    django_move = Move.objects.create(match=reversi_match, seq=90, seat=1, payload=payload)
    insert_rows(Move, ["match", "seq", "seat", "payload", "created_at"], [(reversi_match.pk, 91, 1, payload, now)])
    mine = Move.objects.get(match=reversi_match, seq=91)
    # created_at is the time given (the ORM's auto_now_add takes its own).
    assert mine.created_at == now
    expected = {**stored(Move, django_move.pk), "seq": 91, "created_at": now}
    assert stored(Move, mine.pk) == expected

    rows = [(user.pk, reversi_match.pk, Notice.Kind.TURN, now, False) for user in (alice, bob)]
    insert_rows(Notice, ["user", "match", "kind", "created_at", "emailed"], rows)
    django_notice = Notice.objects.create(user=alice, match=reversi_match, kind=Notice.Kind.TURN, created_at=now)
    mine_notices = Notice.objects.exclude(pk=django_notice.pk).filter(match=reversi_match, created_at=now)
    assert sorted(n.user_id for n in mine_notices) == sorted([alice.pk, bob.pk])
    assert [stored(Notice, n.pk) for n in mine_notices if n.user_id == alice.pk] == [stored(Notice, django_notice.pk)]
    insert_rows(Notice, ["user", "match", "kind", "created_at", "emailed"], [])  # nothing to add: no statement
