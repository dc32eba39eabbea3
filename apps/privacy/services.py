"""The encarregado's (DPO's) writes: data-subject requests (LGPD arts. 18–19) and the audited issue of a
subject-access report. Each runs in one transaction with its audit event."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction

from apps.accounts.stepup import sensitive_service
from apps.audit.models import DataSubjectRequest
from apps.audit.services import PERSONAL_DATA_EXPORT, audit_record, audited_change
from apps.lawconfig.config import RegimeChoiceError, calendar_for
from apps.registry.identifiers import validate_cpf
from apps.registry.models import Person
from lawcode.calendar import LegalCalendar
from lawcode.deadlines import DayCounting, Deadline, count_days

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from apps.audit.models import AuditEvent
    from apps.tenancy.models import Municipality

FULL_REPLY_DAYS = 15  # LGPD art. 19, II
FULL_REPLY_CITE = "Lei 13.709/2018 (LGPD), art. 19, II"


def data_subject_request_deadline(municipality: Municipality, received_on: dt.date) -> Deadline:
    """15 days counted from the request (art. 19, II), continuously: the law says "dias", and a plain day count
    runs continuously (Lei 9.784/1999 art. 66 §2). No extension to a business day: the term is the
    prefeitura's own, and answering late is never the safe reading."""
    return count_days(
        received_on,
        FULL_REPLY_DAYS,
        counting=DayCounting.CALENDAR,
        calendar=_calendar(municipality),
        extend_to_business_day=False,
    )


def _calendar(municipality: Municipality) -> LegalCalendar:
    # Only used to name a closed last day in the explanation; with several regimes the federal/state one does.
    try:
        return calendar_for(municipality)
    except RegimeChoiceError:
        return LegalCalendar(subdivision=municipality.uf)


@transaction.atomic
def data_subject_request_create(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    municipality: Municipality,
    requester_name: str,
    requester_cpf: str,
    contact: str,
    kind: str,
    description: str,
    received_on: dt.date,
    as_of: dt.date,
) -> DataSubjectRequest:
    """Register a request; it is linked to the person registered with that CPF in the municipality, if any."""
    cpf = _requester_cpf(requester_cpf)
    _check_received_on(received_on, as_of)
    deadline = data_subject_request_deadline(municipality, received_on)
    row = DataSubjectRequest(
        municipality=municipality,
        person=Person.objects.filter(municipality=municipality, cpf=cpf).first(),
        requester_name=requester_name.strip(),
        requester_cpf=cpf,
        contact=contact.strip(),
        kind=kind,
        description=description.strip(),
        received_on=received_on,
        due_on=deadline.end,
        deadline_explanation=f"{FULL_REPLY_CITE}: {deadline.explanation()}"[:500],
    )
    row.full_clean()
    row.save()
    audit_record(
        actor=actor,
        municipality=municipality,
        action="data_subject_request.create",
        obj=row,
        after=row.audit_snapshot(),
    )
    return row


def _requester_cpf(requester_cpf: str) -> str:
    try:
        return validate_cpf(requester_cpf)
    except ValidationError as refusal:
        raise ValidationError({"requester_cpf": refusal.messages}) from None


def _check_received_on(received_on: dt.date, as_of: dt.date) -> None:
    if received_on > as_of:
        raise ValidationError(
            {
                "received_on": f"Recebido em: a data {received_on:%d/%m/%Y} está no futuro (hoje é {as_of:%d/%m/%Y})."
            }
        )


@transaction.atomic
def data_subject_request_update(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    request: DataSubjectRequest,
    status: str,
    answer: str,
    as_of: dt.date,
) -> DataSubjectRequest:
    """Move a request along; answering or refusing it needs the reply's text and closes it on `as_of`."""
    row = DataSubjectRequest.objects.select_for_update().get(pk=request.pk)
    if row.is_closed:
        raise ValidationError({"status": "Situação: este requerimento já foi encerrado."})
    with audited_change(row, actor=actor, action=lambda: _update_action(row)):
        row.status, row.answer = status, answer.strip()
        if row.is_closed:
            if not row.answer:
                raise ValidationError(
                    {"answer": "Resposta: informe o texto enviado ao titular (ou o fundamento da negativa)."}
                )
            row.answered_on = as_of
        row.full_clean()
        row.save()
    return row


def _update_action(row: DataSubjectRequest) -> str:
    return "data_subject_request.answer" if row.is_closed else "data_subject_request.progress"


@sensitive_service
@transaction.atomic
def subject_report_issue(
    *, actor: AbstractBaseUser | AnonymousUser, person: Person, fields: tuple[str, ...], events: int
) -> AuditEvent:
    """Record that the subject-access report of `person` left the system (a personal-data export)."""
    return audit_record(
        actor=actor,
        municipality=person.municipality,
        action=PERSONAL_DATA_EXPORT,
        obj=person,
        after={"fields": list(fields), "events": events},
    )
