"""Complaints from the public, and the secretariat's queue behind the tenancy gate."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from apps.audit.models import AuditEvent
from apps.licensing.models import Permit
from apps.public import pow
from apps.public.models import Complaint
from apps.public.services import complaint_basis, complaint_file, complaint_move
from apps.tenancy.models import Municipality
from lawcode.registry import regime_ids

pytestmark = pytest.mark.django_db


def _form(today: dt.date, **overrides: str) -> dict[str, str]:
    data = {
        "municipio": "3533908",
        "category": "document_not_shown",
        "plate": "",
        "permit_number": "",
        "occurred_on": today.isoformat(),
        "place": "Escola Municipal Centro",
        "description": "O condutor não quis mostrar a autorização na saída da escola.",
        "contact": "",
    }
    return data | solved_challenge() | overrides


def solved_challenge() -> dict[str, str]:
    """What the form's script adds before sending: a fresh challenge and its proof of work."""
    challenge = pow.issue()
    return {"pow_challenge": challenge.token, "pow_nonce": pow.solve(challenge.token, challenge.bits)}


def test_a_parent_reports_a_problem_about_a_plate(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    form = _form(today, plate=olimpia_permit.vehicle.plate.lower(), contact="mae@exemplo.org.br")
    response = client.post("/consulta/denunciar/", form, follow=True)
    complaint = Complaint.objects.get()
    assert complaint.permit == olimpia_permit and complaint.plate == olimpia_permit.vehicle.plate
    assert complaint.number == f"DEN-0001/{today.year}"
    assert complaint.basis == "Lei 5.171/2025 (Olímpia), art. 23, I"
    assert f"protocolo DEN-0001/{today.year}" in response.content.decode()
    assert "mae@exemplo.org.br" not in response.content.decode()
    assert AuditEvent.objects.filter(action="complaint.file", object_id=str(complaint.pk)).count() == 1


def test_a_bad_complaint_is_refused_and_nothing_is_stored(
    client: Client, olimpia: Any, today: dt.date
) -> None:
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    for bad in ({"plate": "XX"}, {"occurred_on": tomorrow}, {"description": "curto"}, {"category": "nope"}):
        response = client.post("/consulta/denunciar/", _form(today, **bad))
        assert response.status_code == 400
    assert not Complaint.objects.exists()
    assert not AuditEvent.objects.filter(action="complaint.file").exists()


@pytest.mark.parametrize("regime_id", regime_ids())
def test_every_regime_basis_resolves_to_its_article(regime_id: str) -> None:
    assert "art." in complaint_basis(regime_id, dt.date(2026, 11, 30))


def test_votuporanga_and_patrocinio_cite_the_articles_on_showing_the_authorization() -> None:
    on = dt.date(2026, 11, 30)
    assert complaint_basis("votuporanga_sp_escolar", on) == "Lei 5.722/2015 (Votuporanga), art. 9º, II"
    assert (
        complaint_basis("patrocinio_mg_aplicativo", on)
        == "Lei 5.832/2025 (Patrocínio), art. 11, parágrafo único"
    )


def _complaint(municipality: Municipality, today: dt.date) -> Complaint:
    return complaint_file(
        municipality=municipality,
        category="no_permit",
        occurred_on=today,
        as_of=today,
        description="Van sem identificação levando crianças.",
        contact="17 99111-2222",
    )


def test_the_queue_is_for_the_municipality_staff_only(
    analyst_olimpia_client: Client,
    agent_votuporanga_client: Client,
    outsider_client: Client,
    client: Client,
    olimpia: Municipality,
    votuporanga: Municipality,
    today: dt.date,
) -> None:
    complaint = _complaint(olimpia, today)
    queue, detail = "/municipios/3533908/denuncias/", f"/municipios/3533908/denuncias/{complaint.pk}/"
    assert complaint.number in analyst_olimpia_client.get(queue).content.decode()
    assert agent_votuporanga_client.get(queue).status_code == 404
    assert agent_votuporanga_client.get(detail).status_code == 404
    assert outsider_client.get(detail).status_code == 404
    assert client.get(queue).status_code == 302  # anonymous: to the login page


def test_the_queue_sorts_by_protocol_both_ways(
    analyst_olimpia_client: Client, olimpia: Municipality, today: dt.date
) -> None:
    first, second = _complaint(olimpia, today), _complaint(olimpia, today)
    queue = "/municipios/3533908/denuncias/"
    ascending = analyst_olimpia_client.get(queue, {"ordering": "protocolo"}).content.decode()
    assert ascending.index(first.number) < ascending.index(second.number)
    assert (
        '<th scope="col" aria-sort="ascending"><a class="outorga-sort" href="?ordering=-protocolo"'
        in ascending
    )
    descending = analyst_olimpia_client.get(queue, {"ordering": "-protocolo"}).content.decode()
    assert descending.index(second.number) < descending.index(first.number)
    assert 'aria-sort="descending"' in descending and "Em ordem de chegada" not in descending


def test_reading_the_contact_is_an_audited_personal_data_read(
    analyst_olimpia_client: Client, olimpia: Municipality, today: dt.date
) -> None:
    complaint = _complaint(olimpia, today)
    page = analyst_olimpia_client.get(f"/municipios/3533908/denuncias/{complaint.pk}/").content.decode()
    assert "17 99111-2222" in page
    read = AuditEvent.objects.get(action="personal_data.read", object_id=str(complaint.pk))
    assert read.after == {"fields": ["contact"]}


def test_staff_move_a_complaint_and_closing_needs_the_measures(
    analyst_olimpia_client: Client, auditor_olimpia_client: Client, olimpia: Municipality, today: dt.date
) -> None:
    complaint = _complaint(olimpia, today)
    url = f"/municipios/3533908/denuncias/{complaint.pk}/"
    refused = analyst_olimpia_client.post(url, {"state": "closed", "resolution": ""})
    assert refused.status_code == 400 and "descreva as providências" in refused.content.decode()
    assert auditor_olimpia_client.post(url, {"state": "in_review"}).status_code == 404
    analyst_olimpia_client.post(url, {"state": "forwarded", "resolution": "Encaminhada ao agente."})
    analyst_olimpia_client.post(url, {"state": "closed", "resolution": "Auto de infração lavrado."})
    complaint.refresh_from_db()
    assert (complaint.state, complaint.closed_on, complaint.resolution) == (
        "closed",
        today,
        "Auto de infração lavrado.",
    )
    with pytest.raises(ValidationError):
        complaint_move(complaint=complaint, state="in_review", resolution="", actor=None, as_of=today)
