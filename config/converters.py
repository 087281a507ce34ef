"""Path converters: a value the database cannot hold is a 404 before any query."""

from __future__ import annotations


class RowId:
    """A database row id: at most 18 digits (a bigger number overflows the databases' 64-bit integers)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class Name:
    """A username or token in a path: any text but a slash or NUL (PostgreSQL refuses NUL in a query)."""

    regex = "[^/\x00]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
