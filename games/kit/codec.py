"""The lossless JSON form of a game's state, derived from its dataclass.

A game's ``state.py`` builds one codec and its ``dump_state`` / ``load_state`` are that codec's::

    CODEC = StateCodec(State, format=2, name="Reversi", fields={"to_move": COLOUR}, older={1: from_format_1})
    dump_state, load_state = CODEC.dump, CODEC.load

The JSON follows the dataclass: one key a field, in field order, each value by its type hint:

- ``int``, ``str``, ``bool``, ``None``, ``Any`` and unions of these: as they are;
- ``tuple[X, ...]`` and ``tuple[X, Y]``: a list (a tuple again on load); ``frozenset[X]`` / ``set[X]``: a
  sorted list, so equal states dump equal; ``dict[K, V]``: an object (int keys as strings), keys sorted;
- ``X | None``: ``null`` or ``X``; an ``Enum``: its value; a dataclass: an object, field by field, again;
- ``games.kit.events.Event``: its own ``dump`` / ``load``.

Stored matches and fair-play digests hash these dumps, so a format never changes by accident: where a
game's JSON is not the plain one, small hooks say so, field by field. ``names`` renames keys,
``fields`` gives one field a :class:`Hook` (a card code for an int card, a colour letter for a seat),
``types`` gives every value of a type one (Back Alley's ``Bid`` as its label), ``joint`` writes several
fields as one key (Reversi's two bitboards as one board string), ``omit_default`` leaves out a field at its
default (read back as the default), ``order`` sets the key order where it is not the fields', ``format``
is written first and checked on load, and ``older`` turns each older format's JSON into the current one.
``tests/games/test_state_codec.py`` pins every game's JSON to what the hand-written dumps produced.

Pure: no Django, no I/O.
"""

from __future__ import annotations

import dataclasses
import enum
import types as pytypes
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.kit.events import Event

Convert = Callable[[Any], Any]
PRIMITIVES = (int, str, bool, float, type(None))
# The top-level key of a versioned dump.
FORMAT_KEY = "format"


@dataclass(frozen=True, slots=True)
class Hook:
    """How one value goes to JSON (``dump``) and back (``load``)."""

    dump: Convert
    load: Convert


def each(item: Hook, *, sort: bool = False) -> Hook:
    """A tuple whose values each go through ``item`` (``sort``: sorted again on load, a canonical hand)."""
    dump_item, load_item = item.dump, item.load
    if sort:
        return Hook(lambda values: [dump_item(v) for v in values], lambda data: tuple(sorted(map(load_item, data))))
    return Hook(lambda values: [dump_item(v) for v in values], lambda data: tuple(map(load_item, data)))


def coded(codes: tuple[Any, ...] | list[Any]) -> Hook:
    """An index into ``codes`` written as its code: ``coded(("B", "W"))`` writes seat 1 as ``"W"``."""
    table = tuple(codes)
    return Hook(table.__getitem__, table.index)


@dataclass(frozen=True, slots=True)
class Joint:
    """Several fields written as one key: ``dump(*values)`` gives the JSON, ``load(json)`` the values."""

    attrs: tuple[str, ...]
    dump: Callable[..., Any]
    load: Callable[[Any], tuple[Any, ...]]


# A value's conversion, or None where the JSON value is the value itself (the common case, kept cheap).
Pair = tuple[Convert | None, Convert | None]


@dataclass(frozen=True, slots=True)
class _Key:
    key: str
    attrs: tuple[str, ...]
    dump: Convert | None
    load: Convert | None
    joint: bool
    omit: bool
    default: Any


