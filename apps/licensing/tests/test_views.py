"""Screens and API: persona isolation (outsider and other municipality → 404/empty), the queue's filters,
search and constant-query pagination, the application page, actions through the services, the permit PDF."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.licensing import services
from apps.licensing.casebook import Case, extra_vehicle, pf_case
from apps.licensing.models import Application, Permit
from apps.licensing.tests.conftest import issue_permit, to_analysis
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


@pytest.fixture
def today() -> dt.date:
    return timezone.localdate()


@pytest.fixture
def case(olimpia: Municipality, today: dt.date) -> Case:
    return pf_case(olimpia, 1, "João da Silva", as_of=today)


@pytest.fixture
def application(case: Case, today: dt.date) -> Application:
    return to_analysis(case, as_of=today)


@pytest.fixture
def permit(case: Case, today: dt.date) -> Permit:
    return issue_permit(case, as_of=today)


@pytest.fixture
def votuporanga_client(make_staff: Callable[..., User], votuporanga: Municipality) -> Client:
    from apps.tenancy.choices import Role

    client = Client()
    client.force_login(make_staff("vera.analista", (votuporanga, Role.ANALYST)))
    return client


def _urls(application: Application, permit: Permit) -> list[str]:
    ibge = application.municipality.ibge_code
    return [
        reverse("licensing:application_list", args=[ibge]),
        reverse("licensing:application_detail", args=[ibge, application.pk]),
        reverse("licensing:operator_permits", args=[ibge, application.operator_id]),
        reverse("licensing:application_create", args=[ibge, application.operator_id]),
        reverse("licensing:permit_list", args=[ibge]),
        reverse("licensing:permit_detail", args=[ibge, permit.pk]),
        reverse("licensing:permit_pdf", args=[ibge, permit.pk]),
    ]


def test_outsider_and_other_municipality_get_404_everywhere(
    application: Application, permit: Permit, outsider_client: Client, votuporanga_client: Client
) -> None:
    for url in _urls(application, permit):
        assert outsider_client.get(url).status_code == 404, url
        assert votuporanga_client.get(url).status_code == 404, url


def test_other_municipality_cannot_move_an_application(
    application: Application, votuporanga_client: Client
) -> None:
    url = reverse("licensing:application_action", args=["3533908", application.pk, "deferir"])
    assert votuporanga_client.post(url).status_code == 404
    application.refresh_from_db()
    assert application.state == "in_analysis"


def test_an_auditor_sees_the_queue_but_cannot_act(
    application: Application, auditor_olimpia_client: Client
) -> None:
    detail = reverse("licensing:application_detail", args=["3533908", application.pk])
    response = auditor_olimpia_client.get(detail)
    assert response.status_code == 200 and b'data-action="deferir"' not in response.content
    action = reverse("licensing:application_action", args=["3533908", application.pk, "avaliar"])
    assert auditor_olimpia_client.post(action).status_code == 404


def test_the_application_page_lists_its_documents_with_the_laws_validity(
    application: Application, case: Case, analyst_olimpia_client: Client
) -> None:
    from apps.registry.models import Document

    page = analyst_olimpia_client.get(
        reverse("licensing:application_detail", args=["3533908", application.pk])
    ).content.decode()
    crlv = Document.objects.get(vehicle=case.vehicle, kind="crlv")
    assert 'data-testid="application-documents"' in page and f'data-document="{crlv.pk}"' in page
    assert crlv.get_kind_display() in page and f"{crlv.valid_until:%d/%m/%Y}" in page


def test_the_queue_filters_by_state_and_kind_and_searches_name_cpf_and_plate(
    application: Application, case: Case, analyst_olimpia_client: Client
) -> None:
    url = reverse("licensing:application_list", args=["3533908"])
    number = application.number.encode()
    assert number in analyst_olimpia_client.get(url, {"state": "in_analysis"}).content
    assert number not in analyst_olimpia_client.get(url, {"state": "draft"}).content
    assert number not in analyst_olimpia_client.get(url, {"kind": "renewal"}).content
    for term in (
        "joão da",
        case.person.cpf[:6],
        f"{case.person.cpf[:3]}.{case.person.cpf[3:6]}",
        case.vehicle.plate[:5].lower(),
    ):
        assert number in analyst_olimpia_client.get(url, {"q": term}).content, term
    assert number not in analyst_olimpia_client.get(url, {"q": "Ninguém Assim"}).content


def _list_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_queue_page_costs_the_same_queries_for_3_or_25_rows(
    case: Case, today: dt.date, analyst_olimpia_client: Client
) -> None:
    url = reverse("licensing:application_list", args=["3533908"])
    for _ in range(3):
        to_analysis(case, as_of=today)
    few = _list_queries(analyst_olimpia_client, url)
    for number in range(30):
        to_analysis(case, as_of=today, vehicle=extra_vehicle(case, 200 + number, as_of=today))
    many = _list_queries(analyst_olimpia_client, url)
    assert many == few
    assert b"Pr\xc3\xb3xima" in analyst_olimpia_client.get(url).content  # 33 rows: two pages


def test_the_application_page_shows_the_decision_with_citations_and_the_timeline(
    application: Application, today: dt.date, analyst_olimpia_client: Client
) -> None:
    services.application_evaluate(application=application, actor=None, as_of=today)
    response = analyst_olimpia_client.get(
        reverse("licensing:application_detail", args=["3533908", application.pk])
    )
    html = response.content.decode()
    assert 'data-testid="timeline-svg"' in html and 'data-status="today"' in html
    assert 'data-finding="vehicle_age"' in html and "Lei 5.171/2025 (Olímpia), art. 13, II" in html
    assert "Valores legais usados" in html
    # Issue 26: no code or ISO date in the result — the question as the law asks it, dates as dd/mm/aaaa.
    section = html[
        html.index('data-testid="decision"') : html.index("</section>", html.index('data-testid="decision"'))
    ]
    assert "«vehicle_permit»" not in section and f"na data de {today:%d/%m/%Y}" in section
    assert re.search(r"vigente desde \d{4}-", section) is None and "vigente desde " in section
    # ... and near the top of the page: above the actions and the timeline.
    assert html.index('data-testid="decision"') < html.index('aria-label="Ações"')
    assert html.index('data-testid="decision"') < html.index('data-testid="timeline-svg"')


def test_the_analyst_takes_an_application_to_a_permit_through_the_screen(
    case: Case, today: dt.date, analyst_olimpia_client: Client
) -> None:
    create = reverse("licensing:application_create", args=["3533908", case.operator.pk])
    response = analyst_olimpia_client.post(
        create,
        {
            "kind": "vehicle_permit",
            "vehicle": case.vehicle.pk,
            "carries_children_under_4_or_pcd": "false",
            "extensions": 0,
        },
    )
    application = Application.objects.get()
    assert response.status_code == 302
    for action in ("protocolar", "analisar", "avaliar", "pedir-vistoria"):
        analyst_olimpia_client.post(
            reverse("licensing:application_action", args=["3533908", application.pk, action])
        )
    services.application_inspection_passed(
        application=application, performed_on=today, actor=None, as_of=today
    )
    approve = reverse("licensing:application_action", args=["3533908", application.pk, "deferir"])
    response = analyst_olimpia_client.post(approve, follow=True)
    assert b"Deferido" in response.content
    permit = Permit.objects.get(application=application)
    pdf = analyst_olimpia_client.get(reverse("licensing:permit_pdf", args=["3533908", permit.pk]))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_a_refused_action_shows_the_portuguese_message_and_stores_nothing(
    application: Application, analyst_olimpia_client: Client
) -> None:
    url = reverse("licensing:application_action", args=["3533908", application.pk, "deferir"])
    response = analyst_olimpia_client.post(url, follow=True)
    assert "o veículo ainda não foi aprovado em vistoria" in response.content.decode()
    application.refresh_from_db()
    assert application.state == "in_analysis"


def test_the_create_form_names_the_missing_field(case: Case, analyst_olimpia_client: Client) -> None:
    create = reverse("licensing:application_create", args=["3533908", case.operator.pk])
    response = analyst_olimpia_client.post(create, {"kind": "vehicle_permit", "extensions": 0})
    assert response.status_code == 400
    assert "Veículo: obrigatório para «Alvará do veículo»." in response.content.decode()  # Olímpia's label
    assert not Application.objects.exists()


def test_the_create_form_offers_only_the_fields_the_regime_asks(
    case: Case, analyst_olimpia_client: Client, make_staff: Callable[..., User], patrocinio: Municipality
) -> None:
    from apps.tenancy.choices import Role

    olimpia = analyst_olimpia_client.get(
        reverse("licensing:application_create", args=["3533908", case.operator.pk])
    )
    html = olimpia.content.decode()
    assert "Comunicação da plataforma em" not in html and "Alunos matriculados" not in html
    assert "Transporta crianças menores de 4 anos" in html and "art. 13, VI" in html
    ride = pf_case(patrocinio, 43, "Rafael Aplicativo", as_of=timezone.localdate())
    client = Client()
    client.force_login(make_staff("pedro.analista", (patrocinio, Role.ANALYST)))
    html = client.get(
        reverse("licensing:application_create", args=["3148103", ride.operator.pk])
    ).content.decode()
    assert "Comunicação da plataforma em" in html and 'data-kinds="temporary_vehicle"' in html
    assert (
        "Só para: Veículo locado em substituição temporária (Lei 5.832/2025 (Patrocínio), art. 11-A)." in html
    )
    assert "Transporta crianças menores de 4 anos" not in html
    # Only the kinds Patrocínio's law has (labels.yaml), by its names: no monitor, no emergency driver.
    assert 'value="attendant_link"' not in html and 'value="emergency_driver"' not in html
    assert ">Alvará de Funcionamento do veículo<" in html


def test_a_kind_the_regimes_law_does_not_have_is_refused_by_the_service(
    make_staff: Callable[..., User], patrocinio: Municipality
) -> None:
    from django.core.exceptions import ValidationError

    from apps.licensing.services import application_create

    ride = pf_case(patrocinio, 44, "Rita Aplicativo", as_of=timezone.localdate())
    with pytest.raises(ValidationError) as refused:
        application_create(
            actor=None, operator=ride.operator, kind="attendant_link", as_of=timezone.localdate()
        )
    assert "«Vínculo de monitor» não existe na lei deste regime" in " ".join(refused.value.messages)


def test_the_create_form_refuses_an_answer_the_law_does_not_ask_for_the_kind(
    case: Case, analyst_olimpia_client: Client
) -> None:
    create = reverse("licensing:application_create", args=["3533908", case.operator.pk])
    response = analyst_olimpia_client.post(
        create, {"kind": "cancellation", "carries_children_under_4_or_pcd": "true", "extensions": 0}
    )
    assert response.status_code == 400
    assert (
        "Transporta crianças menores de 4 anos ou pessoas com deficiência?: a lei deste município não pede "
        "esta informação para «Cancelamento a pedido»" in response.content.decode()
    )
    assert not Application.objects.exists()


def test_the_permit_page_shows_the_public_verification_url(
    permit: Permit, analyst_olimpia_client: Client
) -> None:
    response = analyst_olimpia_client.get(reverse("licensing:permit_detail", args=["3533908", permit.pk]))
    assert f"http://testserver/verificar/{permit.qr_token}/".encode() in response.content


def test_home_cards_count_pending_applications_and_permits(
    application: Application, permit: Permit, analyst_olimpia_client: Client
) -> None:
    html = analyst_olimpia_client.get(reverse("municipality_home", args=["3533908"])).content.decode()
    assert "Requerimentos pendentes" in html and "Alvarás" in html


def test_api_lists_only_the_users_municipalities(
    application: Application,
    analyst_olimpia_client: Client,
    votuporanga_client: Client,
    outsider_client: Client,
) -> None:
    url = "/api/v1/licensing/applications/"
    assert analyst_olimpia_client.get(url).json()["count"] == 1
    assert votuporanga_client.get(url).json()["count"] == 0
    assert outsider_client.get(f"{url}{application.pk}/").status_code == 404
    detail = analyst_olimpia_client.get(f"{url}{application.pk}/").json()
    assert detail["number"] == application.number and [e["kind"] for e in detail["events"]][0] == "created"


def test_api_transition_moves_or_refuses_in_portuguese(
    application: Application, analyst_olimpia_client: Client, votuporanga_client: Client
) -> None:
    url = f"/api/v1/licensing/applications/{application.pk}/transition/"
    assert votuporanga_client.post(url, {"action": "evaluate"}).status_code == 404
    moved = analyst_olimpia_client.post(url, {"action": "evaluate"})
    assert moved.status_code == 200 and moved.json()["last_decision"]["outcome"] == "granted"
    refused = analyst_olimpia_client.post(url, {"action": "approve"})
    assert refused.status_code == 400
    assert "ainda não foi aprovado em vistoria" in refused.json()["inspection"][0]


def test_api_permits_and_openapi_schema(
    permit: Permit, analyst_olimpia_client: Client, outsider_client: Client
) -> None:
    listed = analyst_olimpia_client.get("/api/v1/licensing/permits/", {"state": "active"}).json()
    assert [row["number"] for row in listed["results"]] == [permit.number]
    assert outsider_client.get("/api/v1/licensing/permits/").json()["count"] == 0
    schema = analyst_olimpia_client.get("/api/v1/openapi.json").content.decode()
    assert "/api/v1/licensing/applications/{id}/transition/" in schema


def test_an_application_awaiting_inspection_links_to_scheduling_it(
    application: Application, today: dt.date, analyst_olimpia_client: Client, auditor_olimpia_client: Client
) -> None:
    detail = reverse("licensing:application_detail", args=["3533908", application.pk])
    in_analysis = analyst_olimpia_client.get(detail).content
    assert b'data-testid="schedule-inspection"' not in in_analysis
    services.application_require_inspection(application=application, actor=None, as_of=today)
    schedule = reverse("inspections:schedule", args=["3533908", application.vehicle_id])
    link = f'href="{schedule}?requerimento={application.pk}"'.encode()
    assert link in analyst_olimpia_client.get(detail).content
    assert link not in auditor_olimpia_client.get(detail).content  # reads, may not schedule
    form = analyst_olimpia_client.get(f"{schedule}?requerimento={application.pk}").content.decode()
    assert f'value="{application.pk}" selected' in form


def test_api_transition_on_a_non_numeric_id_answers_404_not_500(analyst_olimpia_client: Client) -> None:
    response = analyst_olimpia_client.post(
        "/api/v1/licensing/applications/abc/transition/",
        {"action": "submit"},
        content_type="application/json",
    )
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
