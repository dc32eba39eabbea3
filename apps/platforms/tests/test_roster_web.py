"""The roster sent from the web: queued at once, imported by the task worker, progress followed to the end."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.test import Client

from apps.platforms.choices import RosterImportState
from apps.platforms.models import Platform, RosterEntry, RosterImport, RosterUpload
from apps.platforms.services import roster
from apps.platforms.tests.conftest import run_tasks
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
PAGE = "/municipios/{}/aplicativos/cadastros/"
GOOD = "cpf;nome;placa;categoria_cnh\n52998224725;Ana Lima;ABC1D23;B\n11144477735;João Silva;ABC1234;AB\n"
BROKEN = "cpf;nome;placa;categoria_cnh\n52998224725;Ana Lima;ABC1D23;B\n11144477736;Dígito;ABC1235;B\n"


def login(make_staff: Any, username: str, *grants: tuple[Municipality, str]) -> Client:
    client = Client()
    client.force_login(make_staff(username, *grants))
    return client


def send(client: Client, municipality: Municipality, platform: Platform, text: str) -> Any:
    upload = SimpleUploadedFile("motoristas.csv", text.encode(), content_type="text/csv")
    return client.post(PAGE.format(municipality.ibge_code), {"platform": platform.pk, "file": upload})


def panel(client: Client, location: str) -> str:
    """The progress panel alone, as htmx asks for it every two seconds."""
    response = client.get(location, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def test_an_analyst_sends_a_roster_and_follows_it_to_the_end(
    make_staff: Any, patrocinio: Municipality, platform: Platform, issued: Any
) -> None:
    analyst = login(make_staff, "ana.patrocinio", (patrocinio, Role.ANALYST))
    response = send(analyst, patrocinio, platform, GOOD)
    assert response.status_code == 302
    record = RosterImport.objects.get()
    assert response["Location"] == f"{PAGE.format(patrocinio.ibge_code)}{record.pk}/"
    # The answer came before any line was read: the file waits for the task worker.
    assert record.uploaded_by is not None and record.uploaded_by.username == "ana.patrocinio"
    assert (record.state, record.expected_rows) == ("queued", 2)
    page = analyst.get(response["Location"]).content.decode()
    assert "Na fila" in page and 'hx-trigger="every 2s"' in page and "<html" in page
    assert not RosterEntry.objects.exists()

    run_tasks()

    done = panel(analyst, response["Location"])
    assert "<html" not in done and "hx-trigger" not in done  # finished: the page stops asking
    assert 'data-state="imported"' in done and "Importado" in done
    assert '<dd data-testid="read">2</dd>' in done and '<dd data-testid="stored">2</dd>' in done
    assert RosterEntry.objects.count() == 2 and not RosterUpload.objects.exists()
    listing = analyst.get(PAGE.format(patrocinio.ibge_code)).content.decode()
    assert "motoristas.csv" in listing and "Importado" in listing


def test_a_refused_file_lists_its_lines_and_offers_the_csv(
    make_staff: Any, patrocinio: Municipality, platform: Platform, issued: Any
) -> None:
    analyst = login(make_staff, "ana.patrocinio", (patrocinio, Role.ANALYST))
    location = send(analyst, patrocinio, platform, BROKEN)["Location"]
    run_tasks()
    done = panel(analyst, location)
    assert 'data-state="rejected"' in done and "nada foi importado" in done
    assert '<dd data-testid="rejected">1</dd>' in done and '<dd data-testid="stored">0</dd>' in done
    assert "CPF inválido" in done
    report = analyst.get(f"{location}recusas.csv")
    assert report.content.decode().splitlines()[1].startswith("3;cpf;cpf_invalid;")
    assert not RosterEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_progress_is_written_while_the_lines_are_read(
    patrocinio: Municipality, platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The progress page reads committed rows: the counters must be visible outside the worker's transaction
    while the lines are read (on PostgreSQL the roster is being stored in that transaction meanwhile)."""
    lines = ["cpf;nome;placa;categoria_cnh"] + [f"{cpf};Nome;ABC1D23;B" for cpf in _cpfs(2500)]
    lines.insert(5, "11144477736;Dígito errado;ABC1D23;B")
    record = roster.roster_upload_accept(
        actor=None,
        platform=platform,
        municipality=patrocinio,
        file_name="grande.csv",
        content="\n".join(lines).encode(),
    )
    seen: list[tuple[str, int, int]] = []
    write = roster._Progress.write

    def watch(progress: roster._Progress, finished_reading: bool = False) -> None:
        write(progress, finished_reading)
        seen.append(_as_the_page_reads(record.pk))

    monkeypatch.setattr(roster._Progress, "write", watch)
    monkeypatch.setattr(roster, "PROGRESS_EVERY_SECONDS", 0)
    roster.roster_import_run(import_id=record.pk)
    reading = RosterImportState.READING
    assert seen == [
        (reading, 1000, 1),
        (reading, 2000, 1),
        (reading, 2501, 1),
        (RosterImportState.STORING, 2501, 1),
    ]
    record.refresh_from_db()
    assert (record.expected_rows, record.state, record.stored_rows) == (2501, "rejected", 0)
    # Running the same task twice does nothing the second time.
    assert roster.roster_import_run(import_id=record.pk).state == "rejected"


