"""The printed auto (every Olímpia art. 30 item and the appeal deadline), the notice PDFs, and the timeline
marks (events, deadlines met / due / overdue) with deadlines from the engine, around weekends and holidays."""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from apps.enforcement import pdf
from apps.enforcement.choices import EventKind, NoticeChannel, NoticePurpose
from apps.enforcement.lawbridge import sanction_preview
from apps.enforcement.models import InfractionCase
from apps.enforcement.services import case_event_add
from apps.enforcement.services.notices import notice_send
from apps.enforcement.timeline import case_timeline, defence_deadline, notice_limit_passed
from apps.enforcement.views import _appeal_text
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.tenancy.models import Municipality
from outorga.pytest_plugin import require_tools

from .test_case_open import open_auto

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes, tmp_path: Path) -> str:
    require_tools("pdftotext", package="poppler-utils")
    path = tmp_path / "doc.pdf"
    path.write_bytes(content)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def in_person(case: InfractionCase, agent: User, on: dt.date) -> None:
    notice_send(
        case=case,
        actor=agent,
        purpose=NoticePurpose.INFRACTION,
        channel=NoticeChannel.IN_PERSON,
        sent_on=on,
        as_of=on,
        signature_name="João da Silva",
    )


def test_the_printed_auto_lists_every_art_30_item_and_the_appeal_deadline(
    olimpia: Municipality, agent_olimpia: User, olimpia_licensed: tuple[Case, Permit], tmp_path: Path
) -> None:
    licensed, permit = olimpia_licensed
    case = open_auto(olimpia, agent_olimpia, plate=licensed.vehicle.plate, driver=licensed.driver)
    # Ciência on Friday 13/03/2026: 10 days end on Monday 23/03/2026 (art. 31).
    in_person(case, agent_olimpia, dt.date(2026, 3, 13))
    appeal = _appeal_text(case, dt.date(2026, 3, 13))
    content = pdf.auto_pdf(case, "advertência", appeal, [])
    text = " ".join(pdf_text(content, tmp_path).split())
    for expected in (
        "AUTO DE INFRAÇÃO",
        case.number,
        "I — Local, data e hora",
        "Rua XV de Novembro, 100",
        "12/03/2026 às 07:15",
        "II — Condutor e veículo",
        licensed.vehicle.plate,
        permit.number,
        "III — Servidor responsável",
        "Otávio Agente",
        "F-123",
        "IV — Descrição",
        "V — Dispositivo infringido",
        "Lei 5.171/2025 (Olímpia), art. 22, IV",
        "VI — Documentos",
        "Bancos sujos",
        "VII — Penalidade",
        "advertência",
        "VIII — Prazo para recurso",
        "23/03/2026",
    ):
        assert expected in text, expected


def test_the_fine_shown_on_the_auto_comes_from_the_engine(olimpia: Municipality, agent_olimpia: User) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23", infraction_code="OLI-27")
    answer = sanction_preview(case, dt.date(2026, 3, 12))
    assert answer is not None and "Multa administrativa municipal de 75 UFESP (R$ " in answer.message


def test_an_ar_notice_prints_a_letter_with_the_receipt_slip(
    olimpia: Municipality, agent_olimpia: User, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    with django_capture_on_commit_callbacks(execute=True):  # the PDF is written once the notice commits
        notice = notice_send(
            case=case,
            actor=agent_olimpia,
            purpose=NoticePurpose.INFRACTION,
            channel=NoticeChannel.AR,
            sent_on=dt.date(2026, 3, 13),
            as_of=dt.date(2026, 3, 13),
        )
    text = " ".join(pdf_text(notice.pdf.read(), tmp_path).split())
    assert "CARTA REGISTRADA (AR)" in text and case.number in text and "Aviso de recebimento" in text


def test_the_defence_deadline_skips_the_weekend_and_the_holiday(
    olimpia: Municipality, agent_olimpia: User
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    # Ciência on Thursday 26/03/2026 + 10 days = Sunday 05/04 → Monday 06/04 (first business day).
    in_person(case, agent_olimpia, dt.date(2026, 3, 26))
    deadline = defence_deadline(case, dt.date(2026, 3, 27))
    assert deadline is not None and deadline.on == dt.date(2026, 4, 6)


def test_the_defence_deadline_does_not_end_on_tiradentes(olimpia: Municipality, agent_olimpia: User) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    # Ciência on Saturday 11/04/2026 + 10 days = Tuesday 21/04 (Tiradentes) → Wednesday 22/04.
    in_person(case, agent_olimpia, dt.date(2026, 4, 11))
    deadline = defence_deadline(case, dt.date(2026, 4, 12))
    assert deadline is not None and deadline.on == dt.date(2026, 4, 22)


def test_the_timeline_marks_events_and_deadlines_due_met_and_overdue(
    olimpia: Municipality, agent_olimpia: User
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    in_person(case, agent_olimpia, dt.date(2026, 3, 13))
    statuses = {m.label: m.status for m in case_timeline(case, dt.date(2026, 3, 20))}
    assert statuses["Auto lavrado"] == "event" and statuses["Hoje"] == "today"
    assert statuses["Prazo de defesa / recurso (1ª instância)"] == "due"
    overdue = {m.label: m.status for m in case_timeline(case, dt.date(2026, 3, 24))}
    assert overdue["Prazo de defesa / recurso (1ª instância)"] == "overdue"
    case_event_add(case=case, kind=EventKind.APPEAL_FILED, actor=agent_olimpia, on=dt.date(2026, 3, 20))
    met = {m.label: m.status for m in case_timeline(case, dt.date(2026, 3, 24))}
    assert met["Prazo de defesa / recurso (1ª instância)"] == "met"


def test_the_patrocinio_limit_is_flagged_once_passed(
    patrocinio: Municipality, agent_patrocinio: User
) -> None:
    case = open_auto(patrocinio, agent_patrocinio, plate="ABC1D23", infraction_code="PAT-5")
    in_person(case, agent_patrocinio, dt.date(2026, 3, 12))
    case.refresh_from_db()
    assert case.notice_limit == dt.date(2026, 6, 10)
    assert not notice_limit_passed(case, dt.date(2026, 6, 10))
    assert notice_limit_passed(case, dt.date(2026, 6, 11))
