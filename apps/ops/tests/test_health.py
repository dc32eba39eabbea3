from __future__ import annotations

import datetime as dt
import io
from typing import Any
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from apps.jobs.services import schedule_tick
from apps.ops import health

pytestmark = pytest.mark.django_db


def test_liveness_answers_without_the_database(client: Client) -> None:
    with mock.patch("django.db.backends.base.base.BaseDatabaseWrapper.cursor", side_effect=DatabaseError):
        response = client.get("/saude/vivo/")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.fixture
def monitor(settings: Any) -> str:
    """The Authorization header of a monitor holding METRICS_TOKEN."""
    settings.METRICS_TOKEN = "monitor-token"
    return "Bearer monitor-token"


def test_readiness_tells_anyone_only_its_status(client: Client, settings: Any) -> None:
    settings.METRICS_TOKEN = "monitor-token"
    assert client.get("/saude/pronto/").json() == {"status": "ok"}
    assert client.get("/saude/pronto/", HTTP_AUTHORIZATION="Bearer wrong").json() == {"status": "ok"}


def test_readiness_checks_database_migrations_storage_and_queue(client: Client, monitor: str) -> None:
    response = client.get("/saude/pronto/", HTTP_AUTHORIZATION=monitor)
    assert response.status_code == 200
    assert response.json()["checks"] == {
        "database": "ok",
        "shared_store": "ok",
        "migrations": "ok",
        "storage": "ok",
        "task_queue": "ok",
    }
    assert "no-cache" in response["Cache-Control"]


def test_readiness_fails_when_the_queue_has_stopped(client: Client, monitor: str) -> None:
    schedule_tick()
    DBTaskResult.objects.update(enqueued_at=timezone.now() - dt.timedelta(hours=1))
    assert client.get("/saude/pronto/").json() == {"status": "fail"}
    response = client.get("/saude/pronto/", HTTP_AUTHORIZATION=monitor)
    assert response.status_code == 503
    assert response.json() == {
        "status": "fail",
        "checks": {
            "database": "ok",
            "shared_store": "ok",
            "migrations": "ok",
            "storage": "ok",
            "task_queue": "falhou",
        },
    }


def test_readiness_fails_without_the_database(client: Client, monitor: str) -> None:
    down = health.Check("database", False, "o banco não responde")
    with mock.patch("apps.ops.health.database", return_value=down):
        response = client.get("/saude/pronto/", HTTP_AUTHORIZATION=monitor)
    assert response.status_code == 503 and response.json()["checks"] == {"database": "falhou"}


def test_metrics_are_off_without_a_token_and_need_the_token(client: Client, settings: Any) -> None:
    assert client.get("/metricas/").status_code == 404
    settings.METRICS_TOKEN = "s3cret-token"
    assert client.get("/metricas/", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    schedule_tick()
    response = client.get("/metricas/", HTTP_AUTHORIZATION="Bearer s3cret-token")
    text = response.content.decode()
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain; version=0.0.4")
    assert 'outorga_ready{check="database"} 1' in text
    assert 'outorga_tasks{status="READY"}' in text
    assert "# TYPE outorga_public_lookups_total counter" in text


def test_outorga_status_prints_the_checks_and_fails_when_one_fails() -> None:
    output = io.StringIO()
    call_command("outorga_status", stdout=output)
    out = output.getvalue()
    assert "[ok] database" in out and "Rotina diária" in out and "E-mails: Na fila: 0" in out
    down = health.Check("storage", False, "não foi possível gravar arquivos (PermissionError)")
    with mock.patch("apps.ops.health.storage", return_value=down), pytest.raises(CommandError):
        call_command("outorga_status", stdout=io.StringIO())
