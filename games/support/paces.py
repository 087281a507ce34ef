"""Paces a match creator may pick: seconds per move (None: no limit), with their labels.

A leaf module (translation only), so the model, the forms and the services all read it without
importing one another.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

PACES: list[tuple[int | None, Promise]] = [
    (None, _("No time limit")),
    (10 * 60, _("10 minutes per move (live)")),
    (24 * 3600, _("1 day per move")),
    (3 * 24 * 3600, _("3 days per move")),
    (7 * 24 * 3600, _("7 days per move")),
]


def label(seconds: int | None) -> str:
    """The label of a pace, or "" for a pace no longer offered."""
    return next((str(text) for pace, text in PACES if pace == seconds), "")
