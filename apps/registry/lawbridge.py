"""The registry's boundary with the law engine: registry rows → lawcode facts (the only module that knows both
shapes), and the questions the registry asks about them (document validity, bans) through apps.lawconfig.engine.

Documents dated after ``as_of`` are left out (the engine must not see the future). Facts the registry does not
hold (permits in force, inspection results, school numbers) are passed by the caller as keyword overrides,
e.g. ``permit_application_facts(application, as_of=day, active_permits=2)``.

The builders read a row's related rows through a ``Reads``: by default one query per question; a ``ChunkReads``
loads them for many records at once (the what-if's chunks) and the same builders give the same facts.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from typing import Any, Protocol

from django.db.models import Q

import lawcode
from apps.lawconfig import engine
from apps.registry.choices import OperatorKind
from apps.registry.models import (
    Attendant,
    Ban,
    Company,
    Document,
    Driver,
    Operator,
    Person,
    TrafficRecordConfirmation,
    Vehicle,
)
from lawcode import facts as f

# apps.licensing application kinds → the engine's PermitApplication.kind.
APPLICATION_KIND_TO_PERMIT_KIND: dict[str, str] = {
    "vehicle_permit": "new",
    "operator_registration": "new",
    "renewal": "renewal",
    "substitution": "substitution",
    "temporary_vehicle": "temporary",
}


class ApplicationLike(Protocol):
    """What permit_application_facts reads from a licensing application (no import of apps.licensing)."""

    kind: str
    operator: Operator
    vehicle: Vehicle | None
    submitted_on: dt.date | None


def document_fact(document: Document) -> f.Document:
    """The document as the law sees it; the clerk's reading of its content (a certificate that is not
    negative, a contract lacking a clause) is ``details["valid"]`` and becomes ``Document.valid``."""
    details = dict(document.details or {})
    verdict = details.pop("valid", None)
    return f.Document(
        kind=document.kind,
        issue_date=document.issue_date,
        expiry_date=document.expiry_date,
        valid=verdict if isinstance(verdict, bool) else None,
        details=details,
    )


class Reads:
    """Where the builders below find a row's related rows: here, one query per question, straight from the row.

    ChunkReads answers the same questions from rows loaded for many records at once; the builders are the same
    code either way, and put what they read in one order (``_in_order``) so both give equal facts.
    """

    def documents(self, owner: Person | Company | Vehicle) -> Iterable[Document]:
        return owner.documents.all()  # a caller's prefetch_related("…documents") is honoured

    def confirmation(self, person: Person, as_of: dt.date) -> TrafficRecordConfirmation | None:
        return TrafficRecordConfirmation.objects.filter(person=person).known_on(as_of).first()

    def bans(self, operator: Operator) -> Iterable[Ban]:
        if operator.kind == OperatorKind.PF:
            return Ban.objects.filter(person=operator.person)
        return Ban.objects.filter(company=operator.company)

    def drivers(self, operator: Operator) -> Iterable[Driver]:
        """The operator's active drivers, each with its person."""
        return operator.drivers.filter(active=True).select_related("person")

    def attendants(self, operator: Operator) -> Iterable[Attendant]:
        """The operator's active attendants, each with its person."""
        return operator.attendants.filter(active=True).select_related("person")


ONE_BY_ONE = Reads()


