"""Events that carry secrets: what happened, shown to every seat, plus fields only their owner may see.

An engine records e.g. ``event("draw", seat=1, owner=1, secret={"card": "R7"})``; a view of seat 1
shows ``{"type": "draw", "seat": 1, "card": "R7"}``, every other view ``{"type": "draw", "seat": 1}``.
Events live in immutable states, so their fields are stored frozen: (key, value) pairs, lists as tuples.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Fields = tuple[tuple[str, Any], ...]


def freeze(value: Any) -> Any:
    """A JSON value with its lists as tuples, so it can live in a frozen, hashable state."""
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    """The JSON value ``freeze`` was given: tuples back to lists."""
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value


def fields(data: Mapping[str, Any]) -> Fields:
    return tuple((key, freeze(value)) for key, value in data.items())


def unfields(pairs: Fields) -> dict[str, Any]:
    return {key: thaw(value) for key, value in pairs}


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``public`` is for every viewer; ``secret`` only for seat ``owner``."""

    type: str
    public: Fields = ()
    owner: int | None = None
    secret: Fields = ()

    def for_viewer(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: a spectator, who sees no secret)."""
        out: dict[str, Any] = {"type": self.type, **unfields(self.public)}
        if seat is not None and seat == self.owner:
            out.update(unfields(self.secret))
        return out

    def dump(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "public": unfields(self.public),
            "owner": self.owner,
            "secret": unfields(self.secret),
        }

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> Event:
        return cls(data["type"], fields(data["public"]), data["owner"], fields(data["secret"]))


def event(kind: str, /, *, owner: int | None = None, secret: Mapping[str, Any] | None = None, **public: Any) -> Event:
    """``event("play", seat=1, card="QH")``; the ``secret`` fields are shown to ``owner`` only."""
    return Event(kind, fields(public), owner, fields(secret or {}))
