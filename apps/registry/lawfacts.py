"""Adapters from registry rows to lawcode facts: the only module that knows both shapes.

Documents dated after ``as_of`` are left out (the engine must not see the future). Facts the registry does not
hold (permits in force, inspection results, school numbers) are passed by the caller as keyword overrides,
e.g. ``permit_application_facts(application, as_of=day, active_permits=2)``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable
from typing import Any, Protocol

import lawcode
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


def _documents(rows: Iterable[Document], as_of: dt.date) -> tuple[f.Document, ...]:
    return tuple(document_fact(d) for d in rows if d.issue_date <= as_of)


def person_facts(person: Person, *, as_of: dt.date, driver: Driver | None = None) -> f.Person:
    course = driver.course_completed_on if driver is not None else None
    return f.Person(
        name=person.name,
        birth_date=person.birth_date,
        cnh=_cnh(driver),
        documents=_documents(person.documents.all(), as_of),
        resident_municipality=person.city or None,
        course_completed=(course is not None and course <= as_of) if driver is not None else None,
        traffic_infractions=traffic_infractions_fact(person, as_of=as_of),
    )


def traffic_infractions_fact(person: Person, *, as_of: dt.date) -> tuple[f.TrafficInfraction, ...] | None:
    """The infractions of the latest record an analyst confirmed from a document issued by ``as_of``; None
    (unknown, never "no infractions") when nobody confirmed one — declarations alone are not facts."""
    confirmation = TrafficRecordConfirmation.objects.filter(person=person).known_on(as_of).first()
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


def company_facts(company: Company, *, as_of: dt.date) -> f.Company:
    return f.Company(
        name=company.legal_name,
        cnpj=company.cnpj,
        seat_municipality=company.city or None,
        documents=_documents(company.documents.all(), as_of),
        extra=dict(company.extra or {}),
    )


def ban_fact(ban: Ban) -> f.Ban:
    return f.Ban(reason_code=ban.reason_code, start=ban.start, until=ban.until)


def operator_facts(operator: Operator, *, as_of: dt.date, **overrides: Any) -> f.Operator:
    """The autorizatário; ``overrides`` fill what other apps know (active_permits, history)."""
    person = operator.person if operator.kind == OperatorKind.PF else None
    company = operator.company if operator.kind == OperatorKind.PJ else None
    bans = Ban.objects.filter(person=person) if person is not None else Ban.objects.filter(company=company)
    facts = f.Operator(
        kind=operator.kind,  # type: ignore[arg-type]
        person=person_facts(person, as_of=as_of, driver=_own_driver(operator))
        if person is not None
        else None,
        company=company_facts(company, as_of=as_of) if company is not None else None,
        auxiliary_drivers=operator.drivers.filter(active=True, role="auxiliary").count(),
        bans=tuple(ban_fact(b) for b in bans.filter(start__lte=as_of)),
        extra=dict(operator.extra or {}),
    )
    return dataclasses.replace(facts, **overrides)


def _own_driver(operator: Operator) -> Driver | None:
    """A PF operator usually drives too: their own driver link carries the CNH the law checks."""
    return operator.drivers.filter(active=True, person=operator.person).order_by("role").first()


def driver_facts(driver: Driver, *, as_of: dt.date) -> f.Driver:
    return f.Driver(
        person=person_facts(driver.person, as_of=as_of, driver=driver),
        role=driver.role,  # type: ignore[arg-type]
        extra=dict(driver.extra or {}),
    )


def attendant_facts(attendant: Attendant, *, as_of: dt.date) -> f.Attendant:
    return f.Attendant(person=person_facts(attendant.person, as_of=as_of), extra=dict(attendant.extra or {}))


def ownership_fact(vehicle: Vehicle) -> f.Ownership:
    return f.Ownership(
        kind=vehicle.ownership_kind,  # type: ignore[arg-type]
        contract_registered_rtd=vehicle.ownership_registered,
        renavam_link=vehicle.ownership_registered,
        owner_signature_notarized=vehicle.owner_signature_notarized,
        since=vehicle.ownership_since,
    )


def vehicle_facts(vehicle: Vehicle, *, as_of: dt.date, **overrides: Any) -> f.Vehicle:
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
        documents=_documents(vehicle.documents.all(), as_of),
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
    **overrides: Any,
) -> f.PermitApplication:
    """A permit application: operator, vehicle, active drivers and attendants of the operator.

    ``operator`` and ``vehicle`` are overrides for operator_facts/vehicle_facts; other keywords override
    PermitApplication fields (enrolled_students, fleet_cap, platform_notified_on…).
    """
    if application.vehicle is None:
        raise ValueError("permit_application_facts needs an application with a vehicle")
    holder = application.operator
    drivers = holder.drivers.filter(active=True).select_related("person")
    facts = f.PermitApplication(
        operator=operator_facts(holder, as_of=as_of, **(operator or {})),
        vehicle=vehicle_facts(application.vehicle, as_of=as_of, **(vehicle or {})),
        drivers=tuple(driver_facts(d, as_of=as_of) for d in drivers),
        attendants=tuple(attendant_facts(a, as_of=as_of) for a in holder.attendants.filter(active=True)),
        vehicle_drivers=drivers.filter(vehicle=application.vehicle).count(),
        kind=APPLICATION_KIND_TO_PERMIT_KIND.get(application.kind, "new"),  # type: ignore[arg-type]
        filed_on=application.submitted_on,
    )
    return dataclasses.replace(facts, **overrides)
