"""Responses for a signed-in person are theirs alone: no shared or browser cache may keep them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control
from django.utils.decorators import sync_and_async_middleware

Handler = Callable[[HttpRequest], HttpResponseBase | Awaitable[HttpResponseBase]]


def _mark(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    # A match page holds a seat's hand, and the back button or a shared proxy must not show it to the
    # next person at the keyboard. Views that chose their own caching keep it.
    if request.user.is_authenticated and not response.has_header("Cache-Control"):
        patch_cache_control(response, private=True, no_store=True)
    return response


@sync_and_async_middleware
def private_no_store(get_response: Handler) -> Handler:
    """Send ``Cache-Control: private, no-store`` on every response to a signed-in user."""
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            return _mark(request, await get_response(request))

    else:

        def middleware(request: HttpRequest) -> HttpResponseBase:
            return _mark(request, get_response(request))

    return middleware
