"""``{% load locale_digits %}`` ... ``{{ value|digits }}``: numbers and dates in the digits of the
active language (games.support.i18n.digits). For what people read only, never for form values, data-*
attributes or URLs."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import pgettext

from games.support.i18n import LocalNumber
from games.support.i18n import digits as to_digits

register = template.Library()


@register.filter(is_safe=True)
def digits(value: Any) -> Any:
    # An integer stays an integer, so {% blocktranslate count n=x|digits %} still picks its plural.
    if isinstance(value, int) and not isinstance(value, bool):
        return LocalNumber(value)
    if value is None or value == "":
        return value
    return to_digits(value)


@register.filter
def clock_time(value: datetime) -> str:
    """``value``'s time of day with its time zone, as the reader writes both: "14:05 UTC", in Assamese
    "১৪:০৫ ইউটিচি". The date filter's ``e`` writes the zone's name in Latin letters."""
    zone = timezone.get_current_timezone_name()
    # The site's zone is UTC (settings.TIME_ZONE); another zone's name is shown as it is.
    name = pgettext("time zone", "UTC") if zone == "UTC" else zone
    return f"{to_digits(date_format(timezone.localtime(value), 'H:i'))} {name}"
