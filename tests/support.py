"""Helpers the test modules share."""

from __future__ import annotations

from typing import Any

from django.test import Client


def client_for(user: Any) -> Client:
    """A test client logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client
