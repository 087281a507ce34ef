"""/healthz/ and /metrics: what the proxy, the supervisors and the operators' collector ask a process."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games.support import metrics


@pytest.fixture
def no_runner() -> Iterator[None]:
    """As in a process where no runner has gone round its loop (the gauge's starting value)."""
    kept = metrics.RUNNER_LOOP._value.get()
    metrics.RUNNER_LOOP.set(0)
    yield
    metrics.RUNNER_LOOP.set(kept)


@pytest.mark.django_db
def test_web_health_reports_the_database_the_channel_layer_and_this_process_sockets(
    client: Client, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(1):
        response = client.get("/healthz/web/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok", "sockets": 0}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_health_fails_until_a_worker_has_gone_round_its_loop(client: Client, no_runner: None) -> None:
    response = client.get("/healthz/")
    assert response.status_code == 503
    assert response.json()["worker"] == "failed: no runner has run"
    metrics.record_runner_loop()
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json()["worker"] == "ok"


@pytest.mark.django_db
def test_health_fails_when_the_worker_last_ran_too_long_ago(client: Client, no_runner: None, settings: Any) -> None:
    import time

    metrics.record_runner_loop(time.time() - settings.WORKER_STALE_SECONDS - 5)
    response = client.get("/healthz/")
    assert response.status_code == 503
    assert re.fullmatch(r"failed: last ran \d+ s ago", response.json()["worker"])


def test_health_fails_when_the_database_cannot_be_reached(client: Client) -> None:
    """Without the django_db mark, pytest-django refuses every connection: the check reports it."""
    response = client.get("/healthz/web/")
    assert response.status_code == 503
    assert response.json()["status"] == "failing"
    assert response.json()["database"].startswith("failed: ")
    assert response.json()["channel_layer"] == "ok"


def test_metrics_answer_the_allowed_addresses_in_prometheus_format(client: Client) -> None:
    metrics.record_move()
    response = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    text = response.content.decode()
    for name in (
        "turnwise_moves_total",
        "turnwise_http_requests_total",
        "turnwise_push_latency_seconds_bucket",
        "turnwise_sockets",
        "turnwise_bot_queue_delay_seconds_bucket",
    ):
        assert name in text, name


def test_metrics_refuse_other_addresses_and_a_wrong_token(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = "a-long-random-token"
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9").status_code == 403
    assert client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    allowed = client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer a-long-random-token")
    assert allowed.status_code == 200


def test_metrics_read_the_client_address_from_the_trusted_proxy_header_only(client: Client, settings: Any) -> None:
    """Behind nginx the socket peer is nginx (127.0.0.1): the address it appended decides."""
    settings.TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXY_COUNT = 1
    forwarded = client.get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1, 203.0.113.9")
    assert forwarded.status_code == 403


@pytest.mark.django_db
def test_requests_are_counted_by_method_and_status(client: Client) -> None:
    counter = metrics.REQUESTS.labels("GET", "404")
    before = counter._value.get()
    client.get("/no-such-page/")
    assert counter._value.get() == before + 1