class ChunkReads(Reads):
    """The related rows of many operators, people and vehicles, loaded in a fixed number of queries (six,
    whatever the number of records), for a batch of facts judged as of one day (the what-if's chunks)."""

    def __init__(
        self,
        *,
        as_of: dt.date,
        operators: Iterable[Operator] = (),
        people: Iterable[Person] = (),
        vehicles: Iterable[Vehicle] = (),
    ) -> None:
        self.as_of = as_of
        holders = {o.pk: o for o in operators}
        self._drivers = _grouped(Driver.objects.filter(operator_id__in=holders, active=True), "operator_id")
        self._attendants = _grouped(
            Attendant.objects.filter(operator_id__in=holders, active=True), "operator_id"
        )
        links = [*self._all(self._drivers), *self._all(self._attendants)]
        person_ids = {p.pk for p in people} | {o.person_id for o in holders.values() if o.person_id}
        person_ids |= {link.person_id for link in links}
        company_ids = {o.company_id for o in holders.values() if o.company_id}
        self._people = Person.objects.in_bulk(person_ids)
        for link in links:  # the same Person row for every link, as the one-by-one path reads it
            link.person = self._people[link.person_id]
        self._load_documents(person_ids, company_ids, {v.pk for v in vehicles})
        self._load_records(person_ids, company_ids)

    @staticmethod
    def _all(groups: dict[Any, list[Any]]) -> list[Any]:
        return [row for rows in groups.values() for row in rows]

    def _load_documents(self, person_ids: set[int], company_ids: set[int], vehicle_ids: set[int]) -> None:
        rows = list(
            Document.objects.filter(
                Q(person_id__in=person_ids) | Q(company_id__in=company_ids) | Q(vehicle_id__in=vehicle_ids)
            )
        )
        self._documents: dict[tuple[type, int], list[Document]] = defaultdict(list)
        for row in rows:
            for model, owner_id in (
                (Person, row.person_id),
                (Company, row.company_id),
                (Vehicle, row.vehicle_id),
            ):
                if owner_id is not None:
                    self._documents[(model, owner_id)].append(row)

    def _load_records(self, person_ids: set[int], company_ids: set[int]) -> None:
        self._confirmations: dict[int, TrafficRecordConfirmation] = {}
        latest_first = TrafficRecordConfirmation.objects.filter(person_id__in=person_ids).known_on(self.as_of)
        for confirmation in latest_first:
            self._confirmations.setdefault(confirmation.person_id, confirmation)
        bans = list(Ban.objects.filter(Q(person_id__in=person_ids) | Q(company_id__in=company_ids)))
        self._person_bans = _grouped(bans, "person_id")
        self._company_bans = _grouped(bans, "company_id")

    def documents(self, owner: Person | Company | Vehicle) -> Iterable[Document]:
        return self._documents.get((type(owner), owner.pk), [])

    def confirmation(self, person: Person, as_of: dt.date) -> TrafficRecordConfirmation | None:
        if as_of != self.as_of:
            raise ValueError("ChunkReads answers for the day it was loaded for")
        return self._confirmations.get(person.pk)

    def bans(self, operator: Operator) -> Iterable[Ban]:
        if operator.kind == OperatorKind.PF:
            return self._person_bans.get(operator.person_id, [])
        return self._company_bans.get(operator.company_id, [])

    def drivers(self, operator: Operator) -> Iterable[Driver]:
        return self._drivers.get(operator.pk, [])

    def attendants(self, operator: Operator) -> Iterable[Attendant]:
        return self._attendants.get(operator.pk, [])


def _grouped(rows: Iterable[Any], key: str) -> dict[Any, list[Any]]:
    groups: dict[Any, list[Any]] = defaultdict(list)
    for row in rows:
        groups[getattr(row, key)].append(row)
    return dict(groups)


def _in_order(rows: Iterable[Any], *fields: str) -> list[Any]:
    """Rows in one explicit order (``-field`` descending; then by id), whichever way they were read: the
    models' orderings leave ties to the database, and equal facts need equal order."""
    ordered = sorted(rows, key=lambda row: row.pk)
    for name in reversed(fields):  # stable sorts, the last field first
        field = name.lstrip("-")

        def key(row: Any, field: str = field) -> tuple[bool, Any]:
            return _sortable(_attribute(row, field))

        ordered.sort(key=key, reverse=name.startswith("-"))
    return ordered


def _attribute(row: Any, dotted: str) -> Any:
    for name in dotted.split("."):
        row = getattr(row, name)
    return row


def _sortable(value: Any) -> tuple[bool, Any]:
    return (value is None, value if value is not None else 0)


def _documents(rows: Iterable[Document], as_of: dt.date) -> tuple[f.Document, ...]:
    return tuple(document_fact(d) for d in _in_order(rows, "valid_until") if d.issue_date <= as_of)


def person_facts(
    person: Person, *, as_of: dt.date, driver: Driver | None = None, reads: Reads = ONE_BY_ONE
) -> f.Person:
    course = driver.course_completed_on if driver is not None else None
    return f.Person(
        name=person.name,
        birth_date=person.birth_date,
        cnh=_cnh(driver),
        documents=_documents(reads.documents(person), as_of),
        resident_municipality=person.city or None,
        course_completed=(course is not None and course <= as_of) if driver is not None else None,
        traffic_infractions=traffic_infractions_fact(person, as_of=as_of, reads=reads),
    )


