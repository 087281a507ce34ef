"""Compiled querysets give exactly what Django gives for the same querysets (games.support.sql)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import Match, Seat
from games.support.sql import CompiledModels, CompiledRows

pytestmark = pytest.mark.django_db(transaction=True)


def seats_with_match_and_users(match_id: Any) -> Any:
    return Seat.objects.filter(match_id=match_id).select_related("match", "user").order_by("number")


def fields_of(obj: Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def assert_same_objects(compiled: list[Seat], django: list[Seat]) -> None:
    assert [fields_of(s) for s in compiled] == [fields_of(s) for s in django]
    for mine, theirs in zip(compiled, django, strict=True):
        assert not mine._state.adding and mine._state.db == theirs._state.db
        # The followed relations are loaded (no query to reach them) and equal Django's.
        with CaptureQueriesContext(connection) as queries:
            assert fields_of(mine.match) == fields_of(theirs.match)
            assert (mine.user and fields_of(mine.user)) == (theirs.user and fields_of(theirs.user))
        assert len(queries) == 0


def test_model_instances_with_their_related_objects_are_djangos(reversi_match: Match, alice: Any) -> None:
    # Values of every kind the converters handle: JSON (state, options, result), datetimes, NULLs,
    # booleans, an empty seat without a user.
    now = timezone.now()
    Seat.objects.filter(match=reversi_match, number=0).update(deadline_at=now + timedelta(days=1), to_act=True)
    waiting = services.create_match(user=alice, game="dos", players=3)
    compiled = CompiledModels(seats_with_match_and_users)
    for match in (reversi_match, waiting):
        assert_same_objects(compiled(match.pk), list(seats_with_match_and_users(match.pk)))
    assert compiled(10**12) == []


def test_the_locking_query_is_djangos_inside_a_transaction(reversi_match: Match) -> None:
    def locked(match_id: Any) -> Any:
        return seats_with_match_and_users(match_id).select_for_update(of=("match",))

    compiled = CompiledModels(locked)
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            objects = compiled(reversi_match.pk)
        assert_same_objects(objects, list(locked(reversi_match.pk)))
    if connection.features.has_select_for_update_of:
        assert "FOR UPDATE OF" in queries[0]["sql"]


def test_rows_take_each_value_in_its_place_whatever_the_list_lengths(
    reversi_match: Match, alice: Any, bob: Any, carol: Any
) -> None:
    def waiting(user_ids: Any, match_id: Any) -> Any:
        return (
            Seat.objects.filter(user_id__in=user_ids, to_act=True)
            .exclude(match_id=match_id)
            .order_by("pk")
            .values_list("user_id", "match_id")
        )

    other = services.create_match(user=alice, game="reversi", players=2)
    services.join_match(match_id=other.pk, user=bob)
    compiled = CompiledRows(waiting)
    for user_ids in ([alice.pk], [alice.pk, bob.pk], [carol.pk, bob.pk, alice.pk], []):
        for match_id in (reversi_match.pk, other.pk):
            assert compiled(user_ids, match_id) == list(waiting(user_ids, match_id))


def test_a_value_that_does_not_reach_the_sql_is_refused() -> None:
    compiled = CompiledRows(lambda match_id: Match.objects.filter(pk=7).values_list("pk"))
    with pytest.raises(ValueError, match="exactly once"):
        compiled(1)
