"""The driving record (prontuário de trânsito) of a person: infractions declared by the applicant or a clerk,
and the analyst's confirmation from a document.

Only a confirmation is a fact for the law (lawbridge.traffic_infractions_fact): a declaration alone leaves the
record unknown, and the engine then says so instead of counting zero. Each write is one transaction with its
audit event.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from apps.accounts.actors import Actor, actor_user
from apps.audit.services import audit_record
from apps.registry.choices import InfractionSeverity
from apps.registry.models import Document, Person, TrafficInfraction, TrafficRecordConfirmation
from apps.web.refusals import refuse


@transaction.atomic
def traffic_infraction_declare(
    *, actor: Actor, person: Person, date: dt.date, severity: str, as_of: dt.date, description: str = ""
) -> TrafficInfraction:
    """Add one infraction to the person's declared record (not yet a fact: the analyst confirms it)."""
    if date > as_of:
        raise refuse("date", f"Data da infração: {date:%d/%m/%Y} está no futuro (hoje é {as_of:%d/%m/%Y}).")
    if severity not in InfractionSeverity.values:
        raise refuse("severity", "Natureza: escolha leve, média, grave ou gravíssima.")
    infraction = TrafficInfraction(
        municipality=person.municipality,
        person=person,
        date=date,
        severity=severity,
        description=description.strip(),
        declared_by=actor_user(actor),
    )
    infraction.full_clean()
    infraction.save()
    audit_record(
        actor=actor,
        municipality=person.municipality,
        action="registry.traffic_infraction.declare",
        obj=infraction,
        after=infraction.audit_snapshot(),
    )
    return infraction


@transaction.atomic
def traffic_infraction_withdraw(*, actor: Actor, infraction: TrafficInfraction) -> None:
    """Remove a wrongly declared infraction; confirmations already made keep their own frozen list."""
    before = infraction.audit_snapshot()
    audit_record(
        actor=actor,
        municipality=infraction.municipality,
        action="registry.traffic_infraction.withdraw",
        obj=infraction,
        before=before,
        after=None,
    )
    infraction.delete()


@transaction.atomic
def traffic_record_confirm(
    *, actor: Actor, person: Person, document: Document, as_of: dt.date
) -> TrafficRecordConfirmation:
    """The analyst confirms the person's record from ``document``: the declared infractions up to the
    document's issue date are frozen as the record the law reads from that date on."""
    if document.person_id != person.pk:
        raise refuse("document", "Documento: não é um documento desta pessoa.")
    if document.issue_date > as_of:
        raise refuse("document", "Documento: a data de emissão está no futuro.")
    declared = person.traffic_infractions.filter(date__lte=document.issue_date).order_by("date", "id")
    confirmation = TrafficRecordConfirmation(
        municipality=person.municipality,
        person=person,
        document=document,
        infractions=[i.as_record_entry() for i in declared],
        confirmed_by=actor_user(actor),
    )
    confirmation.save()
    audit_record(
        actor=actor,
        municipality=person.municipality,
        action="registry.traffic_record.confirm",
        obj=confirmation,
        after=confirmation.audit_snapshot(),
    )
    return confirmation
