"""São José dos Campos táxi (Lei 8.698/2012), in the browser: an analyst takes a resident autonomous driver from
the registration as permit holder (arts. 2º, 3º) to the Alvará de Permissão of his taxi, valid until the end of
the renewal month its plate's final digit sets (art. 6º); a second taxi for the same driver is refused with
art. 9º. Then an auto for refusing a passenger (art. 23, IV) goes from the agent's phone through the defence to
the Diretor do DTP and the appeal to the Secretário (art. 22 § 1º), to a final fine at the range's minimum (first
infraction, § 2º) updated every 1st January (art. 22 § 2º), whose guide finance issues.

The registry rows (person, CNH with EAR, vehicle, the documents of art. 3º) come from apps.licensing.casebook,
as the registration clerks would have left them; the fleet the yearly decree fixes (art. 19) is set through
lawconfig, as the municipality's administrator would; the inspection result arrives the way apps.inspections
delivers it.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

import lawcode
from apps.accounts.models import User
from apps.dueprocess.choices import Instance, Verdict
from apps.dueprocess.models import Sanction
from apps.enforcement.models import InfractionCase
from apps.lawconfig.services import parameter_value_set
from apps.licensing import services
from apps.licensing.casebook import Case, extra_vehicle, pf_case
from apps.licensing.models import Application, Permit
from apps.licensing.tests.conftest import issue_permit
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from lawcode.facts import DeadlineFacts

from .conftest import sign_in
from .test_dueprocess_flow import _judge, _notify_first_decision, _staff, _switch_user
from .test_enforcement_phone import PHONE, _fill_auto

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REGIME = "sao_jose_dos_campos_sp_taxi"
# Art. 6º: final digit of the plate → renewal month.
RENEWAL_MONTH = {0: 1, 1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5}


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def today() -> dt.date:
    return timezone.localdate()


@pytest.fixture
def sao_jose(make_municipality: Callable[..., Municipality], today: dt.date) -> Municipality:
    municipality = make_municipality("3549904", "São José dos Campos", "SP", [REGIME])
    parameter_value_set(actor=None, municipality=municipality, regime_id=REGIME, parameter="fleet_cap",
                        valid_from=dt.date(today.year, 1, 1), value=Decimal(440), cite="art19",
                        source="Decreto do número de táxis (teste de navegador)")  # fmt: skip
    return municipality


def log_in(page: Page, live_server: Any, username: str) -> None:
    sign_in(page, live_server.url, username)


def click_action(page: Page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).click()


def create_application(
    page: Page, live_server: Any, case: Case, kind: str, vehicle_pk: int | None
) -> Application:
    ibge = case.operator.municipality.ibge_code
    page.goto(f"{live_server.url}/municipios/{ibge}/licenciamento/autorizatarios/{case.operator.pk}/")
    page.get_by_role("link", name="Novo requerimento").click()
    page.get_by_label("Tipo de requerimento").select_option(kind)
    if vehicle_pk is not None:
        page.get_by_label("Veículo").select_option(str(vehicle_pk))
    page.get_by_role("button", name="Criar requerimento").click()
    expect(page.get_by_test_id("application-state")).to_have_text("Rascunho")
    return Application.objects.filter(operator=case.operator, kind=kind).latest("pk")


def to_analysis(page: Page) -> None:
    click_action(page, "Protocolar")
    click_action(page, "Iniciar análise")
    click_action(page, "Avaliar pela lei")
    expect(page.get_by_test_id("decision")).to_be_visible()


def inspection_passed(application: Application, today: dt.date) -> None:
    application.refresh_from_db()
    services.application_inspection_passed(
        application=application, performed_on=today, actor=None, as_of=today
    )


def renewal_day(plate: str, issued: dt.date) -> dt.date:
    """Last day of the plate's renewal month in the year after the permit is issued (INT-SJC-FIRST-RENEWAL)."""
    month = RENEWAL_MONTH[int(plate[-1])]
    return dt.date(issued.year + 1, month, calendar.monthrange(issued.year + 1, month)[1])


def test_sao_jose_taxi_driver_from_registration_to_a_permit_renewed_in_the_plate_month(
    page: Page, live_server: Any, sao_jose: Municipality, make_staff: Callable[..., User], today: dt.date
) -> None:
    make_staff("sara.analista", (sao_jose, Role.ANALYST))
    case = pf_case(sao_jose, 1, "Benedito Taxista", as_of=today)
    log_in(page, live_server, "sara.analista")

    create_application(page, live_server, case, "operator_registration", None)
    to_analysis(page)
    expect(page.locator('[data-finding="professional_driver"]')).to_have_attribute("data-status", "met")
    expect(page.locator('[data-finding="residence"]')).to_contain_text("art. 2º")
    click_action(page, "Deferir")
    expect(page.get_by_test_id("application-state")).to_have_text("Deferido")

    application = create_application(page, live_server, case, "vehicle_permit", case.vehicle.pk)
    to_analysis(page)
    expect(page.locator('[data-finding="fleet_cap"]')).to_contain_text("art. 19")
    expect(page.locator('[data-finding="renewal"]')).to_contain_text("art. 6º")
    click_action(page, "Encaminhar para vistoria")
    expect(page.get_by_test_id("application-state")).to_have_text("Aguardando vistoria")
    inspection_passed(application, today)
    page.reload()
    click_action(page, "Deferir")
    expect(page.get_by_test_id("application-state")).to_have_text("Deferido")
    page.get_by_test_id("issued-permit").click()
    expect(page.get_by_test_id("permit-state")).to_have_text("Ativo")
    until = renewal_day(case.vehicle.plate, today)
    expect(page.get_by_text(f"{today:%d/%m/%Y} a {until:%d/%m/%Y}")).to_be_visible()
    permit = Permit.objects.get(application=application)
    assert permit.valid_until == until

    second = extra_vehicle(case, 2, as_of=today)
    refused = create_application(page, live_server, case, "vehicle_permit", second.pk)
    to_analysis(page)
    expect(page.locator('[data-finding="one_taxi"]')).to_have_attribute("data-status", "not_met")
    refused.refresh_from_db()
    services.application_require_inspection(application=refused, actor=None, as_of=today)
    inspection_passed(refused, today)
    page.reload()
    click_action(page, "Deferir")
    expect(page.get_by_role("alert")).to_contain_text("art. 9º")
    assert not Permit.objects.filter(vehicle=second).exists()


