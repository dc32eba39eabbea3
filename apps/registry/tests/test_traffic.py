"""The driving record: declared, confirmed from a document, and what the law then sees (or says it cannot)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from apps.audit.models import AuditEvent
from apps.lawconfig.engine import evaluate
from apps.registry.lawbridge import operator_facts, person_facts
from apps.registry.models import Document, Operator, Person, TrafficInfraction, TrafficRecordConfirmation
from apps.registry.services import document_upload, driver_link, person_create
from apps.registry.services.traffic import (
    traffic_infraction_declare,
    traffic_infraction_withdraw,
    traffic_record_confirm,
)
from apps.registry.tests.conftest import AS_OF, pdf_upload
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


def _gravissima_finding(
    operator: Operator, municipality: Municipality, as_of: dt.date = AS_OF
) -> dict[str, Any]:
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


# --- the driver's page ------------------------------------------------------------------------------------


def _record_url(operator: Operator) -> str:
    return reverse(
        "registry:driver_record", args=[operator.municipality.ibge_code, operator.drivers.get().pk]
    )


def test_the_analyst_declares_and_confirms_on_the_drivers_page(
    analyst_olimpia_client: Client, joao_drives: Operator, joao: Person, olimpia: Municipality
) -> None:
    url = _record_url(joao_drives)
    page = analyst_olimpia_client.get(url).content.decode()
    assert "Prontuário ainda não confirmado" in page and "desconhecidas" in page
    declared = analyst_olimpia_client.post(
        url, {"acao": "declarar", "date": "2025-11-03", "severity": "gravissima", "description": "Art. 165"}
    )
    assert declared.status_code == 302
    document = _certidao(joao)
    confirmed = analyst_olimpia_client.post(url, {"acao": "confirmar", "document": document.pk})
    assert confirmed.status_code == 302
    page = analyst_olimpia_client.get(url).content.decode()
    assert "Prontuário confirmado" in page and "Gravíssima em 03/11/2025 (Art. 165)" in page
    assert "<td>Gravíssima</td>" in page  # the label, never the raw code
    assert _gravissima_finding(joao_drives, olimpia)["data"]["count"] == 1


def test_a_future_date_is_refused_on_the_field(analyst_olimpia_client: Client, joao_drives: Operator) -> None:
    response = analyst_olimpia_client.post(
        _record_url(joao_drives), {"acao": "declarar", "date": "2099-01-01", "severity": "leve"}
    )
    assert response.status_code == 400 and "está no futuro" in response.content.decode()
    assert not TrafficInfraction.objects.exists()


def test_who_may_see_declare_and_confirm(
    auditor_olimpia_client: Client, agent_votuporanga_client: Client, joao_drives: Operator, joao: Person
) -> None:
    url = _record_url(joao_drives)
    assert auditor_olimpia_client.get(url).status_code == 200
    assert agent_votuporanga_client.get(url).status_code == 404
    refused = auditor_olimpia_client.post(url, {"acao": "confirmar", "document": _certidao(joao).pk})
    assert refused.status_code == 404 and not TrafficRecordConfirmation.objects.exists()
    infraction = traffic_infraction_declare(
        actor=None, person=joao, date=dt.date(2025, 6, 1), severity="leve", as_of=AS_OF
    )
    remove = reverse(
        "registry:traffic_infraction_remove", args=["3533908", joao_drives.drivers.get().pk, infraction.pk]
    )
    assert auditor_olimpia_client.post(remove).status_code == 404
    assert TrafficInfraction.objects.filter(pk=infraction.pk).exists()