def _as_the_page_reads(pk: int) -> tuple[str, int, int]:
    """The import's counters as another request would read them now (committed data only)."""
    if connection.vendor == "sqlite":
        # One writer at a time: the worker reads the file outside any transaction, so what its own connection
        # wrote is already committed.
        assert not connection.in_atomic_block
        row = RosterImport.objects.values_list("state", "total_rows", "rejected_rows").get(pk=pk)
        return (str(row[0]), row[1], row[2])
    other = connections.create_connection(DEFAULT_DB_ALIAS)
    try:
        with other.cursor() as cursor:
            cursor.execute(
                "SELECT state, total_rows, rejected_rows FROM platforms_rosterimport WHERE id = %s", [pk]
            )
            state, total, rejected = cursor.fetchone()
    finally:
        other.close()
    return (state, total, rejected)


def test_who_may_see_and_send(
    make_staff: Any, patrocinio: Municipality, olimpia: Municipality, platform: Platform, issued: Any
) -> None:
    auditor = login(make_staff, "dpo.patrocinio", (patrocinio, Role.AUDITOR_DPO))
    assert auditor.get(PAGE.format(patrocinio.ibge_code)).status_code == 200
    assert send(auditor, patrocinio, platform, GOOD).status_code == 404
    outsider = login(make_staff, "adm.olimpia", (olimpia, Role.ADMINISTRATOR))
    assert outsider.get(PAGE.format(patrocinio.ibge_code)).status_code == 404
    assert not RosterImport.objects.exists()


def test_a_platform_without_a_token_here_cannot_be_chosen(
    make_staff: Any, patrocinio: Municipality, platform: Platform
) -> None:
    analyst = login(make_staff, "ana.patrocinio", (patrocinio, Role.ANALYST))
    response = send(analyst, patrocinio, platform, GOOD)
    assert response.status_code == 200 and "Faça uma escolha válida" in response.content.decode()
    assert not RosterImport.objects.exists()


def _cpfs(count: int) -> list[str]:
    """Valid, distinct CPFs (check digits computed like the Receita Federal's)."""
    found: list[str] = []
    base = 100_000_000
    while len(found) < count:
        digits = str(base)
        for size in (9, 10):
            total = sum(int(d) * w for d, w in zip(digits, range(size + 1, 1, -1), strict=True))
            digits += str((total * 10 % 11) % 10)
        if roster.cpf_is_valid(digits):
            found.append(digits)
        base += 1
    return found
