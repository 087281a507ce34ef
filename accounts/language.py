"""A player's language: chosen with the switcher (Django's set_language, which here also stores the
choice on the account), or, for an account that never chose, the language of the page they signed
in or up from. The account's language then serves their pages on every device (accounts.middleware),
their emails and pushes (User.message_language)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST
from django.views.i18n import JavaScriptCatalog, set_language


@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    # set_language checks the code, the "next" address (same site only) and sets the cookie.
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        request.user.language = language
        request.user.save(update_fields=["language"])
    return response


# The same for everyone reading a language, so browsers may keep it; an hour, so that new
# translations reach pages soon after a release.
@require_GET
@cache_control(public=True, max_age=3600)
def javascript_catalog(request: HttpRequest, language: str) -> HttpResponse:
    """The scripts' strings (djangojs) in ``language``: named in the address, so that each
    language's catalogue is cached on its own."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(language):
        return JavaScriptCatalog.as_view()(request)


class AccountLanguagePasswordResetForm(PasswordResetForm):
    """The reset email in the account's language, not in the language of whoever asked for it, and
    only to an address its owner proved (accounts.verification): an address typed by someone else
    must not receive another person's reset link."""

    def get_users(self, email: str) -> Iterator[Any]:
        return (user for user in super().get_users(email) if user.email_verified)

    def send_mail(
        self, subject_template_name: str, email_template_name: str, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> None:
        with translation.override(context["user"].message_language):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


@receiver(user_logged_in)
def remember_language(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """An account with no language takes the one the player signed in (or up) with."""
    if user.language or request is None:
        return
    # Set by LocaleMiddleware; a sign-in from outside a request (a test's force_login) has none.
    language = getattr(request, "LANGUAGE_CODE", None)
    if language in dict(settings.LANGUAGES) and type(user).objects.filter(pk=user.pk, language="").update(
        language=language
    ):
        user.language = language