# A hypothetical yearly update of 5 % (art. 22 § 2º leaves the index to the municipality's tax debts).
UPDATE_PERCENT = Decimal(5)


@pytest.fixture
def phone(browser: Any) -> Iterator[Page]:
    context = browser.new_context(locale="pt-BR", viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _file_on_paper(page: Page, case_url: str, instance: str) -> None:
    """The protocol registers the defence or appeal filed on paper."""
    page.goto(case_url)
    page.get_by_label("Instância", exact=True).select_option(instance)
    page.get_by_label("Data do protocolo").fill(timezone.localdate().isoformat())
    page.get_by_label("Razões").fill("O permissionário nega a recusa do passageiro.")
    page.get_by_role("button", name="Protocolar").click()
    expect(page.get_by_test_id("appeals")).to_contain_text("aguardando julgamento")


def _yearly_updates(municipality: Municipality, today: dt.date) -> Decimal:
    """Configure the update of every 1st January since 2013, as the administrator would; the factor to today."""
    factor = Decimal(1)
    for year in range(2013, today.year + 1):
        parameter_value_set(actor=None, municipality=municipality, regime_id=REGIME, parameter="fine_update_percent",
                            valid_from=dt.date(year, 1, 1), value=UPDATE_PERCENT, cite="art22_par2",
                            source=f"Índice de {year} (teste de navegador)")  # fmt: skip
        factor *= 1 + UPDATE_PERCENT / 100
    return factor


def test_sao_jose_auto_for_refusing_a_passenger_to_a_final_fine_judged_in_two_instances(
    phone: Page, page: Page, live_server: Any, sao_jose: Municipality, make_staff: Callable[..., User],
    today: dt.date,
) -> None:  # fmt: skip
    _staff(make_staff, sao_jose)
    factor = _yearly_updates(sao_jose, today)
    licensed = pf_case(sao_jose, 80, "Benedito Taxista", as_of=today - dt.timedelta(days=3))
    issue_permit(licensed, as_of=today - dt.timedelta(days=3))

    sign_in(phone, live_server.url, "ana.agente")
    phone.goto(f"{live_server.url}/municipios/{sao_jose.ibge_code}/fiscalizacao/autos/novo/")
    _fill_auto(phone, licensed.vehicle.plate, "recusa", "SJC-23-IV")
    phone.get_by_role("button", name="Lavrar auto").tap()
    phone.get_by_label("Meio").select_option("in_person")
    phone.get_by_label("Assinado por (pessoalmente)").fill("Benedito Taxista")
    phone.get_by_role("button", name="Registrar notificação").tap()
    expect(phone.get_by_test_id("case-state")).to_have_text("Notificado")
    case = InfractionCase.objects.get()

    url = live_server.url
    sign_in(page, url, "julia.juiza")
    case_url = f"{url}/municipios/{sao_jose.ibge_code}/processos/autos/{case.pk}/"
    _file_on_paper(page, case_url, Instance.FIRST)
    steps = page.get_by_test_id("steps")
    expect(steps).to_contain_text("Diretor do Departamento de Transportes Públicos")
    expect(steps).to_contain_text("Secretário de Transportes")
    # No deadline in the law: Lei 9.784/1999, 10 days to file and 30 to judge (INT-SJC-ORDINARY-APPEAL-DEADLINE).
    judge_by = lawcode.evaluate(
        REGIME, "judgment_deadline", DeadlineFacts(start=today, instance="first"), as_of=today
    )
    expect(page.get_by_test_id("appeals")).to_contain_text(f"{judge_by.result['end']:%d/%m/%Y}")
    _judge(page, url, sao_jose, Instance.FIRST, Verdict.UPHELD)
    expect(page.get_by_test_id("case-state")).to_have_text("Julgado em 1ª instância")
    _notify_first_decision(page, url, case)
    _file_on_paper(page, case_url, Instance.SECOND)
    _switch_user(page, url, "beto.junta")
    _judge(page, url, sao_jose, Instance.SECOND, Verdict.UPHELD)
    expect(page.get_by_test_id("case-state")).to_have_text("Decisão definitiva")
    expect(page.get_by_test_id("sanction-state")).to_have_text("Definitiva")

    amount = (Decimal("77.24") * factor).quantize(Decimal("0.01"))
    shown = f"R$ {amount:.2f}".replace(".", ",")
    expect(page.locator("body")).to_contain_text(shown)
    _switch_user(page, url, "fabi.financeiro")
    page.goto(case_url)
    page.get_by_test_id("fine-issue").click()
    expect(page.get_by_test_id("guide")).to_contain_text(shown)
    guide = Sanction.objects.get(case=case).guide
    assert guide is not None and guide.amount_brl == amount
