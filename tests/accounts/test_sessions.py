"""The session store finds sessions as Django's database store does (only its query is compiled once)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangosStore
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db


def saved(data: dict[str, Any]) -> str:
    store = SessionStore()
    store.update(data)
    store.save()
    assert store.session_key
    return store.session_key


def test_a_saved_session_loads_with_its_data_as_djangos_store_loads_it() -> None:
    key = saved({"colour": "white", "n": 3})
    assert SessionStore(key).load() == DjangosStore(key).load() == {"colour": "white", "n": 3}


def test_an_expired_a_missing_or_a_forged_session_is_empty_and_forgets_its_key() -> None:
    expired = saved({"a": 1})
    Session.objects.filter(session_key=expired).update(expire_date=timezone.now() - timedelta(seconds=1))
    forged = saved({"a": 1})
    Session.objects.filter(session_key=forged).update(session_data="not-signed")
    for key in (expired, "no-such-session-key-000000000000", forged):
        ours, django = SessionStore(key), DjangosStore(key)
        assert ours.load() == django.load() == {}
        if key != forged:  # Django keeps the key of a session it could not decode, and so does ours
            assert ours.session_key is None and django.session_key is None


def test_a_signed_in_player_stays_signed_in_and_a_deleted_session_signs_out(alice: Any) -> None:
    client = Client()
    client.force_login(alice)
    assert client.get("/history/").status_code == 200
    Session.objects.all().delete()
    response = client.get("/history/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
