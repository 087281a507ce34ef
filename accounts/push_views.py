"""The browser's side of Web Push: the service worker, and keeping or dropping a subscription."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import push
from games.support import untrusted


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """Served from the root so its scope covers the whole site."""
    response = HttpResponse(render_to_string("push/sw.js"), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # browsers then pick up a changed worker at once
    return response


def _refused(code: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _body(request: HttpRequest) -> dict[str, object]:
    """The JSON posted, read with the bounded reader (BadInput: too big, too deep, not JSON)."""
    body = untrusted.loads(request.body)
    return body if isinstance(body, dict) else {}


@login_required
@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """Takes the browser's ``PushSubscription.toJSON()``."""
    try:
        body = _body(request)
    except untrusted.BadInput as exc:
        return _refused("invalid", exc.message)
    keys = body.get("keys") if isinstance(body.get("keys"), dict) else {}
    try:
        push.subscribe(
            user=request.user,
            endpoint=str(body.get("endpoint") or ""),
            p256dh=str(keys.get("p256dh") or ""),  # type: ignore[union-attr]
            auth=str(keys.get("auth") or ""),  # type: ignore[union-attr]
        )
    except push.EndpointTaken as exc:
        return _refused("taken", exc.message, status=409)
    except push.PushError as exc:
        return _refused("invalid", exc.message)
    return JsonResponse({"subscribed": True, "message": _("Notifications are on for this browser.")})


@login_required
@require_POST
def unsubscribe(request: HttpRequest) -> JsonResponse:
    try:
        body = _body(request)
    except untrusted.BadInput as exc:
        return _refused("invalid", exc.message)
    push.unsubscribe(user=request.user, endpoint=str(body.get("endpoint") or ""))
    return JsonResponse({"subscribed": False, "message": _("Notifications are off for this browser.")})
