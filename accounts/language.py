"""The language switcher's target: Django's set_language, which also remembers the choice on the
account of a signed-in player (for their pages on every device, their emails and pushes)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    # set_language checks the code, the "next" address (same site only) and sets the cookie.
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        request.user.language = language
        request.user.save(update_fields=["language"])
    return response


class AccountLanguagePasswordResetForm(PasswordResetForm):
    """The reset email in the account's language, not in the language of whoever asked for it."""

    def send_mail(
        self, subject_template_name: str, email_template_name: str, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> None:
        with translation.override(context["user"].message_language):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)
