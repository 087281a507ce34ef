"""A signed-in player's pages in the language stored on their account.

LocaleMiddleware has already chosen from the cookie or the browser's Accept-Language (it runs before
authentication); the account overrides that, so the player reads the same language on every device.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


def account_language(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        user = request.user
        if user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        return get_response(request)

    return middleware
