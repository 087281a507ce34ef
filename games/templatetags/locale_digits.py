"""``{% load locale_digits %}`` ... ``{{ value|digits }}``: numbers and dates in the digits of the
active language (games.i18n.digits). For what people read only, never for form values, data-*
attributes or URLs."""

from __future__ import annotations

from typing import Any

from django import template

from games.i18n import LocalNumber
from games.i18n import digits as to_digits

register = template.Library()


@register.filter(is_safe=True)
def digits(value: Any) -> Any:
    # An integer stays an integer, so {% blocktranslate count n=x|digits %} still picks its plural.
    if isinstance(value, int) and not isinstance(value, bool):
        return LocalNumber(value)
    if value is None or value == "":
        return value
    return to_digits(value)
