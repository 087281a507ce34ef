"""A signed-in player's pages in the language stored on their account.

LocaleMiddleware has already chosen from the cookie or the browser's Accept-Language (it runs before
authentication); the account overrides that, so the player reads the same language on every device.
An account with no language yet takes the one its first signed-in page was shown in, so its emails
and pushes are written in the language the player reads the site in.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


def account_language(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        user = request.user
        if user.is_authenticated:
            if user.language:
                translation.activate(user.language)
                request.LANGUAGE_CODE = user.language
            else:
                remember(user, request.LANGUAGE_CODE)
        return get_response(request)

    return middleware


def remember(user: object, language: str) -> None:
    """Store ``language`` on the account, unless one was stored meanwhile (another tab, say)."""
    from accounts.models import User

    if User.objects.filter(pk=user.pk, language="").update(language=language):
        user.language = language