def traffic_infractions_fact(
    person: Person, *, as_of: dt.date, reads: Reads = ONE_BY_ONE
) -> tuple[f.TrafficInfraction, ...] | None:
    """The infractions of the latest record an analyst confirmed from a document issued by ``as_of``; None
    (unknown, never "no infractions") when nobody confirmed one — declarations alone are not facts."""
    confirmation = reads.confirmation(person, as_of)
    if confirmation is None:
        return None
    entries = [
        f.from_dict(f.TrafficInfraction, {"date": e["date"], "severity": e["severity"]})
        for e in confirmation.infractions
    ]
    return tuple(e for e in entries if e.date <= as_of)


def _cnh(driver: Driver | None) -> f.CNH | None:
    if driver is None:
        return None
    return f.CNH(
        category=driver.cnh_category,
        ear=driver.cnh_ear,
        first_issue=driver.cnh_first_issue,
        expiry=driver.cnh_expiry,
        number=driver.cnh_number,
    )


def company_facts(company: Company, *, as_of: dt.date, reads: Reads = ONE_BY_ONE) -> f.Company:
    return f.Company(
        name=company.legal_name,
        cnpj=company.cnpj,
        seat_municipality=company.city or None,
        documents=_documents(reads.documents(company), as_of),
        extra=dict(company.extra or {}),
    )


def ban_fact(ban: Ban) -> f.Ban:
    return f.Ban(reason_code=ban.reason_code, start=ban.start, until=ban.until)


def operator_facts(
    operator: Operator, *, as_of: dt.date, reads: Reads = ONE_BY_ONE, **overrides: Any
) -> f.Operator:
    """The autorizatário; ``overrides`` fill what other apps know (active_permits, history)."""
    person = operator.person if operator.kind == OperatorKind.PF else None
    company = operator.company if operator.kind == OperatorKind.PJ else None
    drivers = _active_drivers(operator, reads)
    bans = _in_order((b for b in reads.bans(operator) if b.start <= as_of), "-until")
    facts = f.Operator(
        kind=operator.kind,  # type: ignore[arg-type]
        person=person_facts(person, as_of=as_of, driver=_own_driver(operator, drivers), reads=reads)
        if person is not None
        else None,
        company=company_facts(company, as_of=as_of, reads=reads) if company is not None else None,
        auxiliary_drivers=sum(1 for d in drivers if d.role == "auxiliary"),
        bans=tuple(ban_fact(b) for b in bans),
        extra=dict(operator.extra or {}),
    )
    return dataclasses.replace(facts, **overrides)


def _active_drivers(operator: Operator, reads: Reads) -> list[Driver]:
    return _in_order(reads.drivers(operator), "role", "person.name")


def _own_driver(operator: Operator, drivers: list[Driver]) -> Driver | None:
    """A PF operator usually drives too: their own driver link carries the CNH the law checks."""
    return next((d for d in drivers if d.person_id == operator.person_id), None)


def driver_facts(driver: Driver, *, as_of: dt.date, reads: Reads = ONE_BY_ONE) -> f.Driver:
    return f.Driver(
        person=person_facts(driver.person, as_of=as_of, driver=driver, reads=reads),
        role=driver.role,  # type: ignore[arg-type]
        extra=dict(driver.extra or {}),
    )


def attendant_facts(attendant: Attendant, *, as_of: dt.date, reads: Reads = ONE_BY_ONE) -> f.Attendant:
    return f.Attendant(
        person=person_facts(attendant.person, as_of=as_of, reads=reads), extra=dict(attendant.extra or {})
    )


def ownership_fact(vehicle: Vehicle) -> f.Ownership:
    return f.Ownership(
        kind=vehicle.ownership_kind,  # type: ignore[arg-type]
        contract_registered_rtd=vehicle.ownership_registered,
        renavam_link=vehicle.ownership_registered,
        owner_signature_notarized=vehicle.owner_signature_notarized,
        since=vehicle.ownership_since,
    )


