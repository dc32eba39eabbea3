"""Adapters from rows to lawcode facts, and one real engine decision built from registry rows."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from apps.lawconfig.engine import evaluate
from apps.registry.lawbridge import operator_facts, permit_application_facts, vehicle_facts
from apps.registry.models import Operator, Person, Vehicle
from apps.registry.services import ban_record, document_upload, driver_link
from apps.registry.tests.conftest import AS_OF, pdf_upload
from apps.tenancy.models import Municipality

# What apps.inspections knows about the vehicle, passed as overrides like licensing does.
INSPECTED = {
    "detran_inspection_approved": True,
    "permit_number_on_doors": True,
    "last_maintenance": AS_OF,
    "inspection_approved_on": AS_OF,
}


@dataclass
class _Application:
    kind: str
    operator: Operator
    vehicle: Vehicle | None
    submitted_on: dt.date | None


def test_documents_issued_after_as_of_are_left_out(kombi: Vehicle) -> None:
    document_upload(
        actor=None,
        owner=kombi,
        kind="crlv",
        upload=pdf_upload(),
        issue_date=dt.date(2026, 1, 5),
        expiry_date=dt.date(2026, 12, 31),
        as_of=AS_OF,
    )
    assert [d.kind for d in vehicle_facts(kombi, as_of=AS_OF).documents] == ["crlv"]
    assert vehicle_facts(kombi, as_of=dt.date(2026, 1, 4)).documents == ()


def test_vehicle_facts_carry_the_rows_and_the_overrides(kombi: Vehicle) -> None:
    facts = vehicle_facts(kombi, as_of=AS_OF, permit_number_on_doors=True)
    assert (facts.plate, facts.manufacture_year, facts.seats, facts.registration_municipality) == (
        "ABC1D23",
        2020,
        12,
        "Olímpia",
    )
    assert facts.ownership is not None and facts.ownership.kind == "own"
    assert facts.permit_number_on_doors is True


def test_operator_facts_include_bans_and_the_holders_cnh(
    joao_operator: Operator, joao: Person, olimpia: Municipality
) -> None:
    driver_link(
        actor=None,
        operator=joao_operator,
        person=joao,
        as_of=AS_OF,
        role="principal",
        cnh_number="02650306461",
        cnh_category="D",
        cnh_ear=True,
        cnh_first_issue=dt.date(2000, 1, 1),
    )
    ban_record(
        actor=None,
        municipality=olimpia,
        person=joao,
        reason_code="cassation",
        start=dt.date(2026, 5, 1),
        until=dt.date(2028, 5, 1),
        source="teste",
        decision={},
    )
    facts = operator_facts(joao_operator, as_of=AS_OF, active_permits=1)
    assert facts.person is not None and facts.person.cnh is not None and facts.person.cnh.category == "D"
    assert facts.bans == () and facts.active_permits == 1  # the ban starts after as_of
    assert len(operator_facts(joao_operator, as_of=dt.date(2026, 6, 1)).bans) == 1


def test_permit_application_counts_the_cars_drivers_and_maps_the_kind(
    joao_operator: Operator, joao: Person, kombi: Vehicle
) -> None:
    driver_link(
        actor=None,
        operator=joao_operator,
        person=joao,
        as_of=AS_OF,
        role="principal",
        cnh_number="02650306461",
        cnh_category="D",
        cnh_ear=True,
        vehicle=kombi,
    )
    application = _Application("substitution", joao_operator, kombi, AS_OF)
    facts = permit_application_facts(application, as_of=AS_OF, enrolled_students=30)
    assert facts.kind == "substitution" and facts.vehicle_drivers == 1 and facts.enrolled_students == 30
    assert [d.role for d in facts.drivers] == ["principal"]


def test_engine_judges_a_vehicle_built_from_rows(
    joao_operator: Operator, joao: Person, kombi: Vehicle, olimpia: Municipality
) -> None:
    """A 2005 vehicle is too old for Olímpia (art. 13, II): the refusal comes from the engine, with its article."""
    driver_link(
        actor=None,
        operator=joao_operator,
        person=joao,
        as_of=AS_OF,
        role="principal",
        cnh_number="02650306461",
        cnh_category="D",
        cnh_ear=True,
        vehicle=kombi,
    )
    kombi.manufacture_year, kombi.model_year, kombi.tachograph_ok = 2005, 2005, True
    application = _Application("vehicle_permit", joao_operator, kombi, AS_OF)
    decision = evaluate(
        municipality=olimpia,
        question="vehicle_permit",
        as_of=AS_OF,
        facts=permit_application_facts(
            application, as_of=AS_OF, vehicle=INSPECTED, carries_children_under_4_or_pcd=False
        ),
    )
    assert decision.outcome == "denied"
    assert any(c.dispositivo == "art13_incII" for c in decision.citations)
