"""Checks of untrusted wire values that every engine's ``actions.py`` needs."""

from __future__ import annotations

from typing import Any


def is_int(value: Any) -> bool:
    """A JSON whole number. JSON true/false arrive as bool, which Python also counts as int."""
    return isinstance(value, int) and not isinstance(value, bool)