class StateCodec:
    """``dump`` (a JSON-ready dict) and ``load`` (the dataclass again) of one dataclass; see the module."""

    def __init__(
        self,
        cls: type,
        *,
        name: str | None = None,
        format: int | None = None,
        older: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] | None = None,
        names: Mapping[str, str] | None = None,
        fields: Mapping[str, Hook] | None = None,
        types: Mapping[type, Hook | StateCodec] | None = None,
        joint: Mapping[str, Joint] | None = None,
        omit_default: Iterable[str] = (),
        order: Iterable[str] | None = None,
    ) -> None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls!r} is not a dataclass.")
        self.cls = cls
        self.name = name or cls.__name__
        self.format = format
        self.older = dict(older or {})
        self._types: dict[type, Hook | StateCodec] = {Event: Hook(Event.dump, Event.load), **(types or {})}
        names, hooks, joint = dict(names or {}), dict(fields or {}), dict(joint or {})
        omit = set(omit_default)
        hints = typing.get_type_hints(cls)
        by_attr = {f.name: f for f in dataclasses.fields(cls) if f.init}
        jointly = {attr for j in joint.values() for attr in j.attrs}
        unknown = (set(names) | set(hooks) | omit | jointly) - set(by_attr)
        if unknown:
            raise TypeError(f"{self.name}: no field(s) {sorted(unknown)} to name, hook, join or omit.")
        keys: list[_Key] = []
        for attr, spec in by_attr.items():
            if attr in jointly:
                continue
            default = spec.default if spec.default is not dataclasses.MISSING else dataclasses.MISSING
            if spec.default_factory is not dataclasses.MISSING:
                default = spec.default_factory()
            if attr in omit and default is dataclasses.MISSING:
                raise TypeError(f"{self.name}.{attr} has no default to omit.")
            dump, load = self._field(hints[attr], hooks.get(attr))
            keys.append(_Key(names.get(attr, attr), (attr,), dump, load, False, attr in omit, default))
        for key, j in joint.items():
            keys.append(_Key(key, j.attrs, j.dump, j.load, True, False, dataclasses.MISSING))
        if order is not None:
            wanted = list(order)
            if sorted(wanted) != sorted(k.key for k in keys):
                raise TypeError(f"{self.name}: order {wanted} must list every key once.")
            keys.sort(key=lambda k: wanted.index(k.key))
        self._keys = tuple(keys)

    # -- the two directions ------------------------------------------------------------------------

    def dump(self, value: Any) -> dict[str, Any]:
        out: dict[str, Any] = {} if self.format is None else {FORMAT_KEY: self.format}
        for k in self._keys:
            if k.joint:
                out[k.key] = k.dump(*(getattr(value, a) for a in k.attrs))  # type: ignore[misc]
                continue
            item = getattr(value, k.attrs[0])
            if k.omit and item == k.default:
                continue
            out[k.key] = item if k.dump is None else k.dump(item)
        return out

    def load(self, data: Mapping[str, Any]) -> Any:
        if self.format is not None:
            found = data.get(FORMAT_KEY)
            if found != self.format:
                if found not in self.older:
                    raise ValueError(f"Unknown {self.name} dump format {found!r}.")
                data = self.older[found](dict(data))
        kwargs: dict[str, Any] = {}
        for k in self._keys:
            if k.joint:
                kwargs.update(zip(k.attrs, k.load(data[k.key]), strict=True))  # type: ignore[misc]
                continue
            if k.omit and k.key not in data:
                continue
            item = data[k.key]
            kwargs[k.attrs[0]] = item if k.load is None else k.load(item)
        return self.cls(**kwargs)

    # -- from type hints to conversions ------------------------------------------------------------

    def _field(self, hint: Any, hook: Hook | None) -> Pair:
        if hook is None:
            return self._pair(hint)
        if _optional(hint) is not None:
            # A field's hook never sees None: an absent value is null either way.
            return _or_none((hook.dump, hook.load))
        return hook.dump, hook.load

    def _pair(self, hint: Any) -> Pair:
        custom = self._types.get(hint) if isinstance(hint, type) else None
        if custom is not None:
            return custom.dump, custom.load
        if hint is Any or hint in PRIMITIVES:
            return None, None
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, pytypes.UnionType):
            if all(arg in PRIMITIVES for arg in args):
                return None, None  # plain values, None among them: as they are
            inner = _optional(hint)
            if inner is not None:
                return _or_none(self._pair(inner))
            raise TypeError(f"{self.name}: give the union {hint} a hook (fields= or types=).")
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return _sequence(self._pair(args[0]))
            return _fixed([self._pair(arg) for arg in args])
        if origin in (frozenset, set):
            return _collection(self._pair(args[0]), origin)
        if origin is list:
            dump, load = _sequence(self._pair(args[0]))
            return dump, (lambda data: list(load(data)))  # type: ignore[misc]
        if origin is dict:
            return _mapping(args[0], self._pair(args[1]))
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return (lambda member: member.value), hint
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            nested = StateCodec(hint, types=self._types)
            self._types[hint] = nested
            return nested.dump, nested.load
        raise TypeError(f"{self.name}: no JSON form for {hint!r}; give it a hook (fields= or types=).")


def _optional(hint: Any) -> Any:
    """``X`` for ``X | None`` (``Optional[X]``), else None."""
    if typing.get_origin(hint) not in (typing.Union, pytypes.UnionType):
        return None
    args = typing.get_args(hint)
    if type(None) not in args:
        return None
    rest = tuple(arg for arg in args if arg is not type(None))
    return rest[0] if len(rest) == 1 else typing.Union[rest]  # noqa: UP007 - built at run time


def _or_none(pair: Pair) -> Pair:
    dump, load = pair
    return (
        None if dump is None else (lambda value: None if value is None else dump(value)),
        None if load is None else (lambda data: None if data is None else load(data)),
    )


def _sequence(pair: Pair) -> Pair:
    dump, load = pair
    if dump is None and load is None:
        return list, tuple
    d, ld = dump or _same, load or _same
    return (lambda values: [d(v) for v in values]), (lambda data: tuple(ld(v) for v in data))


def _fixed(pairs: list[Pair]) -> Pair:
    if all(d is None and ld is None for d, ld in pairs):
        return list, tuple
    dumps = [d or _same for d, _ in pairs]
    loads = [ld or _same for _, ld in pairs]
    return (
        lambda values: [d(v) for d, v in zip(dumps, values, strict=True)],
        lambda data: tuple(ld(v) for ld, v in zip(loads, data, strict=True)),
    )


def _collection(pair: Pair, kind: type) -> Pair:
    d, ld = pair[0] or _same, pair[1] or _same
    return (lambda values: [d(v) for v in sorted(values)]), (lambda data: kind(ld(v) for v in data))


def _mapping(key_type: Any, pair: Pair) -> Pair:
    d, ld = pair[0] or _same, pair[1] or _same
    if key_type is int:
        return (
            lambda value: {str(k): d(value[k]) for k in sorted(value)},
            lambda data: {int(k): ld(v) for k, v in data.items()},
        )
    if key_type is str:
        return (
            lambda value: {k: d(value[k]) for k in sorted(value)},
            lambda data: {k: ld(v) for k, v in data.items()},
        )
    raise TypeError(f"no JSON form for dict keys of {key_type!r}")


def _same(value: Any) -> Any:
    return value
