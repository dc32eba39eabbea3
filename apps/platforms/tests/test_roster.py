"""Roster import: every line validated, refused lines reported with number and reason, never half-imported."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.platforms.models import Platform, RosterEntry, RosterUpload
from apps.platforms.services import roster
from apps.platforms.tests.conftest import PLATFORM_CNPJ, run_tasks, url
from apps.registry.identifiers import validate_cpf
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
GOOD = "cpf;nome;placa;categoria_cnh;validade_cnh\n529.982.247-25;Ana Lima;ABC1D23;B;31/12/2030\n"
GOOD_2 = "cpf,nome,placa,categoria_cnh\n11144477735,João Silva,ABC-1234,AB\n39053344705,Rita Paz,QWE2R34,b\n"


def upload(api: Client, municipality: Municipality, text: str | bytes, name: str = "cadastro.csv") -> Any:
    """Send the file (queued: 202), let the task worker import it, and answer the import's final state."""
    data = text.encode() if isinstance(text, str) else text
    queued = api.post(url(municipality.ibge_code, "roster/"), {"file": SimpleUploadedFile(name, data)})
    assert queued.status_code == 202
    assert (queued.json()["state"], queued.json()["finished"]) == ("queued", False)
    run_tasks()
    return api.get(queued["Location"])


def state(response: Any) -> str:
    assert response.status_code == 200
    return str(response.json()["state"])


def test_a_clean_file_replaces_the_roster_whole(api: Client, patrocinio: Municipality) -> None:
    assert state(upload(api, patrocinio, GOOD)) == "imported"
    response = upload(api, patrocinio, GOOD_2)
    assert state(response) == "imported"
    assert (response.json()["total_rows"], response.json()["stored_rows"]) == (2, 2)
    assert sorted(RosterEntry.objects.values_list("cpf", "plate", "cnh_category")) == [
        ("11144477735", "ABC1234", "AB"),
        ("39053344705", "QWE2R34", "B"),
    ]


def test_broken_rows_refuse_the_file_and_keep_the_old_roster(api: Client, patrocinio: Municipality) -> None:
    upload(api, patrocinio, GOOD)
    broken = (
        "cpf;nome;placa;categoria_cnh\n"
        "11144477735;João;ABC1234;B\n"
        "11144477736;Dígito errado;ABC1235;B\n"
        "11144477735;Repetido;ABC1236;B\n"
        "39053344705;;ZZ-12;X\n"
        "39053344705;Poucos campos\n"
        "\n"
        "12345678909;Ok;AAA9A99;D\n"
    )
    response = upload(api, patrocinio, broken)
    assert state(response) == "rejected" and response.json()["stored_rows"] == 0
    report = response.json()
    assert report["state"] == "rejected" and (report["total_rows"], report["rejected_rows"]) == (6, 4)
    assert [(r["line"], r["code"]) for r in report["rejections"]] == [
        (3, "cpf_invalid"),
        (4, "duplicate_cpf"),
        (5, "name_invalid"),
        (5, "plate_invalid"),
        (5, "cnh_category_invalid"),
        (6, "field_count"),
    ]
    assert "linha 2" in report["rejections"][1]["message"]
    assert list(RosterEntry.objects.values_list("cpf", flat=True)) == ["52998224725"]  # old roster intact
    csv_report = api.get(url(patrocinio.ibge_code, f"roster/{report['id']}/?report=csv"))
    assert csv_report["Content-Type"].startswith("text/csv")
    assert csv_report.content.decode().splitlines()[1].startswith("3;cpf;cpf_invalid;")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "file_empty"),
        ("cpf;nome;placa;categoria_cnh;telefone\n52998224725;A;ABC1D23;B;9999\n", "unknown_column"),
        ("cpf;nome;placa\n52998224725;A;ABC1D23\n", "missing_column"),
        (b"cpf;nome;placa;categoria_cnh\n\xff\xfe;A;B;C\n", "encoding_invalid"),
        ("cpf;nome;placa;categoria_cnh;validade_cnh\n52998224725;A;ABC1D23;B;31/02/2030\n", "date_invalid"),
    ],
)
def test_bad_files_are_refused_with_a_code(
    api: Client, patrocinio: Municipality, text: str | bytes, code: str
) -> None:
    response = upload(api, patrocinio, text)
    assert state(response) == "rejected"
    assert code in {r["code"] for r in response.json()["rejections"]}
    assert not RosterEntry.objects.exists()


def test_no_file_gets_a_code(api: Client, patrocinio: Municipality) -> None:
    response = api.post(url(patrocinio.ibge_code, "roster/"), {})
    assert (response.status_code, response.json()["code"]) == (400, "file_missing")


