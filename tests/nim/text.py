"""Nim's events as sentences for the page."""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    return ngettext("%(name)s took %(n)d stone.", "%(name)s took %(n)d stones.", event["count"]) % {
        "name": names[event["seat"]],
        "n": event["count"],
    }