def vehicle_facts(
    vehicle: Vehicle, *, as_of: dt.date, reads: Reads = ONE_BY_ONE, **overrides: Any
) -> f.Vehicle:
    """The vehicle; ``overrides`` fill what inspections know (inspection_approved_on, permit_number_on_doors…)."""
    facts = f.Vehicle(
        plate=vehicle.plate,
        manufacture_year=vehicle.manufacture_year,
        model_year=vehicle.model_year,
        seats=vehicle.seats,
        doors=vehicle.doors,
        air_conditioning=vehicle.air_conditioning,
        registration_municipality=vehicle.registration_municipality_name,
        category=vehicle.category,  # type: ignore[arg-type]
        ownership=ownership_fact(vehicle),
        tachograph_ok=vehicle.tachograph_ok,
        documents=_documents(reads.documents(vehicle), as_of),
        last_maintenance=vehicle.last_maintenance,
        accessibility=vehicle.accessibility or None,
        extra=dict(vehicle.extra or {}),
    )
    return dataclasses.replace(facts, **overrides)


def inspection_facts(
    plate: str | None,
    *,
    regime_id: str,
    year: int | None = None,
    last_inspection: dt.date | None = None,
    fee_paid_on: dt.date | None = None,
    in_service_from: dt.date | None = None,
) -> f.InspectionFacts:
    """The calendar's facts. ``in_service_from`` (the vehicle's first day in service, from its permits, which
    the registry does not hold) is given to the law only where the regime asks it (facts.yaml
    ``inspection.in_service_from``): a regime that does not ask would refuse the undeclared answer."""
    asked = lawcode.get_regime(regime_id).vocabulary.facts.for_entity("inspection")
    extra = {"in_service_from": in_service_from} if in_service_from and "in_service_from" in asked else {}
    return f.InspectionFacts(
        plate=plate, fee_paid_on=fee_paid_on, year=year, last_inspection=last_inspection, extra=extra
    )


def permit_application_facts(
    application: ApplicationLike,
    *,
    as_of: dt.date,
    operator: dict[str, Any] | None = None,
    vehicle: dict[str, Any] | None = None,
    reads: Reads = ONE_BY_ONE,
    **overrides: Any,
) -> f.PermitApplication:
    """A permit application: operator, vehicle, active drivers and attendants of the operator.

    ``operator`` and ``vehicle`` are overrides for operator_facts/vehicle_facts; other keywords override
    PermitApplication fields (enrolled_students, fleet_cap, platform_notified_on…).
    """
    if application.vehicle is None:
        raise ValueError("permit_application_facts needs an application with a vehicle")
    holder, car = application.operator, application.vehicle
    drivers = _active_drivers(holder, reads)
    attendants = _in_order(reads.attendants(holder), "person.name")
    facts = f.PermitApplication(
        operator=operator_facts(holder, as_of=as_of, reads=reads, **(operator or {})),
        vehicle=vehicle_facts(car, as_of=as_of, reads=reads, **(vehicle or {})),
        drivers=tuple(driver_facts(d, as_of=as_of, reads=reads) for d in drivers),
        attendants=tuple(attendant_facts(a, as_of=as_of, reads=reads) for a in attendants),
        vehicle_drivers=sum(1 for d in drivers if d.vehicle_id == car.pk),
        kind=APPLICATION_KIND_TO_PERMIT_KIND.get(application.kind, "new"),  # type: ignore[arg-type]
        filed_on=application.submitted_on,
    )
    return dataclasses.replace(facts, **overrides)


def document_validity_decision(document: Document, *, as_of: dt.date, regime_id: str) -> lawcode.Decision:
    """The ``document_validity`` question about one document (registry.validity reads the answer)."""
    return engine.evaluate(
        municipality=document.municipality,
        question="document_validity",
        facts=document_fact(document),
        as_of=as_of,
        regime_id=regime_id,
    )


def ban_status_decision(operator: Operator, *, as_of: dt.date) -> lawcode.Decision:
    """The ``ban_status`` question about an operator (registry.validity reads the answer)."""
    return engine.evaluate(
        municipality=operator.municipality,
        question="ban_status",
        facts=operator_facts(operator, as_of=as_of),
        as_of=as_of,
        regime_id=operator.regime_id,
    )
