"""Querysets compiled to SQL once, then run again with other values: for the queries every move makes.

Django compiles a queryset to SQL each time it is evaluated, and for the small queries of a move that
costs far more CPU than the database spends on them: the waiting turns of a move's players take 0.9 ms
to compile and 0.06 ms to run; a match's seats with the match and their users 1.3 ms and 0.17 ms.
These classes build their queryset once per database (with stand-in values), keep the SQL Django wrote
and the compiler that wrote it, and run that SQL again with the real values in their places.

- :class:`CompiledRows`: the rows as the cursor returns them, for ``values_list`` querysets whose
  columns need no conversion from the database (integers and text).
- :class:`CompiledModels`: model instances with their ``select_related`` objects, converted by the
  same compiler, as iterating the queryset gives them.

Tests compare both with their querysets evaluated by Django itself (``tests/games/test_sql.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import FETCH_ONE, Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql.compiler import SQLCompiler

# Stand-ins the real values replace: integers no id ever takes, and strings no key ever holds.
_COUNTER = itertools.count(2**52)


def _stand_in(kind: type) -> int | str:
    n = next(_COUNTER)
    return -n if kind is int else f"\u2060stand-in-{n}"


Value = int | str | Sequence[int]


def _shape(value: Value) -> tuple[type, int]:
    """What a compiled statement depends on: the kind of a value and, for a list, its length."""
    if isinstance(value, str):
        return str, -1
    return int, len(value) if isinstance(value, Sequence) else -1


@dataclass
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    # (index in params, which argument, which item of a list argument or -1)
    slots: tuple[tuple[int, int, int], ...]
    compiler: SQLCompiler
    # CompiledModels: the converters of the selected columns, and which columns make the model.
    converters: dict[int, Any] | None = None
    init_list: list[str] | None = None


class CompiledRows:
    """``build(*values)`` is a queryset of the ``values`` given (each an int or a str, or a list of ints
    for an ``__in``), each used as it is (the database sees the value given); calling this runs its SQL
    with those values and returns the cursor's rows."""

    def __init__(self, build: Callable[..., QuerySet], *, using: str = "default") -> None:
        self.build = build
        self.using = using
        self._compiled: dict[tuple[str, tuple[tuple[type, int], ...]], _Compiled] = {}

    def __call__(self, *values: Value) -> list[tuple[Any, ...]]:
        return self._run(self._get(values), values)

    def _get(self, values: tuple[Value, ...]) -> _Compiled:
        shape = tuple(_shape(v) for v in values)
        key = (connections[self.using].vendor, shape)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = self._compile(shape)
        return compiled

    def _run(self, compiled: _Compiled, values: tuple[Value, ...]) -> list[tuple[Any, ...]]:
        if not compiled.sql:
            return []
        params = list(compiled.params)
        for index, argument, item in compiled.slots:
            value = values[argument]
            params[index] = value[item] if item >= 0 else value  # type: ignore[index]
        with connections[self.using].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            return cursor.fetchall()

    def _compile(self, shape: tuple[tuple[type, int], ...]) -> _Compiled:
        stand_ins: dict[int | str, tuple[int, int]] = {}
        arguments: list[int | str | list[int]] = []
        for argument, (kind, length) in enumerate(shape):
            if length < 0:
                value = _stand_in(kind)
                stand_ins[value] = (argument, -1)
                arguments.append(value)
            else:
                values = [_stand_in(int) for _ in range(length)]
                stand_ins.update({v: (argument, item) for item, v in enumerate(values)})
                arguments.append(values)  # type: ignore[arg-type]
        compiler = self.build(*arguments).query.get_compiler(using=self.using)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:  # e.g. an empty list for an ``__in``: no rows, whatever the values
            return _Compiled("", (), (), compiler)
        slots = tuple(
            (index, *stand_ins[p])
            for index, p in enumerate(params)
            if isinstance(p, int | str) and not isinstance(p, bool) and p in stand_ins
        )
        if len(slots) != len(stand_ins):
            raise ValueError("Each value must appear exactly once among the query's parameters.")
        return _Compiled(sql, tuple(params), slots, compiler)


class CompiledModels(CompiledRows):
    """As :class:`CompiledRows`, for a queryset of model instances (``select_related`` followed, no
    ``only``/``defer``, annotations or prefetches); returns the instances."""

    def __call__(self, *values: Value) -> list[Model]:  # type: ignore[override]
        compiled = self._get(values)
        rows = self._run(compiled, values)
        if not rows:
            return []
        compiler = compiled.compiler
        if compiled.converters is None:
            compiled.converters = compiler.get_converters([s[0] for s in compiler.select[0 : compiler.col_count]])
        klass_info = compiler.klass_info
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        if compiled.init_list is None:
            compiled.init_list = [f[0].target.attname for f in compiler.select[start:end]]
        converted = compiler.apply_converters(rows, compiled.converters) if compiled.converters else rows
        model: type[Model] = klass_info["model"]
        # Made again for each call: a populator keeps state of its own.
        related = get_related_populators(klass_info, compiler.select, self.using, FETCH_ONE)
        objects = []
        for row in converted:
            obj = model.from_db(self.using, compiled.init_list, row[start:end], fetch_mode=FETCH_ONE)
            for populator in related:
                populator.populate(row, obj)
            objects.append(obj)
        return objects
