"""Engine sentences (``engine.Text``) in the viewer's language.

Engines stay free of Django, so they hand over an English message id and its parameters; the
translation happens here, where a page, a refusal or a push is rendered, under the language active
for that viewer.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext

from games.engine import Text


def localize(text: Text | str) -> str:
    """``text`` translated into the active language, its parameters filled in (and translated too)."""
    if isinstance(text, str):
        return gettext(text) if text else text
    params = {key: _param(value) for key, value in text.params.items()}
    message = gettext(text.message)
    return message % params if params else message


def _param(value: Any) -> Any:
    if isinstance(value, Text):
        return localize(value)
    # Counts and scores read in the viewer's digits ("%(n)s"); "%(n)d" still gets a number.
    if isinstance(value, int) and not isinstance(value, bool):
        return LocalNumber(value)
    return value


# The zero of each language's own digits; languages not listed write ASCII digits.
_ZERO = {"as": 0x09E6, "ne": 0x0966}  # BENGALI DIGIT ZERO, DEVANAGARI DIGIT ZERO
_ASCII_DIGITS = "0123456789"
_TABLES = {
    language: str.maketrans(_ASCII_DIGITS, "".join(chr(zero + n) for n in range(10)))
    for language, zero in _ZERO.items()
}


def digits(value: Any, language: str | None = None) -> str:
    """``value`` as text, its ASCII digits written in ``language``'s own (the active language's by
    default): Bengali-Assamese digits for Assamese, Devanagari for Nepali. Only for what people
    read; form values, data attributes, URLs and the API keep ASCII digits."""
    table = _TABLES.get(language or get_language() or "")
    text = str(value)
    return text.translate(table) if table else text


# Typed digits back to ASCII: both local sets are read in every language (a Nepali reader on the
# English page may still type with a Devanagari keyboard); other scripts' digits are not.
_FROM_LOCAL = str.maketrans({chr(zero + n): str(n) for zero in _ZERO.values() for n in range(10)})


def ascii_digits(text: str) -> str:
    """``text`` with its Bengali-Assamese and Devanagari digits written as ASCII ones, the rest as it is:
    the reverse of ``digits``, for a number a person typed."""
    return text.translate(_FROM_LOCAL)


def readable(value: Any) -> Any:
    """``value`` with every integer in it (through dicts, lists and tuples) a ``LocalNumber``: an
    engine event handed to a game's sentences shows its counts, points and rounds in the reader's
    digits, while strings (card codes, squares) stay as they are."""
    if isinstance(value, int) and not isinstance(value, bool):
        return LocalNumber(value)
    if isinstance(value, dict):
        return {key: readable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [readable(item) for item in value]
    if isinstance(value, tuple):
        return tuple(readable(item) for item in value)
    return value


class LocalNumber(int):
    """An integer that reads in the active language's digits: ``{% blocktranslate count n=x|digits %}``
    needs a number to choose the plural form, and shows ``{{ n }}`` as the language writes it."""

    def __str__(self) -> str:
        return digits(int(self))

    def __format__(self, spec: str) -> str:
        return digits(format(int(self), spec))
