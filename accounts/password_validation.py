"""Django's password rules, with their numbers in the reader's digits.

Django formats the minimum length with ``%d`` / ``%(min_length)d``, which always writes ASCII digits,
so the Assamese and Nepali sign-up and password forms would read "8" among their own words. The
message stays Django's (``locale_django``), its placeholder untouched; only the number it was given
is rewritten, once the sentence is made, in the active language's digits.
"""

from __future__ import annotations

from django.contrib.auth import password_validation

from games.support.i18n import digits


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return digits(super().get_error_message())

    def get_help_text(self) -> str:
        return digits(super().get_help_text())
