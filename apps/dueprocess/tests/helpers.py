"""Building a case step by step through the real services (no fixtures that skip a rule)."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from django.core.files.uploadedfile import SimpleUploadedFile

from apps.dueprocess.models import Sanction
from apps.dueprocess.services.finality import case_finalize_unappealed
from apps.enforcement.choices import NoticeChannel, NoticePurpose
from apps.enforcement.models import InfractionCase, Notice
from apps.enforcement.services import AutoDetails, case_open
from apps.enforcement.services.notices import notice_send

BRT = ZoneInfo("America/Sao_Paulo")


def at(day: dt.date, hour: int = 8) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, 0, tzinfo=BRT)


def open_case(
    municipality: Any, agent: Any, *, code: str, plate: str, on: dt.date, **extra: Any
) -> InfractionCase:
    details = AutoDetails(
        infraction_code=code,
        plate=plate,
        occurred_at=at(on, 7),
        place="Av. Central, 10",
        description="Constatado pelo agente.",
        agent_registration="F-1",
        **extra,
    )
    return case_open(municipality=municipality, actor=agent, details=details, recorded_at=at(on, 9))


def notify(case: InfractionCase, agent: Any, on: dt.date, purpose: str = NoticePurpose.INFRACTION) -> Notice:
    return notice_send(
        case=case,
        actor=agent,
        purpose=purpose,
        channel=NoticeChannel.IN_PERSON,
        sent_on=on,
        as_of=on,
        signature_name="Autuado Presente",
    )


def final_without_appeal(
    case: InfractionCase, agent: Any, judge: Any, notified_on: dt.date, as_of: dt.date
) -> Sanction:
    notify(case, agent, notified_on)
    return case_finalize_unappealed(case=case, actor=judge, as_of=as_of)


def evidence_pdf(name: str = "comprovante.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, b"%PDF-1.4\n" + b"0" * 64 + b"\n%%EOF\n", content_type="application/pdf")
