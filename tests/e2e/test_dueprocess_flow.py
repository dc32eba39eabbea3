"""Due process in the browser. Per regime: the agent files an auto on the phone and notifies in person, the
protocol registers the defence on paper, the judge (and, where the law has one, the second instance/JARI after
the first decision is notified) upholds it, and the case page shows the final penalty — the permit follows
(Olímpia and Votuporanga: direct cassação revokes it; Patrocínio: no municipal penalty, the permit stays).
Then, in Olímpia, an appeal granted after the fine was paid: the guide is issued and paid on screen, the board
grants the second-instance appeal and the refund of art. 35 is due."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from apps.accounts.models import User
from apps.dueprocess.choices import Instance, SanctionState, Verdict
from apps.dueprocess.models import Sanction
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.enforcement.choices import NoticeChannel, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.enforcement.services import AutoDetails, case_open
from apps.enforcement.services.notices import notice_send
from apps.finance.models import Refund
from apps.finance.services import finance_settings_save
from apps.licensing.choices import PermitState
from apps.licensing.models import Permit
from apps.licensing.tests.conftest import _votuporanga_fleet_cap  # noqa: F401  (fixture reuse)
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .test_enforcement_phone import PHONE, _fill_auto, _licensed, _log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Words to find the infraction, its code, and the permit's state once the penalty is final.
REGIMES = {
    "olimpia": ("cassação", "OLI-25-III", PermitState.REVOKED),
    "votuporanga": ("fraude", "VOT-15-II", PermitState.REVOKED),
    "patrocinio": ("logomarca", "PAT-5", PermitState.ACTIVE),
}


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def phone(browser: Any) -> Iterator[Page]:
    context = browser.new_context(locale="pt-BR", viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _staff(make_staff: Callable[..., User], municipality: Municipality) -> None:
    make_staff("ana.agente", (municipality, Role.ENFORCEMENT_AGENT), full_name="Ana Agente")
    make_staff("julia.juiza", (municipality, Role.JUDGING_AUTHORITY), full_name="Júlia Julgadora")
    make_staff("beto.junta", (municipality, Role.APPEAL_BOARD), full_name="Beto da Junta")
    make_staff("fabi.financeiro", (municipality, Role.FINANCE), full_name="Fabiana Financeiro")
    finance_settings_save(
        actor=None,
        municipality=municipality,
        pix_key="3f1c2b7a-0d4e-4c1a-9b8e-6a5d4c3b2a10",
        receiver_name="PREFEITURA",
        receiver_city="CIDADE",
        guide_due_days=10,
    )


def _switch_user(page: Page, url: str, username: str) -> None:
    page.context.clear_cookies()
    _log_in(page, url, username)


def _file_on_paper(page: Page, case_url: str, instance: str) -> None:
    page.goto(case_url)
    page.get_by_label("Instância", exact=True).select_option(instance)
    page.get_by_label("Data do protocolo").fill(timezone.localdate().isoformat())
    page.get_by_label("Razões").fill("O autuado nega os fatos.")
    page.get_by_role("button", name="Protocolar").click()
    expect(page.get_by_test_id("appeals")).to_contain_text("aguardando julgamento")


def _judge(page: Page, url: str, municipality: Municipality, instance: str, verdict: str) -> None:
    page.goto(f"{url}/municipios/{municipality.ibge_code}/processos/fila/{instance}/")
    page.get_by_role("link", name="Julgar", exact=True).first.click()
    page.get_by_test_id(f"verdict-{verdict}").locator("label").click()
    page.get_by_label("Fundamentação").fill("Provas suficientes nos autos.")
    page.get_by_role("button", name="Registrar julgamento").click()


def _notify_first_decision(page: Page, url: str, case: InfractionCase) -> None:
    page.goto(f"{url}/municipios/{case.municipality.ibge_code}/fiscalizacao/autos/{case.pk}/")
    page.get_by_label("Finalidade").select_option(NoticePurpose.FIRST_DECISION)
    page.get_by_label("Meio").select_option("in_person")
    page.get_by_label("Assinado por (pessoalmente)").fill("João da Silva")
    page.get_by_role("button", name="Registrar notificação").click()


@pytest.mark.parametrize("short", list(REGIMES))
def test_an_auto_goes_from_the_phone_form_to_the_final_penalty(
    phone: Page,
    page: Page,
    live_server: Any,
    make_staff: Callable[..., User],
    request: pytest.FixtureRequest,
    short: str,
    _votuporanga_fleet_cap: None,  # noqa: F811
) -> None:
    municipality: Municipality = request.getfixturevalue(short)
    _staff(make_staff, municipality)
    licensed = _licensed(municipality, 70)
    words, code, permit_state = REGIMES[short]
    _log_in(phone, live_server.url, "ana.agente")
    phone.goto(f"{live_server.url}/municipios/{municipality.ibge_code}/fiscalizacao/autos/novo/")
    _fill_auto(phone, licensed.vehicle.plate, words, code)
    phone.get_by_role("button", name="Lavrar auto").tap()
    phone.get_by_label("Meio").select_option("in_person")
    phone.get_by_label("Assinado por (pessoalmente)").fill("João da Silva")
    phone.get_by_role("button", name="Registrar notificação").tap()
    expect(phone.get_by_test_id("case-state")).to_have_text("Notificado")
    case = InfractionCase.objects.get()

    _log_in(page, live_server.url, "julia.juiza")
    case_url = f"{live_server.url}/municipios/{municipality.ibge_code}/processos/autos/{case.pk}/"
    _file_on_paper(page, case_url, Instance.FIRST)
    _judge(page, live_server.url, municipality, Instance.FIRST, Verdict.UPHELD)
    if short != "patrocinio":
        expect(page.get_by_test_id("case-state")).to_have_text("Julgado em 1ª instância")
        _notify_first_decision(page, live_server.url, case)
        _file_on_paper(page, case_url, Instance.SECOND)
        _switch_user(page, live_server.url, "beto.junta")
        _judge(page, live_server.url, municipality, Instance.SECOND, Verdict.UPHELD)
    expect(page.get_by_test_id("case-state")).to_have_text("Decisão definitiva")
    expect(page.get_by_test_id("sanction-state")).to_have_text("Definitiva")
    sanction = Sanction.objects.get(case=case)
    assert sanction.decided_final_on == timezone.localdate()
    assert Permit.objects.get(vehicle=licensed.vehicle).state == permit_state
    if permit_state == PermitState.REVOKED:
        expect(page.get_by_test_id("effects")).to_contain_text("Cassação da autorização")


def _condemned_in_first_instance(municipality: Municipality, plate: str) -> InfractionCase:
    """Auto, notice, defence and the upheld first decision through the services, 20 days ago."""
    agent, judge = User.objects.get(username="ana.agente"), User.objects.get(username="julia.juiza")
    today = timezone.localdate()
    day = today - dt.timedelta(days=20)
    occurred = dt.datetime.combine(day, dt.time(7), tzinfo=timezone.get_current_timezone())
    details = AutoDetails(
        infraction_code="OLI-23-I",
        plate=plate,
        occurred_at=occurred,
        place="Rua A, 1",
        description="Constatado.",
        agent_registration="F-1",
    )
    case = case_open(municipality=municipality, actor=agent, details=details, recorded_at=occurred)
    notice_send(
        case=case,
        actor=agent,
        purpose=NoticePurpose.INFRACTION,
        channel=NoticeChannel.IN_PERSON,
        sent_on=day,
        as_of=today,
        signature_name="João da Silva",
    )
    appeal = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=day + dt.timedelta(days=2),
        text="Defesa.",
        actor=judge,
        as_of=today,
    )
    appeal_judge(
        appeal=appeal,
        verdict=Verdict.UPHELD,
        reasoning="Mantido.",
        decided_on=day + dt.timedelta(days=5),
        actor=judge,
        as_of=today,
    )
    return case


def test_an_appeal_granted_after_payment_refunds_the_fine(
    page: Page, live_server: Any, make_staff: Callable[..., User], olimpia: Municipality
) -> None:
    _staff(make_staff, olimpia)
    licensed = _licensed(olimpia, 71)
    case = _condemned_in_first_instance(olimpia, licensed.vehicle.plate)
    url = live_server.url
    case_url = f"{url}/municipios/{olimpia.ibge_code}/processos/autos/{case.pk}/"
    _log_in(page, url, "julia.juiza")
    _notify_first_decision(page, url, case)
    _switch_user(page, url, "fabi.financeiro")
    page.goto(case_url)
    expect(page.get_by_test_id("sanction-state")).to_have_text("Condenado em 1ª instância (cabe recurso)")
    page.get_by_test_id("fine-issue").click()
    expect(page.get_by_test_id("guide")).to_contain_text("em aberto")
    page.get_by_test_id("guide").get_by_role("link").click()
    page.get_by_role("link", name="Registrar pagamento").click()
    page.get_by_role("button", name="Registrar pagamento").click()
    page.goto(case_url)
    expect(page.get_by_test_id("guide")).to_contain_text("paga")

    _switch_user(page, url, "julia.juiza")
    _file_on_paper(page, case_url, Instance.SECOND)
    _switch_user(page, url, "beto.junta")
    _judge(page, url, olimpia, Instance.SECOND, Verdict.GRANTED)
    expect(page.get_by_test_id("case-state")).to_have_text("Cancelado")
    expect(page.get_by_test_id("sanction-state")).to_have_text("Anulada (recurso procedente)")
    refund = Refund.objects.get()
    assert refund.amount_brl == Sanction.objects.get(case=case).guide.amount_brl  # type: ignore[union-attr]
    assert Sanction.objects.get(case=case).state == SanctionState.ANNULLED
    _switch_user(page, url, "fabi.financeiro")
    page.goto(f"{url}/municipios/{olimpia.ibge_code}/financeiro/restituicoes/")
    expect(page.get_by_text(f"Recurso procedente: multa do auto {case.number} devolvida")).to_be_visible()
