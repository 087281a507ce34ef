"""A whole number a person types, shown and read in their own digits.

An ``<input type="number">`` shows and accepts ASCII digits only, whatever the page's language, so a
page read in Assamese or Nepali would show its one number in the wrong digits and refuse the reader's
own. ``LocalIntegerField`` draws a text input that opens the numeric keypad (``inputmode="numeric"``),
writes its value in the active language's digits (``games.support.i18n.digits``), reads ASCII,
Bengali-Assamese and Devanagari digits in every language, and states its range in its help text (tied
to the input by Django's ``aria-describedby``), since a text input has no ``min`` and ``max`` a screen
reader could announce. Every refusal (empty, not a whole number, out of range) is one translated
sentence that names the range in the reader's digits; Django's own messages would write the limits in
ASCII (``%(limit_value)s`` is an ``int``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.support.i18n import LocalNumber, ascii_digits, digits

# More digits than any range here needs; a longer run is refused before int() reads it.
MAX_DIGITS = 9


class LocalNumberInput(forms.TextInput):
    """A text input for a whole number: the numeric keypad on phones, the value in the reader's digits."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        # No ``pattern``: the browser would refuse a mismatch with its own message, in the browser's
        # language rather than the page's; the server's refusal is translated and says what is wanted.
        super().__init__({"inputmode": "numeric", "autocomplete": "off", "spellcheck": "false", **(attrs or {})})

    def format_value(self, value: Any) -> str | None:
        text = super().format_value(value)
        # A redrawn form shows what was typed, its digits (whichever set was typed) in the page's own.
        return None if text is None else digits(ascii_digits(text))


class LocalIntegerField(forms.Field):
    """A whole number from ``min_value`` to ``max_value``, typed in any of the site's digits.

    The limits stay plain attributes, so a view may narrow ``max_value`` for one person (the vacation
    days they have left); the help text and the refusal are written from them when the form is drawn.
    """

    widget = LocalNumberInput
    default_error_messages = {
        "required": _("Enter a whole number from %(min)s to %(max)s."),
        "invalid": _("Enter a whole number from %(min)s to %(max)s."),
        "out_of_range": _("Enter a whole number from %(min)s to %(max)s."),
    }

    def __init__(self, *, min_value: int, max_value: int, **kwargs: Any) -> None:
        self.min_value, self.max_value = min_value, max_value
        super().__init__(**kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        # As wide as the longest number allowed, as a number input is, not a text input's twenty characters.
        return {**super().widget_attrs(widget), "size": len(str(self.max_value)) + 2}

    # Django reads ``field.help_text`` when it draws the field (and then points ``aria-describedby`` at
    # it): the range is added then, in the active language, from the limits as they are at that moment.
    @property
    def help_text(self) -> str:
        hint = gettext("A whole number from %(min)s to %(max)s.") % self._range()
        return f"{self._help_text} {hint}" if self._help_text else hint

    @help_text.setter
    def help_text(self, value: str) -> None:
        self._help_text = value

    def _range(self) -> dict[str, LocalNumber]:
        return {"min": LocalNumber(self.min_value), "max": LocalNumber(self.max_value)}

    def _refuse(self, code: str) -> ValidationError:
        return ValidationError(self.error_messages[code], code=code, params=self._range())

    def to_python(self, value: Any) -> int | None:
        if value is None:
            return None
        text = ascii_digits(str(value).strip())
        if not text:
            return None
        # isascii() first: str.isdigit() is true for every script's digits, and for "²" too.
        if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
            raise self._refuse("invalid")
        return int(text)

    def validate(self, value: int | None) -> None:
        if value is None:
            if self.required:
                raise self._refuse("required")
            return
        if not self.min_value <= value <= self.max_value:
            raise self._refuse("out_of_range")
