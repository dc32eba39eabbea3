"""Notices and ciência per regime: in person, AR (returned letters, Olímpia art. 34 II), electronic, edital."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.enforcement.choices import CaseState, EventKind, NoticeChannel, NoticePurpose
from apps.enforcement.models import Edital, Notice
from apps.enforcement.services.notices import (
    edital_publish,
    notice_record_receipt,
    notice_send,
    unreached_cases,
)
from apps.tenancy.models import Municipality

from .test_case_open import open_auto

pytestmark = pytest.mark.django_db
AS_OF = dt.date(2026, 4, 30)


def send(case: Any, agent: Any, channel: str, sent_on: dt.date = dt.date(2026, 3, 13), **kw: Any) -> Notice:
    return notice_send(
        case=case,
        actor=agent,
        purpose=NoticePurpose.INFRACTION,
        channel=channel,
        sent_on=sent_on,
        as_of=AS_OF,
        **kw,
    )


def test_in_person_with_signature_gives_ciencia_and_notifies_the_case(
    olimpia: Municipality, agent_olimpia: User, django_capture_on_commit_callbacks: Any
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    with django_capture_on_commit_callbacks(execute=True):  # the PDF is written once the notice commits
        notice = send(case, agent_olimpia, NoticeChannel.IN_PERSON, signature_name="José Condutor")
    case.refresh_from_db()
    assert notice.ciencia_on == dt.date(2026, 3, 13) and case.state == CaseState.NOTIFIED
    assert notice.pdf.read().startswith(b"%PDF")
    assert AuditEvent.objects.filter(action="infractioncase.notified").count() == 1


def test_in_person_needs_a_signature_or_the_refusal(olimpia: Municipality, agent_olimpia: User) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    with pytest.raises(ValidationError) as raised:
        send(case, agent_olimpia, NoticeChannel.IN_PERSON)
    assert "recusa" in raised.value.message_dict["signature_name"][0]
    assert not Notice.objects.exists()
    refused = send(case, agent_olimpia, NoticeChannel.IN_PERSON, refused=True)
    assert refused.ciencia_on == dt.date(2026, 3, 13)


def test_a_returned_ar_letter_still_counts_in_olimpia(olimpia: Municipality, agent_olimpia: User) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    notice = send(case, agent_olimpia, NoticeChannel.AR)
    assert notice.ciencia_on is None
    notice = notice_record_receipt(
        notice=notice,
        actor=agent_olimpia,
        as_of=AS_OF,
        received_on=dt.date(2026, 3, 20),
        returned_reason="address_change",
    )
    assert notice.ciencia_on is not None
    case.refresh_from_db()
    assert case.state == CaseState.NOTIFIED


def test_a_returned_letter_gives_no_ciencia_in_votuporanga(
    votuporanga: Municipality, agent_votuporanga: User
) -> None:
    case = open_auto(votuporanga, agent_votuporanga, plate="ABC1D23", infraction_code="VOT-9-I")
    notice = send(case, agent_votuporanga, NoticeChannel.AR)
    notice = notice_record_receipt(
        notice=notice,
        actor=agent_votuporanga,
        as_of=AS_OF,
        received_on=dt.date(2026, 3, 20),
        returned_reason="refusal",
    )
    assert notice.ciencia_on is None
    assert "art. 17" in case.events.get(kind=EventKind.NOTICE_RETURNED).note
    assert unreached_cases(votuporanga, NoticePurpose.INFRACTION) == [case]
    with pytest.raises(ValidationError) as raised:
        edital_publish(
            municipality=votuporanga,
            actor=agent_votuporanga,
            purpose=NoticePurpose.INFRACTION,
            cases=[case],
            published_on=dt.date(2026, 3, 25),
            publication_ref="DOM 1",
            as_of=AS_OF,
        )
    assert "edital" in raised.value.message_dict["published_on"][0]
    assert not Edital.objects.exists()


def test_an_olimpia_edital_gives_ciencia_five_calendar_days_after_publication(
    olimpia: Municipality, agent_olimpia: User
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    notice = send(case, agent_olimpia, NoticeChannel.AR)
    notice_record_receipt(
        notice=notice,
        actor=agent_olimpia,
        as_of=AS_OF,
        received_on=dt.date(2026, 3, 20),
        returned_reason="other",
    )
    assert unreached_cases(olimpia, NoticePurpose.INFRACTION) == [case]
    edital = edital_publish(
        municipality=olimpia,
        actor=agent_olimpia,
        purpose=NoticePurpose.INFRACTION,
        cases=[case],
        published_on=dt.date(2026, 3, 25),
        publication_ref="Diário Oficial do Município, ed. 321, p. 4",
        as_of=AS_OF,
    )
    assert case.number in edital.text
    edital_notice = edital.notices.get()
    assert edital_notice.ciencia_on == dt.date(2026, 3, 30)
    assert unreached_cases(olimpia, NoticePurpose.INFRACTION) == []


def test_the_patrocinio_90_day_limit_counts_from_the_receipt_of_the_auto(
    patrocinio: Municipality, agent_patrocinio: User
) -> None:
    case = open_auto(patrocinio, agent_patrocinio, plate="ABC1D23", infraction_code="PAT-5")
    notice = send(case, agent_patrocinio, NoticeChannel.AR, sent_on=dt.date(2026, 3, 12))
    notice_record_receipt(
        notice=notice, actor=agent_patrocinio, as_of=AS_OF, received_on=dt.date(2026, 3, 13)
    )
    case.refresh_from_db()
    assert case.notice_limit == dt.date(2026, 6, 11)


def test_a_returned_letter_gives_no_ciencia_in_patrocinio_and_the_edital_does(
    patrocinio: Municipality, agent_patrocinio: User
) -> None:
    case = open_auto(patrocinio, agent_patrocinio, plate="ABC1D23", infraction_code="PAT-5")
    notice = send(case, agent_patrocinio, NoticeChannel.AR)
    notice = notice_record_receipt(
        notice=notice,
        actor=agent_patrocinio,
        as_of=AS_OF,
        received_on=dt.date(2026, 3, 20),
        returned_reason="address_change",
    )
    assert notice.ciencia_on is None
    assert "art. 19, § 1º" in case.events.get(kind=EventKind.NOTICE_RETURNED).note
    # Published on Friday 2026-03-27: ciência on the next business day (INT-PAT-EDITAL-CIENCIA default).
    edital = edital_publish(
        municipality=patrocinio,
        actor=agent_patrocinio,
        purpose=NoticePurpose.INFRACTION,
        cases=[case],
        published_on=dt.date(2026, 3, 27),
        publication_ref="DOM 55",
        as_of=AS_OF,
    )
    assert edital.notices.get().ciencia_on == dt.date(2026, 3, 30)


def test_a_case_already_reached_cannot_go_to_an_edital(olimpia: Municipality, agent_olimpia: User) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    send(case, agent_olimpia, NoticeChannel.IN_PERSON, signature_name="José")
    with pytest.raises(ValidationError) as raised:
        edital_publish(
            municipality=olimpia,
            actor=agent_olimpia,
            purpose=NoticePurpose.INFRACTION,
            cases=[case],
            published_on=dt.date(2026, 3, 25),
            publication_ref="DOM 1",
            as_of=AS_OF,
        )
    assert case.number in raised.value.message_dict["cases"][0]
