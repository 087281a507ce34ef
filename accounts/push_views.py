"""The browser's side of Web Push: the service worker, and keeping or dropping a subscription."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import push


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """Served from the root so its scope covers the whole site."""
    response = HttpResponse(render_to_string("push/sw.js"), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # browsers then pick up a changed worker at once
    return response


def _body(request: HttpRequest) -> dict[str, object]:
    try:
        body = json.loads(request.body)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


@login_required
@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """Takes the browser's ``PushSubscription.toJSON()``."""
    body = _body(request)
    keys = body.get("keys") if isinstance(body.get("keys"), dict) else {}
    try:
        push.subscribe(
            user=request.user,
            endpoint=str(body.get("endpoint") or ""),
            p256dh=str(keys.get("p256dh") or ""),  # type: ignore[union-attr]
            auth=str(keys.get("auth") or ""),  # type: ignore[union-attr]
        )
    except push.PushError as exc:
        return JsonResponse({"error": {"code": "invalid", "message": exc.message}}, status=400)
    return JsonResponse({"subscribed": True, "message": _("Notifications are on for this browser.")})


@login_required
@require_POST
def unsubscribe(request: HttpRequest) -> JsonResponse:
    push.unsubscribe(user=request.user, endpoint=str(_body(request).get("endpoint") or ""))
    return JsonResponse({"subscribed": False, "message": _("Notifications are off for this browser.")})