def test_a_failure_while_inserting_leaves_nothing(
    api: Client, patrocinio: Municipality, monkeypatch: pytest.MonkeyPatch
) -> None:
    upload(api, patrocinio, GOOD)

    def explode(*args: Any) -> None:
        raise RuntimeError("disco cheio")

    monkeypatch.setattr(roster, "_insert_entries", explode)
    response = upload(api, patrocinio, GOOD_2)
    assert state(response) == "failed" and response.json()["finished"]
    assert list(RosterEntry.objects.values_list("cpf", flat=True)) == ["52998224725"]
    assert not RosterUpload.objects.exists()  # the CPFs of the file are not kept


def test_another_platform_cannot_read_the_report(api: Client, patrocinio: Municipality, issued: Any) -> None:
    from apps.platforms.services import credential_issue, platform_create

    pk = upload(api, patrocinio, GOOD).json()["id"]
    rival = platform_create(actor=None, name="Outra", cnpj="11444777000161")
    other = Client(
        HTTP_AUTHORIZATION=f"Bearer {credential_issue(actor=None, platform=rival, municipality=patrocinio).token}"
    )
    assert other.get(url(patrocinio.ibge_code, f"roster/{pk}/")).status_code == 404


def test_the_command_imports_with_progress_and_writes_the_report(
    platform: Platform, patrocinio: Municipality, tmp_path: Path
) -> None:
    good = tmp_path / "ok.csv"
    good.write_text(GOOD_2, encoding="utf-8")
    call_command("platform_roster_import", str(good), cnpj=PLATFORM_CNPJ, municipality=patrocinio.ibge_code)
    assert RosterEntry.objects.count() == 2
    bad, report = tmp_path / "bad.csv", tmp_path / "report.json"
    bad.write_text("cpf;nome;placa;categoria_cnh\n1;A;B;Z\n", encoding="utf-8")
    with pytest.raises(CommandError, match="Nada foi importado"):
        call_command(
            "platform_roster_import",
            str(bad),
            cnpj=PLATFORM_CNPJ,
            municipality=patrocinio.ibge_code,
            report=report,
        )
    assert {r["code"] for r in json.loads(report.read_text())} == {
        "cpf_invalid",
        "plate_invalid",
        "cnh_category_invalid",
    }
    assert RosterEntry.objects.count() == 2


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789", min_size=11, max_size=11))
def test_the_fast_cpf_check_agrees_with_the_registry(digits: str) -> None:
    try:
        expected = validate_cpf(digits) == digits
    except ValidationError:
        expected = False
    assert roster.cpf_is_valid(digits) is expected


def test_valid_cpfs_are_accepted_by_the_fast_check() -> None:
    assert all(roster.cpf_is_valid(c) for c in ("52998224725", "11144477735", "39053344705", "12345678909"))
    assert not roster.cpf_is_valid("00000000000")
    assert roster.read_csv(io.StringIO(GOOD)).rejections == []


def test_free_text_with_tabs_and_backslashes_is_stored_as_sent(api: Client, patrocinio: Municipality) -> None:
    text = 'cpf;nome;placa;categoria_cnh\n52998224725;"Ana\\\\Lima\tde Souza";ABC1D23;B\n'
    assert state(upload(api, patrocinio, text)) == "imported"
    assert RosterEntry.objects.get().name == "Ana\\\\Lima\tde Souza"


def import_text(platform: Platform, municipality: Municipality, text: str) -> Any:
    """The command's path: the file read and stored in this process, line by line."""
    return roster.roster_import(
        platform=platform, municipality=municipality, file_name="cadastro.csv", stream=io.StringIO(text)
    )


def numbered_cpfs(count: int) -> list[str]:
    found: list[str] = []
    base = 100_000_000
    while len(found) < count:
        digits = str(base)
        for size in (9, 10):
            total = sum(int(d) * w for d, w in zip(digits, range(size + 1, 1, -1), strict=True))
            digits += str(total * 10 % 11 % 10)
        if roster.cpf_is_valid(digits):
            found.append(digits)
        base += 1
    return found


