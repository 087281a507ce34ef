"""The public status page: live figures of the move path, of every process, from Prometheus' figures (no query)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.live import presence
from games.support import metrics


@require_GET
def status_page(request: HttpRequest) -> HttpResponse:
    figures = metrics.snapshot(sockets=presence.count())
    return render(
        request,
        "games/status.html",
        {
            "figures": figures,
            "window_minutes": metrics.LATENCY_MAX_AGE_SECONDS // 60,
            "window_samples": metrics.LATENCY_SAMPLES,
        },
    )
