"""What the proxy, the supervisors and the operators' collector ask a process: /healthz/ and /metrics.

``/healthz/web/`` checks what this process needs to serve pages and sockets (the database and the
channel layer): a load balancer's probe. ``/healthz/`` also checks that a computer-player runner went
round its loop recently (the worker), for a supervisor or an alert. Both answer JSON, 200 or 503.

``/metrics`` is Prometheus' text format, summed over every process that writes to
``PROMETHEUS_MULTIPROC_DIR``; it is answered only to ``METRICS_ALLOWED_IPS`` or to a request bearing
``METRICS_TOKEN``.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.samples import Sample

from accounts.throttle import client_ip
from games.live import presence
from games.support import metrics

CHANNEL_LAYER_TIMEOUT_SECONDS = 2.0
# A label per method the site answers; anything else is "other" (a label's values must stay few).
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _registry() -> CollectorRegistry:
    return metrics.collected()  # every process's figures with PROMETHEUS_MULTIPROC_DIR, else this one's


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:
        return f"failed: {type(exc).__name__}"
    return "ok"


def _channel_layer() -> str:
    """A message sent through the layer to a group with no member (with Redis: one PUBLISH)."""
    layer = get_channel_layer()
    if layer is None:
        return "failed: no channel layer"

    async def publish() -> None:
        await asyncio.wait_for(layer.group_send("healthz", {"type": "healthz"}), CHANNEL_LAYER_TIMEOUT_SECONDS)

    try:
        async_to_sync(publish)()
    except Exception as exc:
        return f"failed: {type(exc).__name__}"
    return "ok"


def _runner_last_loop() -> float | None:
    """When a runner of this machine last went round its loop (Unix time), or None if none has."""
    for family in _registry().collect():
        if family.name == "turnwise_runner_last_loop_timestamp_seconds":
            values = [sample.value for sample in family.samples if isinstance(sample, Sample) and sample.value > 0]
            return max(values, default=None)
    return None


def _report(checks: dict[str, str], extra: dict[str, object]) -> JsonResponse:
    healthy = all(result == "ok" for result in checks.values())
    return JsonResponse({"status": "ok" if healthy else "failing", **checks, **extra}, status=200 if healthy else 503)


@never_cache
@require_GET
def healthz_web(request: HttpRequest) -> JsonResponse:
    # The signed-in sockets this process holds: its share of the load, as the supervisor sees it.
    return _report({"database": _database(), "channel_layer": _channel_layer()}, {"sockets": presence.count()})


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    last = _runner_last_loop()
    age = None if last is None else max(0.0, time.time() - last)
    if age is None:
        worker = "failed: no runner has run"
    elif age > settings.WORKER_STALE_SECONDS:
        worker = f"failed: last ran {age:.0f} s ago"
    else:
        worker = "ok"
    checks = {"database": _database(), "channel_layer": _channel_layer(), "worker": worker}
    return _report(checks, {"worker_last_ran_seconds_ago": None if age is None else round(age, 1)})


def _may_read_metrics(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    if token and hmac.compare_digest(request.headers.get("Authorization", ""), f"Bearer {token}"):
        return True
    return client_ip(request) in settings.METRICS_ALLOWED_IPS


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    if not _may_read_metrics(request):
        return HttpResponse("Forbidden\n", status=403, content_type="text/plain")
    return HttpResponse(generate_latest(_registry()), content_type="text/plain; version=0.0.4; charset=utf-8")


def count_requests(get_response: Callable[[HttpRequest], HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Middleware: every answered request, by method and status (no path: its values are unbounded)."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = get_response(request)
        metrics.REQUESTS.labels(request.method if request.method in _METHODS else "other", response.status_code).inc()
        return response

    return middleware
