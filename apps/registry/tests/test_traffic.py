"""The driving record: declared, confirmed from a document, and what the law then sees (or says it cannot)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from apps.audit.models import AuditEvent
from apps.lawconfig.engine import evaluate
from apps.registry.lawfacts import operator_facts, person_facts
from apps.registry.models import Document, Operator, Person
from apps.registry.services import document_upload, driver_link, person_create
from apps.registry.tests.conftest import AS_OF, pdf_upload
from apps.registry.traffic import (
    traffic_infraction_declare,
    traffic_infraction_withdraw,
    traffic_record_confirm,
)
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def _certidao(person: Person, issued: dt.date = dt.date(2026, 2, 20)) -> Document:
    return document_upload(
        actor=None,
        owner=person,
        kind="no_gravissima_proof",
        upload=pdf_upload(),
        issue_date=issued,
        as_of=AS_OF,
    )


def _gravissima_finding(operator: Operator, municipality: Municipality, as_of: dt.date = AS_OF) -> dict:
    decision = evaluate(
        municipality=municipality,
        question="operator_registration",
        as_of=as_of,
        facts=operator_facts(operator, as_of=as_of),
    )
    return next(f for f in decision.to_dict()["findings"] if f["code"] == "no_gravissima")


@pytest.fixture
def joao_drives(joao_operator: Operator, joao: Person) -> Operator:
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
    return joao_operator


def test_an_unconfirmed_record_is_unknown_to_the_law_never_zero(
    joao_drives: Operator, joao: Person, olimpia: Municipality
) -> None:
    traffic_infraction_declare(
        actor=None, person=joao, date=dt.date(2025, 11, 3), severity="leve", as_of=AS_OF
    )
    assert person_facts(joao, as_of=AS_OF).traffic_infractions is None
    finding = _gravissima_finding(joao_drives, olimpia)
    assert finding["status"] == "not_met"
    assert "desconhecidas" in finding["message"] and finding["data"]["count"] is None
    assert [c["dispositivo"] for c in finding["citations"]] == ["art9_incVIII"]


def test_a_confirmed_gravissima_counts_and_denies_under_the_municipal_reading(
    joao_drives: Operator, joao: Person, olimpia: Municipality
) -> None:
    traffic_infraction_declare(
        actor=None,
        person=joao,
        date=dt.date(2025, 11, 3),
        severity="gravissima",
        as_of=AS_OF,
        description="Art. 165 do CTB",
    )
    traffic_record_confirm(actor=None, person=joao, document=_certidao(joao), as_of=AS_OF)
    finding = _gravissima_finding(joao_drives, olimpia)
    assert (finding["status"], finding["data"]["count"]) == ("not_met", 1)
    # Twelve months later the infraction has left the window: the same record now meets art. 9 VIII.
    assert _gravissima_finding(joao_drives, olimpia, dt.date(2026, 11, 10))["status"] == "met"


def test_a_confirmed_clean_record_meets_the_requirement(
    joao_drives: Operator, joao: Person, olimpia: Municipality
) -> None:
    traffic_record_confirm(actor=None, person=joao, document=_certidao(joao), as_of=AS_OF)
    assert person_facts(joao, as_of=AS_OF).traffic_infractions == ()
    finding = _gravissima_finding(joao_drives, olimpia)
    assert (finding["status"], finding["data"]["count"]) == ("met", 0)


def test_the_record_is_known_only_from_the_documents_date_and_frozen_when_confirmed(joao: Person) -> None:
    traffic_infraction_declare(
        actor=None, person=joao, date=dt.date(2025, 6, 1), severity="grave", as_of=AS_OF
    )
    traffic_record_confirm(
        actor=None, person=joao, document=_certidao(joao, dt.date(2026, 2, 20)), as_of=AS_OF
    )
    traffic_infraction_declare(
        actor=None, person=joao, date=dt.date(2026, 2, 27), severity="gravissima", as_of=AS_OF
    )
    assert person_facts(joao, as_of=dt.date(2026, 2, 19)).traffic_infractions is None
    record = person_facts(joao, as_of=AS_OF).traffic_infractions
    assert record is not None and [(i.date, i.severity) for i in record] == [(dt.date(2025, 6, 1), "grave")]


def test_each_write_is_audited(joao: Person) -> None:
    infraction = traffic_infraction_declare(
        actor=None, person=joao, date=dt.date(2025, 6, 1), severity="media", as_of=AS_OF
    )
    traffic_infraction_withdraw(actor=None, infraction=infraction)
    traffic_record_confirm(actor=None, person=joao, document=_certidao(joao), as_of=AS_OF)
    actions = list(
        AuditEvent.objects.filter(action__startswith="registry.traffic").values_list("action", flat=True)
    )
    assert sorted(actions) == [
        "registry.traffic_infraction.declare",
        "registry.traffic_infraction.withdraw",
        "registry.traffic_record.confirm",
    ]


def test_refusals_name_the_field(joao: Person, olimpia: Municipality) -> None:
    other = person_create(actor=None, municipality=olimpia, cpf="111.444.777-35", name="Maria", as_of=AS_OF)
    with pytest.raises(ValidationError) as future:
        traffic_infraction_declare(
            actor=None, person=joao, date=AS_OF + dt.timedelta(days=1), severity="leve", as_of=AS_OF
        )
    assert "date" in future.value.message_dict
    with pytest.raises(ValidationError) as foreign:
        traffic_record_confirm(actor=None, person=joao, document=_certidao(other), as_of=AS_OF)
    assert "document" in foreign.value.message_dict
