"""Request metrics by route name and status, the access log as JSON with the request id, X-Request-ID."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import DatabaseError, connections
from django.test import Client

from apps.ops import counters
from apps.ops.logging import JsonFormatter
from apps.ops.models import MetricSeries

pytestmark = pytest.mark.django_db


@pytest.fixture
def metrics(client: Client, settings: Any) -> Any:
    """/metricas/ as Prometheus reads it, starting from zero (sums of earlier tests in this process dropped)."""
    settings.METRICS_TOKEN = "segredo"
    counters.counters_flush()
    MetricSeries.objects.all().delete()
    return lambda: client.get("/metricas/", HTTP_AUTHORIZATION="Bearer segredo").content.decode()


@pytest.fixture
def access_log() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("outorga.request")
    logger.addHandler(handler)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)


def sample(text: str, series: str) -> float | None:
    match = re.search(rf"^{re.escape(series)} (\S+)$", text, re.M)
    return float(match[1]) if match else None


def test_requests_are_counted_by_route_and_status_with_a_latency_histogram(
    client: Client, metrics: Any
) -> None:
    client.get("/consulta/")
    client.get("/consulta/")
    client.get("/nao-existe/")
    text = metrics()
    assert sample(text, 'outorga_http_requests_total{method="GET",route="public:search",status="200"}') == 2
    assert sample(text, 'outorga_http_requests_total{method="GET",route="unmatched",status="404"}') == 1
    assert "# TYPE outorga_http_request_duration_seconds histogram" in text
    assert sample(text, 'outorga_http_request_duration_seconds_bucket{le="+Inf",route="public:search"}') == 2
    assert sample(text, 'outorga_http_request_duration_seconds_count{route="public:search"}') == 2
    total = sample(text, 'outorga_http_request_duration_seconds_sum{route="public:search"}')
    assert total is not None and 0 < total < 60
    buckets = [float(v) for v in re.findall(r'_bucket\{le="[^"]+",route="public:search"\} (\S+)', text)]
    assert buckets == sorted(buckets) and len(buckets) == 11  # cumulative, ten bounds and +Inf


def test_sums_of_every_process_add_up_in_the_database(metrics: Any, settings: Any) -> None:
    """Another process's sums are already in the table; this process adds its own on top."""
    MetricSeries.objects.create(
        name="outorga_http_requests_total", labels='method="GET",route="public:search",status="200"', value=40
    )
    settings.OPS_COUNTER_FLUSH_SECONDS = 3600
    Client().get("/consulta/")
    assert counters.pending_total("outorga_http_requests_total") == 1  # not written yet: no row lock taken
    assert (
        sample(metrics(), 'outorga_http_requests_total{method="GET",route="public:search",status="200"}')
        == 41
    )


def test_the_access_log_is_json_with_the_request_id_the_response_carries(
    client: Client, access_log: io.StringIO
) -> None:
    response = client.get("/consulta/", HTTP_X_REQUEST_ID="balcao-1234-abcd")
    assert response["X-Request-ID"] == "balcao-1234-abcd"
    line = json.loads(access_log.getvalue().splitlines()[-1])
    assert line["request_id"] == "balcao-1234-abcd" and line["logger"] == "outorga.request"
    assert (line["method"], line["route"], line["status"], line["level"]) == (
        "GET",
        "public:search",
        200,
        "INFO",
    )
    assert line["duration_ms"] >= 0 and line["time"].endswith("+00:00")
    # An id that could smuggle text into logs or headers is replaced by a fresh one.
    forged = client.get("/consulta/", HTTP_X_REQUEST_ID="x\r\nSet-Cookie: a=b")["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f-]{36}", forged)
    assert json.loads(access_log.getvalue().splitlines()[-1])["request_id"] == forged


def test_the_query_string_never_reaches_the_log(client: Client, access_log: io.StringIO) -> None:
    client.get("/consulta/", {"municipio": "3533908", "q": "ABC1D23"})
    assert "ABC1D23" not in access_log.getvalue()


def test_json_lines_carry_exceptions_and_extra_fields() -> None:
    logger = logging.getLogger("outorga.test")
    try:
        raise ValueError("falhou")
    except ValueError:
        record = logger.makeRecord("outorga.test", logging.ERROR, __file__, 1, "erro %s", ("x",), None)
        record.exc_info = __import__("sys").exc_info()
    record.municipality = "3533908"
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "erro x" and line["municipality"] == "3533908"
    assert "ValueError: falhou" in line["exception"] and "request_id" not in line


def test_a_refused_flush_keeps_the_sums_and_the_exit_flush_tries_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A flush the database refuses (a deadlock between two processes, say) loses nothing: the sums stay pending,
    and the last flush at exit tries again instead of giving up on the first refusal."""
    counters.counters_flush()
    MetricSeries.objects.filter(name="outorga_test_total").delete()
    counters.counter_add("outorga_test_total", {"route": "b"})
    counters.counter_add("outorga_test_total", {"route": "a"}, 2)
    calls: list[str] = []
    real = connections

    class RefusingOnce:
        def __getitem__(self, alias: str) -> Any:
            calls.append(alias)
            if len(calls) == 1:
                raise DatabaseError("deadlock detected")
            return real[alias]

    monkeypatch.setattr("apps.ops.counters.connections", RefusingOnce())
    monkeypatch.setattr("apps.ops.counters.time.sleep", lambda _seconds: None)
    counters._flush_at_exit()
    monkeypatch.undo()
    stored = dict(MetricSeries.objects.filter(name="outorga_test_total").values_list("labels", "value"))
    assert stored == {'route="a"': 2.0, 'route="b"': 1.0}
    assert len(calls) == 2 and counters.pending_total("outorga_test_total") == 0