def test_a_refusal_after_stored_batches_leaves_nothing_and_lists_every_line(
    platform: Platform, patrocinio: Municipality, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines are inserted while the file is read: a refused line late in the file must undo the batches
    already inserted, and the lines after it must still be checked and reported."""
    assert import_text(platform, patrocinio, GOOD).state == "imported"
    monkeypatch.setattr(roster, "INSERT_BATCH", 2)
    cpfs = numbered_cpfs(9)
    lines = [f"{cpf};Nome {i};ABC1D2{i};B" for i, cpf in enumerate(cpfs)]
    lines[6] = f"{cpfs[6]};Nome;placa ruim;B"
    lines.append(f"{cpfs[0]};De novo;ABC1D23;B")
    record = import_text(platform, patrocinio, "cpf;nome;placa;categoria_cnh\n" + "\n".join(lines) + "\n")
    assert (record.state, record.total_rows, record.rejected_rows, record.stored_rows) == (
        "rejected",
        10,
        2,
        0,
    )
    assert [(r["line"], r["code"]) for r in record.rejections] == [
        (8, "plate_invalid"),
        (11, "duplicate_cpf"),
    ]
    assert list(RosterEntry.objects.values_list("cpf", flat=True)) == ["52998224725"]
    monkeypatch.setattr(roster, "INSERT_BATCH", 3)  # a clean file whose size is not a multiple of the batch
    del lines[6:]
    record = import_text(platform, patrocinio, "cpf;nome;placa;categoria_cnh\n" + "\n".join(lines) + "\n")
    assert (record.state, record.stored_rows) == ("imported", 6)
    assert sorted(RosterEntry.objects.values_list("cpf", flat=True)) == sorted(cpfs[:6])
    assert set(RosterEntry.objects.values_list("roster_import", flat=True)) == {record.pk}


def test_the_same_drivers_again_replace_themselves(platform: Platform, patrocinio: Municipality) -> None:
    first = import_text(platform, patrocinio, GOOD)
    second = import_text(platform, patrocinio, GOOD.replace("Ana Lima", "Ana Lima Souza"))
    assert (first.state, second.state) == ("imported", "imported")
    assert list(RosterEntry.objects.values_list("roster_import", "cpf", "name")) == [
        (second.pk, "52998224725", "Ana Lima Souza")
    ]


def test_an_import_replaces_only_its_platform_in_its_town(
    platform: Platform, patrocinio: Municipality, olimpia: Municipality
) -> None:
    from apps.platforms.services import platform_create

    rival = platform_create(actor=None, name="Outra", cnpj="11444777000161")
    import_text(rival, patrocinio, GOOD)
    import_text(platform, olimpia, GOOD)
    import_text(platform, patrocinio, GOOD)
    assert import_text(platform, patrocinio, GOOD_2).state == "imported"
    assert sorted(RosterEntry.objects.values_list("platform", "municipality", "cpf")) == sorted(
        [
            (rival.pk, patrocinio.pk, "52998224725"),
            (platform.pk, olimpia.pk, "52998224725"),
            (platform.pk, patrocinio.pk, "11144477735"),
            (platform.pk, patrocinio.pk, "39053344705"),
        ]
    )


def test_cells_are_stored_in_their_normal_form(platform: Platform, patrocinio: Municipality) -> None:
    text = (
        "cpf;nome;placa;categoria_cnh;validade_cnh\n"
        '529.982.247-25; Ana Lima ;"abc-1d23\n";  ab ;31/12/2030\n'
        "111 444 777 35;João;ABC1234;B; 2030-12-31 \n"
        "39053344705;Rita;QWE2R34;b;\n"
    )
    record = import_text(platform, patrocinio, text)
    assert (record.state, record.rejections) == ("imported", [])
    assert sorted(
        RosterEntry.objects.values_list("line", "cpf", "name", "plate", "cnh_category", "cnh_expiry")
    ) == [
        (3, "52998224725", "Ana Lima", "ABC1D23", "AB", dt.date(2030, 12, 31)),  # a two-line cell
        (4, "11144477735", "João", "ABC1234", "B", dt.date(2030, 12, 31)),
        (5, "39053344705", "Rita", "QWE2R34", "B", None),
    ]


def test_lookalike_digits_and_repeated_bad_dates_are_refused(
    platform: Platform, patrocinio: Municipality
) -> None:
    arabic = "٥٢٩٩٨٢٢٤٧٢٥"  # 52998224725 in Arabic-Indic digits: a digit to \d, not to the Receita Federal
    text = (
        "cpf;nome;placa;categoria_cnh;validade_cnh\n"
        f"{arabic};Ana;ABC1D23;B;\n"
        "11144477735;João;ABC1234;B;31/02/2030\n"
        "39053344705;Rita;QWE2R34;B;31/02/2030\n"
    )
    record = import_text(platform, patrocinio, text)
    assert [(r["line"], r["code"]) for r in record.rejections] == [
        (2, "cpf_invalid"),
        (3, "date_invalid"),
        (4, "date_invalid"),
    ]
    assert not roster.cpf_is_valid("５２９９８２２４７２５") and not roster.cpf_is_valid(arabic)
