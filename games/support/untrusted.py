"""Untrusted input read safely: JSON with bounded size and depth, versions that are plain whole numbers.

Python's ``json`` recurses once per nesting level, so a body of 50,000 brackets raises RecursionError,
and it reads ``Infinity``, ``NaN`` and ``1e400`` as floats no database column can hold. Everything a
client sends as JSON goes through ``loads`` first, and every version through ``version`` or ``form_version``; both raise
``BadInput`` (a ``ValueError``) with a player-facing message.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.engine import InvalidAction

# Far more than any action needs (the deepest is a list inside an object inside the request body).
MAX_DEPTH = 20
# An action is a few hundred bytes; a Tacocat defence with every card answered stays under 2 KB.
MAX_BYTES = 64 * 1024
# The match version column is a PositiveIntegerField: 0 .. 2**31 - 1 on every database.
MAX_VERSION = 2**31 - 1

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class BadInput(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _refuse_constant(name: str) -> Any:
    raise BadInput(_("Numbers must be finite (%(name)s is not allowed).") % {"name": name})


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadInput(_("The number %(text)s is too large.") % {"text": text[:20]})
    return value


def _depth(text: str) -> int:
    """The deepest nesting of arrays and objects, ignoring brackets inside strings."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def loads(raw: str | bytes) -> Any:
    """Parse JSON sent by a client, refusing what is too big, too deep or not finite."""
    if len(raw) > MAX_BYTES:
        raise BadInput(_("The request is too large."))
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadInput(_("The request is not valid UTF-8.")) from None
    if _depth(raw) > MAX_DEPTH:
        raise BadInput(_("The request is nested too deeply."))
    try:
        return json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite_float)
    except BadInput:
        raise
    except ValueError:
        raise BadInput(_("The request is not valid JSON.")) from None


def version(value: Any) -> int:
    """A match version sent as JSON: an integer (never a bool, a float or a string) the column can hold."""
    if type(value) is not int or not 0 <= value <= MAX_VERSION:
        raise BadInput(_("The version must be a whole number, as the API gave it."))
    return value


def form_version(value: str) -> int:
    """A match version posted by a form: a string of at most ten ASCII digits."""
    if not (value.isascii() and value.isdigit() and len(value) <= 10):
        raise BadInput(_("The version must be a whole number, as the page gave it."))
    return version(int(value))


def form_type(data: Mapping[str, Any], types: Sequence[str]) -> str:
    """The ``type`` field of a game's posted form: one of ``types``, else ``InvalidAction``."""
    kind = data.get("type", "")
    if kind not in types:
        if not kind:
            raise InvalidAction(_("The action has no type."))
        raise InvalidAction(_("Unknown action type %(type)s.") % {"type": repr(kind)})
    return kind
