"""The judge's screen in the browser: nothing decided by default, the defence and each verdict's consequence in
view, a judgment without a verdict refused at the top of the page; and «Declarar decisão definitiva» absent
while the appeal period has not begun."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from apps.accounts.models import User
from apps.dueprocess.choices import Instance
from apps.dueprocess.services import appeal_file
from apps.enforcement.choices import NoticeChannel, NoticePurpose
from apps.enforcement.services import AutoDetails, case_open
from apps.enforcement.services.notices import notice_send
from apps.tenancy.models import Municipality

from .test_dueprocess_flow import _staff
from .test_enforcement_phone import _licensed, _log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


def _defended_case(municipality: Municipality, plate: str) -> Any:
    agent, judge = User.objects.get(username="ana.agente"), User.objects.get(username="julia.juiza")
    today = timezone.localdate()
    day = today - dt.timedelta(days=5)
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
    return appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=today,
        text="A van estava em manutenção.",
        actor=judge,
        as_of=today,
    )


def test_the_judge_chooses_a_verdict_knowing_what_it_does(
    page: Page, live_server: Any, make_staff: Callable[..., User], olimpia: Municipality
) -> None:
    _staff(make_staff, olimpia)
    appeal = _defended_case(olimpia, _licensed(olimpia, 72).vehicle.plate)
    _log_in(page, live_server.url, "julia.juiza")
    base = f"{live_server.url}/municipios/{olimpia.ibge_code}/processos"
    page.goto(f"{base}/recursos/{appeal.pk}/julgar/")
    expect(page.get_by_test_id("defence")).to_have_text("A van estava em manutenção.")
    expect(page.locator('input[name="verdict"]:checked')).to_have_count(0)
    expect(page.get_by_test_id("verdict-not_admitted")).to_have_count(0)  # filed in time
    expect(page.get_by_test_id("verdict-upheld").get_by_test_id("preview")).to_contain_text("Multa")
    expect(page.get_by_test_id("verdict-granted").get_by_test_id("preview")).to_contain_text(
        "O auto é cancelado"
    )

    page.get_by_label("Fundamentação").fill("Provas suficientes.")
    page.get_by_role("button", name="Registrar julgamento").click()
    expect(page.get_by_test_id("error-summary")).to_contain_text("Decisão: escolha uma das decisões.")

    page.get_by_test_id("verdict-upheld").locator("label").click()
    page.get_by_role("button", name="Registrar julgamento").click()
    expect(page.get_by_test_id("case-state")).to_have_text("Julgado em 1ª instância")
    # The first decision is not notified yet: the 2nd-instance period has not begun, so no finality button.
    expect(page.get_by_test_id("lapse")).to_contain_text("O prazo de recurso ainda não começou")
    expect(page.get_by_test_id("finalize")).to_have_count(0)
