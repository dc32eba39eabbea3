"""The data subject seen by the encarregado (DPO): what Outorga holds on a person, why, and who touched it.

A person (registry.Person, by CPF or name) is the subject; the records about them are their registration,
their authorizations as a natural-person holder (autorizatário PF), their links as driver or attendant, the
vehicles, documents, permits, applications and infraction cases of those, bans, and their portal accounts.
Every audit event on one of those records answers "who read or changed my data, and when".
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from django.db.models import Q, QuerySet

from apps.audit.models import AuditEvent, DataSubjectRequest
from apps.audit.people import MIN_NAME_QUERY
from apps.enforcement.models import InfractionCase
from apps.licensing.models import Application, Permit
from apps.portal.models import PortalAccount
from apps.registry.identifiers import format_cpf
from apps.registry.models import Attendant, Ban, Document, Driver, Operator, Person, Vehicle
from apps.tenancy.models import Municipality
from apps.tenancy.regimes import instrument_of, regime_summary
from outorga.localdates import date_text

MAX_PEOPLE_SEARCHED = 20
EventsT = TypeVar("EventsT", bound=QuerySet[AuditEvent])
CPF_DIGITS = 11

# LGPD art. 7º II/III and art. 23 (the public power's processing to carry out its legal duties); consent is
# not the basis (docs/security.md, "LGPD").
LGPD_BASIS = (
    "Lei 13.709/2018 (LGPD), art. 7º, II (cumprimento de obrigação legal) e III (execução de políticas "
    "públicas previstas em lei), e art. 23 (tratamento pelo poder público para cumprir suas atribuições legais)"
)


@dataclass(frozen=True)
class HeldRecord:
    """One thing Outorga holds on the subject, why, and on which legal basis."""

    title: str
    purpose: str
    legal_basis: str
    facts: tuple[tuple[str, str], ...]


@dataclass
class Subject:
    person: Person
    records: list[HeldRecord] = field(default_factory=list)
    refs: dict[str, set[str]] = field(default_factory=dict)  # object_type -> object ids

    def add_refs(self, rows: Iterable[object]) -> None:
        for row in rows:
            label = row._meta.label_lower  # type: ignore[attr-defined]
            self.refs.setdefault(label, set()).add(str(row.pk))  # type: ignore[attr-defined]


def find_people(query: str, municipalities: Iterable[Municipality]) -> QuerySet[Person]:
    """People of these municipalities by exact CPF (any punctuation) or by part of the name."""
    text = query.strip()
    digits = "".join(ch for ch in text if ch.isdigit())
    people = Person.objects.filter(municipality__in=list(municipalities)).select_related("municipality")
    if len(digits) == CPF_DIGITS and not any(ch.isalpha() for ch in text):
        return people.filter(cpf=digits)
    if len(text) >= MIN_NAME_QUERY and not digits:
        return people.filter(name__icontains=text)
    return people.none()


def masked_cpf(person: Person) -> str:
    return f"***.{person.cpf[3:6]}.{person.cpf[6:9]}-**"


def subject_of(person: Person) -> Subject:
    subject = Subject(person=person)
    subject.add_refs([person])
    subject.records.append(_identification(person))
    operators = list(Operator.objects.filter(person=person))
    drivers = list(Driver.objects.filter(person=person).select_related("operator"))
    attendants = list(Attendant.objects.filter(person=person).select_related("operator"))
    subject.add_refs([*operators, *drivers, *attendants])
    subject.records += [_operator(o) for o in operators] + [_driver(d) for d in drivers]
    subject.records += [_attendant(a) for a in attendants]
    _add_linked(subject, operators, drivers, attendants)
    return subject


def _add_linked(
    subject: Subject, operators: list[Operator], drivers: list[Driver], attendants: list[Attendant]
) -> None:
    person = subject.person
    vehicles = list(
        Vehicle.objects.filter(
            Q(operator__in=operators) | Q(municipality=person.municipality, owner_document=person.cpf)
        )
    )
    documents = list(Document.objects.filter(Q(person=person) | Q(operator__in=operators)))
    permits = list(Permit.objects.filter(Q(operator__in=operators) | Q(driver__in=drivers)))
    applications = Application.objects.filter(Q(operator__in=operators) | Q(driver__in=drivers))
    cases = InfractionCase.objects.filter(Q(operator__in=operators) | Q(driver__in=drivers))
    bans = list(Ban.objects.filter(person=person))
    accounts = list(
        PortalAccount.objects.filter(
            Q(operator__in=operators) | Q(driver__in=drivers) | Q(attendant__in=attendants)
        )
    )
    requests = DataSubjectRequest.objects.filter(person=person)
    subject.add_refs([*vehicles, *documents, *permits, *applications, *cases, *bans, *accounts, *requests])
    subject.records += [_vehicle(v) for v in vehicles] + [_document(d) for d in documents]
    subject.records += [_permit(p) for p in permits] + [_ban(b) for b in bans]
    subject.records += [_portal_account(a) for a in accounts]


def events_of(subject: Subject, events: QuerySet[AuditEvent]) -> QuerySet[AuditEvent]:
    """The events, among `events` (already scoped to the user), on any record of the subject."""
    return events.filter(_about(subject)).order_by("-occurred_at", "-id")


def events_about(people: QuerySet[Person], events: EventsT) -> EventsT:
    """The events, among `events`, on any record of any of these people (the auditor's search by person);
    none when nobody matches. At most MAX_PEOPLE_SEARCHED people: a name that vague needs more letters."""
    match = Q(pk__in=[])
    for person in people[:MAX_PEOPLE_SEARCHED]:
        match |= _about(subject_of(person))
    return events.filter(match)


def events_about_query(query: str, municipalities: Sequence[Municipality], events: EventsT) -> EventsT:
    """The audit trail's "Pessoa (CPF ou nome)" filter (registered with apps.audit.people)."""
    return events_about(find_people(query, municipalities), events)


def _about(subject: Subject) -> Q:
    match = Q(pk__in=[])
    for object_type, ids in subject.refs.items():
        match |= Q(object_type=object_type, object_id__in=sorted(ids))
    return match & Q(municipality=subject.person.municipality)


# --- what is held, and why --------------------------------------------------------------------------------


def _municipal_basis(regime_ids: Iterable[str]) -> str:
    laws = [f"{name} ({law})" for name, law in (regime_summary(r) for r in regime_ids)]
    return f"{LGPD_BASIS}; {'; '.join(laws)}" if laws else LGPD_BASIS


def _date(value: dt.date | dt.datetime | None) -> str:
    return date_text(value)


def _identification(person: Person) -> HeldRecord:
    return HeldRecord(
        title="Cadastro de pessoa",
        purpose="Identificar quem requer, detém ou opera uma autorização de transporte e poder contatá-lo.",
        legal_basis=_municipal_basis(person.municipality.regimes or []),
        facts=(
            ("Nome", person.name),
            ("CPF", format_cpf(person.cpf)),
            ("Data de nascimento", _date(person.birth_date)),
            ("E-mail", person.email or "—"),
            ("Telefone", person.phone or "—"),
            ("Endereço", person.address_line or "—"),
            ("Cadastrada em", _date(person.created_at)),
        ),
    )


def _operator(operator: Operator) -> HeldRecord:
    return HeldRecord(
        title=f"Autorizatário — {regime_summary(operator.regime_id)[0]}",
        purpose="Conceder, renovar e fiscalizar a autorização para prestar o serviço de transporte.",
        legal_basis=_municipal_basis([operator.regime_id]),
        facts=(("Situação", operator.get_status_display()), ("Cadastrado em", _date(operator.registered_on))),
    )


def _driver(driver: Driver) -> HeldRecord:
    return HeldRecord(
        title="Vínculo como condutor",
        purpose="Verificar a habilitação e o curso exigidos para conduzir o veículo autorizado.",
        legal_basis=_municipal_basis([driver.operator.regime_id]),
        facts=(
            ("Função", driver.get_role_display()),
            ("CNH (categoria)", driver.cnh_category or "—"),
            ("CNH (validade)", _date(driver.cnh_expiry)),
            ("Ativo", "Sim" if driver.active else "Não"),
        ),
    )


def _attendant(attendant: Attendant) -> HeldRecord:
    return HeldRecord(
        title="Vínculo como monitor",
        purpose="Verificar o acompanhante exigido no transporte escolar.",
        legal_basis=_municipal_basis([attendant.operator.regime_id]),
        facts=(("Ativo", "Sim" if attendant.active else "Não"),),
    )


def _vehicle(vehicle: Vehicle) -> HeldRecord:
    return HeldRecord(
        title=f"Veículo {vehicle.plate}",
        purpose="Vistoriar e autorizar o veículo usado no serviço.",
        legal_basis=_municipal_basis(vehicle.municipality.regimes or []),
        facts=(
            ("Marca/modelo", f"{vehicle.make} {vehicle.model}".strip() or "—"),
            ("Proprietário", vehicle.owner_name or "—"),
            ("Vínculo com o veículo", vehicle.get_ownership_kind_display()),
        ),
    )


def _document(document: Document) -> HeldRecord:
    return HeldRecord(
        title=f"Documento — {document.get_kind_display()}",
        purpose="Comprovar um requisito da lei municipal.",
        legal_basis=_municipal_basis(document.municipality.regimes or []),
        facts=(("Emitido em", _date(document.issue_date)), ("Situação", document.get_status_display())),
    )


def _permit(permit: Permit) -> HeldRecord:
    return HeldRecord(
        title=f"{instrument_of(permit.regime_id).title} nº {permit.number}",
        purpose="Registrar a autorização concedida e sua validade.",
        legal_basis=_municipal_basis([permit.operator.regime_id]),
        facts=(("Situação", permit.get_state_display()), ("Válido até", _date(permit.valid_until))),
    )


def _ban(ban: Ban) -> HeldRecord:
    return HeldRecord(
        title="Impedimento registrado",
        purpose="Aplicar o impedimento decorrente de penalidade prevista na lei municipal.",
        legal_basis=_municipal_basis(ban.municipality.regimes or []),
        facts=(("Início", _date(ban.start)), ("Até", _date(ban.until)), ("Origem", ban.source)),
    )


def _portal_account(account: PortalAccount) -> HeldRecord:
    return HeldRecord(
        title="Conta no portal do autorizatário",
        purpose="Permitir ao titular acompanhar seus requerimentos, autorizações e processos.",
        legal_basis=LGPD_BASIS,
        facts=(("Papel", account.get_role_display()), ("Ativa", "Sim" if account.active else "Não")),
    )
