"""An inspector on a phone (390×844) fails a vehicle on one item, then passes its re-inspection; the
application waiting for the inspection moves back to analysis."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from apps.accounts.models import User
from apps.inspections.models import Inspection
from apps.inspections.services import inspection_schedule
from apps.licensing import services as licensing
from apps.licensing.casebook import pf_case
from apps.licensing.models import Application
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SCREENSHOT = "/tmp/outorga-inspection-phone.png"


@pytest.fixture
def phone(browser: Any) -> Iterator[Page]:
    context = browser.new_context(locale="pt-BR", viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def inspector(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff("ivo.vistoriador", (olimpia, Role.INSPECTOR), full_name="Ivo Vistoriador")


@pytest.fixture
def waiting(olimpia: Municipality, inspector: User, settings: Any, tmp_path: Any) -> Inspection:
    settings.MEDIA_ROOT = tmp_path / "media"
    today = timezone.localdate()
    case = pf_case(olimpia, 41, "João da Silva", as_of=today)
    application = licensing.application_create(
        actor=None, operator=case.operator, kind="vehicle_permit", as_of=today, vehicle=case.vehicle
    )
    for move in (
        licensing.application_submit,
        licensing.application_start_analysis,
        licensing.application_require_inspection,
    ):
        application = move(application=application, actor=None, as_of=today)
    return inspection_schedule(
        actor=None,
        vehicle=case.vehicle,
        application=application,
        scheduled_for=today,
        as_of=today,
        inspector=inspector,
    )


def _log_in(page: Page, url: str) -> None:
    sign_in(page, url, "ivo.vistoriador")


def _choose(page: Page, code: str, choice: str) -> None:
    item = page.locator(f'[data-testid="item-{code}"]')
    item.get_by_text(choice, exact=True).tap()
    expected = "is-ok" if choice == "Conforme" else "is-fail"
    expect(page.locator(f'[data-testid="item-{code}"]')).to_have_class(f"vistoria-item {expected}")


def _fill_form(page: Page, failing: str = "") -> None:
    fieldsets = page.locator("fieldset.vistoria-item")
    expect(fieldsets.first).to_be_visible()
    codes = [str(fieldsets.nth(i).get_attribute("id"))[5:] for i in range(fieldsets.count())]
    assert "tachograph" in codes and "permit_number_doors" not in codes  # first inspection: no number yet
    for code in codes:
        _choose(page, code, "Não conforme" if code == failing else "Conforme")
    if failing:
        page.get_by_label("Observação (o que está irregular)").fill("Tacógrafo sem lacre.")


def _no_horizontal_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_an_inspector_fails_then_passes_a_vehicle_on_a_phone(
    phone: Page, live_server: Any, waiting: Inspection
) -> None:
    _log_in(phone, live_server.url)
    phone.get_by_role("link", name="Minha agenda").tap()
    phone.locator('[data-testid="today"]').get_by_role("link", name=waiting.vehicle.plate_display).tap()
    phone.get_by_test_id("record-link").tap()
    expect(phone.get_by_text("Lei 5.171/2025 (Olímpia), art. 13, IV").first).to_be_visible()
    _no_horizontal_scroll(phone)

    phone.get_by_test_id("submit-result").tap()  # nothing marked: refused, nothing stored
    expect(phone.get_by_test_id("form-errors")).to_be_visible()
    expect(phone.get_by_text("marque conforme ou não conforme").first).to_be_visible()

    _fill_form(phone, failing="tachograph")
    phone.screenshot(path=SCREENSHOT, full_page=True)
    phone.get_by_test_id("submit-result").tap()
    expect(phone.get_by_test_id("inspection-result")).to_have_text("Reprovada")
    expect(phone.get_by_test_id("items")).to_contain_text("Tacógrafo sem lacre.")

    phone.get_by_test_id("reinspection-link").tap()
    phone.get_by_test_id("record-link").tap()
    _fill_form(phone)
    phone.get_by_test_id("submit-result").tap()
    expect(phone.get_by_test_id("inspection-result")).to_have_text("Aprovada")
    _no_horizontal_scroll(phone)

    assert waiting.application_id is not None
    application = Application.objects.get(pk=waiting.application_id)
    assert application.state == "in_analysis"
    assert application.inspection_passed_on == timezone.localdate()
    assert [row.result for row in Inspection.objects.order_by("pk")] == ["failed", "passed"]
    assert Inspection.objects.get(result="passed").previous_id == waiting.pk
