"""Inspection screens: persona isolation (outsider and other municipality → 404), the phone form records a
result or shows each refusal on its field, the HTMX toggle renders one item, scheduling refuses bad input."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.inspections.models import Inspection
from apps.inspections.tests.conftest import scheduled
from apps.licensing.casebook import Case
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
OLIMPIA = "3533908"


@pytest.fixture
def today() -> dt.date:
    return timezone.localdate()


@pytest.fixture
def pending(olimpia_case: Case, today: dt.date) -> Inspection:
    return scheduled(olimpia_case, as_of=today)


@pytest.fixture
def inspector_votuporanga_client(make_staff: Callable[..., User], votuporanga: Municipality) -> Client:
    client = Client()
    client.force_login(make_staff("vania.vistoriadora", (votuporanga, Role.INSPECTOR)))
    return client


def _urls(inspection: Inspection) -> list[str]:
    return [
        reverse("inspections:agenda", args=[OLIMPIA]),
        reverse("inspections:calendar", args=[OLIMPIA]),
        reverse("inspections:detail", args=[OLIMPIA, inspection.pk]),
        reverse("inspections:record", args=[OLIMPIA, inspection.pk]),
        reverse("inspections:schedule", args=[OLIMPIA, inspection.vehicle_id]),
    ]


def _form_data(
    inspection: Inspection, today: dt.date, *, failing: tuple[str, ...] = (), skip: str = ""
) -> dict[str, str]:
    from apps.inspections.lawbridge import checklist

    data = {"performed_on": today.isoformat(), "notes": ""}
    for item in checklist(inspection.regime_id).items_for(inspection.checklist_kind):
        if item.code != skip:
            data[f"item_{item.code}"] = "fail" if item.code in failing else "ok"
            data[f"note_{item.code}"] = "irregular" if item.code in failing else ""
    return data


def test_outsider_gets_404_everywhere(outsider_client: Client, pending: Inspection) -> None:
    for url in _urls(pending):
        assert outsider_client.get(url).status_code == 404, url


def test_another_municipalitys_inspector_gets_404(
    inspector_votuporanga_client: Client, pending: Inspection
) -> None:
    for url in _urls(pending):
        assert inspector_votuporanga_client.get(url).status_code == 404, url


def test_another_municipalitys_rows_are_absent_from_my_agenda(
    inspector_votuporanga_client: Client, pending: Inspection
) -> None:
    response = inspector_votuporanga_client.get(reverse("inspections:agenda", args=["3557105"]))
    assert response.status_code == 200
    assert pending.vehicle.plate_display not in response.content.decode()


def test_an_analyst_reads_but_cannot_record(analyst_olimpia_client: Client, pending: Inspection) -> None:
    assert (
        analyst_olimpia_client.get(reverse("inspections:detail", args=[OLIMPIA, pending.pk])).status_code
        == 200
    )
    assert (
        analyst_olimpia_client.get(reverse("inspections:record", args=[OLIMPIA, pending.pk])).status_code
        == 404
    )


def test_the_agenda_lists_todays_inspection(inspector_olimpia_client: Client, pending: Inspection) -> None:
    response = inspector_olimpia_client.get(reverse("inspections:agenda", args=[OLIMPIA]))
    assert response.status_code == 200
    assert pending.vehicle.plate_display in response.content.decode()
    assert response.context["due_today"] == [pending]


def test_the_form_shows_each_item_with_its_article(
    inspector_olimpia_client: Client, pending: Inspection
) -> None:
    html = inspector_olimpia_client.get(
        reverse("inspections:record", args=[OLIMPIA, pending.pk])
    ).content.decode()
    assert "Tacógrafo" in html and "Lei 5.171/2025 (Olímpia), art. 13, IV" in html
    assert 'name="item_tachograph"' in html and "Não conforme" in html


def test_a_form_missing_an_item_is_refused_naming_it(
    inspector_olimpia_client: Client, pending: Inspection, today: dt.date
) -> None:
    url = reverse("inspections:record", args=[OLIMPIA, pending.pk])
    response = inspector_olimpia_client.post(url, _form_data(pending, today, skip="tachograph"))
    assert response.status_code == 400
    assert "Tacógrafo (registrador de velocidade e tempo)" in response.content.decode()
    assert "marque conforme ou não conforme" in response.content.decode()
    pending.refresh_from_db()
    assert pending.result == "pending"


def test_a_future_date_is_refused_on_its_field(
    inspector_olimpia_client: Client, pending: Inspection, today: dt.date
) -> None:
    data = _form_data(pending, today) | {"performed_on": (today + dt.timedelta(days=2)).isoformat()}
    response = inspector_olimpia_client.post(reverse("inspections:record", args=[OLIMPIA, pending.pk]), data)
    assert response.status_code == 400
    assert response.context["form"].errors["performed_on"] == ["Data da vistoria: não pode ser no futuro."]
    pending.refresh_from_db()
    assert pending.result == "pending"


def test_a_failed_item_fails_the_vehicle_and_opens_a_reinspection(
    inspector_olimpia_client: Client, inspector_olimpia: User, pending: Inspection, today: dt.date
) -> None:
    url = reverse("inspections:record", args=[OLIMPIA, pending.pk])
    response = inspector_olimpia_client.post(url, _form_data(pending, today, failing=("seat_belts",)))
    assert response.status_code == 302
    pending.refresh_from_db()
    assert pending.result == "failed" and pending.inspector == inspector_olimpia
    page = inspector_olimpia_client.get(response["Location"]).content.decode()
    assert "Não conforme" in page and "CTB, art. 136, VI" in page
    assert Inspection.objects.get(previous=pending).result == "pending"


def test_a_failed_item_needs_a_note_and_the_page_says_whether_the_law_gives_time_to_cure(
    inspector_olimpia_client: Client, pending: Inspection, today: dt.date
) -> None:
    url = reverse("inspections:record", args=[OLIMPIA, pending.pk])
    data = _form_data(pending, today, failing=("seat_belts",))
    response = inspector_olimpia_client.post(url, data | {"note_seat_belts": " "})
    assert response.status_code == 400
    assert "descreva o que não está conforme" in response.content.decode()
    pending.refresh_from_db()
    assert pending.result == "pending"
    page = inspector_olimpia_client.post(url, data, follow=True).content.decode()
    pending.refresh_from_db()
    assert pending.result == "failed"
    if pending.cure_deadline is None:
        assert 'data-testid="no-cure-deadline"' in page and "A lei não fixa prazo para regularizar" in page
    else:
        assert 'data-testid="cure-deadline"' in page


def test_an_inspection_is_scheduled_from_the_agenda_by_plate_and_from_the_operator_page(
    inspector_olimpia_client: Client, analyst_olimpia_client: Client, olimpia_case: Case
) -> None:
    vehicle = olimpia_case.vehicle
    schedule = reverse("inspections:schedule", args=[OLIMPIA, vehicle.pk])
    agenda = inspector_olimpia_client.get(reverse("inspections:agenda", args=[OLIMPIA])).content.decode()
    assert "Agendar vistoria do veículo de placa" in agenda
    by_plate = reverse("inspections:schedule_by_plate", args=[OLIMPIA])
    response = inspector_olimpia_client.get(by_plate, {"placa": vehicle.plate_display.lower()})
    assert response.status_code == 302 and response["Location"] == schedule
    missing = inspector_olimpia_client.get(by_plate, {"placa": "ZZZ9Z99"}, follow=True).content.decode()
    assert "nenhum veículo cadastrado no município com esta placa" in missing
    operator_page = reverse("registry:operator_detail", args=[OLIMPIA, olimpia_case.operator.pk])
    assert schedule in analyst_olimpia_client.get(operator_page).content.decode()


def test_the_calendar_shows_the_agendas_overdue_and_booked_inspections(
    inspector_olimpia_client: Client, olimpia_case: Case, today: dt.date
) -> None:
    scheduled(olimpia_case, as_of=today - dt.timedelta(days=10))  # booked for ten days ago, never done
    agenda = inspector_olimpia_client.get(reverse("inspections:agenda", args=[OLIMPIA])).content.decode()
    assert 'data-testid="count-overdue">1<' in agenda
    calendar = inspector_olimpia_client.get(
        reverse("inspections:calendar", args=[OLIMPIA]), {"ano": today.year, "mes": today.month}
    ).content.decode()
    booked = calendar[calendar.index('data-testid="calendar-booked"') :].split("</p>")[0]
    assert "<strong>1</strong> atrasada hoje" in booked


def test_the_htmx_toggle_opens_the_note_of_a_failed_item(
    inspector_olimpia_client: Client, pending: Inspection
) -> None:
    url = reverse("inspections:item", args=[OLIMPIA, pending.pk, "tachograph"])
    html = inspector_olimpia_client.post(
        url, {"item_tachograph": "fail"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "is-fail" in html and 'name="note_tachograph"' in html
    html = inspector_olimpia_client.post(
        url, {"item_tachograph": "ok"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "is-ok" in html and 'name="note_tachograph"' not in html
    missing = reverse("inspections:item", args=[OLIMPIA, pending.pk, "rocket"])
    assert inspector_olimpia_client.post(missing, {}).status_code == 404


def test_scheduling_a_vehicle_of_another_municipality_is_404(
    inspector_olimpia_client: Client, votuporanga_case: Case
) -> None:
    url = reverse("inspections:schedule", args=[OLIMPIA, votuporanga_case.vehicle.pk])
    assert inspector_olimpia_client.get(url).status_code == 404
    assert (
        inspector_olimpia_client.post(url, {"kind": "periodic", "scheduled_for": "2030-01-01"}).status_code
        == 404
    )
    assert not Inspection.objects.exists()


def test_scheduling_refuses_a_past_date_on_its_field(
    inspector_olimpia_client: Client, olimpia_case: Case, today: dt.date
) -> None:
    url = reverse("inspections:schedule", args=[OLIMPIA, olimpia_case.vehicle.pk])
    past = (today - dt.timedelta(days=3)).isoformat()
    response = inspector_olimpia_client.post(url, {"kind": "periodic", "scheduled_for": past})
    assert response.status_code == 400
    assert response.context["form"].errors["scheduled_for"] == [
        "Data agendada: não pode ser anterior a hoje."
    ]
    response = inspector_olimpia_client.post(url, {"kind": "periodic", "scheduled_for": today.isoformat()})
    assert response.status_code == 302
    assert Inspection.objects.get().scheduled_for == today


def test_the_home_card_counts_todays_and_overdue(
    inspector_olimpia_client: Client, pending: Inspection, today: dt.date
) -> None:
    Inspection.objects.filter(pk=pending.pk).update(scheduled_for=today - dt.timedelta(days=2))
    response = inspector_olimpia_client.get(reverse("municipality_home", args=[OLIMPIA]))
    card = next(card for card in response.context["cards"] if card.key == "inspections")
    values = {item.label: item.value for item in card.items}
    assert values["Atrasadas"] == 1 and values["Agendadas para hoje"] == 0


def test_the_home_card_is_hidden_from_who_cannot_inspect(
    analyst_olimpia_client: Client, pending: Inspection
) -> None:
    response = analyst_olimpia_client.get(reverse("municipality_home", args=[OLIMPIA]))
    assert all(card.key != "inspections" for card in response.context["cards"])


def test_the_agenda_lists_applications_waiting_to_be_scheduled(
    inspector_olimpia_client: Client, olimpia_case: Case, today: dt.date
) -> None:
    from apps.inspections.tests.conftest import awaiting_inspection

    application = awaiting_inspection(olimpia_case, as_of=today)
    response = inspector_olimpia_client.get(reverse("inspections:agenda", args=[OLIMPIA]))
    assert response.context["to_schedule"] == [application]
    url = reverse("inspections:schedule", args=[OLIMPIA, olimpia_case.vehicle.pk])
    form = inspector_olimpia_client.get(url, {"requerimento": application.pk}).content.decode()
    assert f'<option value="{application.pk}" selected>' in form
    answer = inspector_olimpia_client.post(
        url, {"application": application.pk, "scheduled_for": today.isoformat()}
    )
    assert answer.status_code == 302
    assert Inspection.objects.get().application == application
    assert (
        inspector_olimpia_client.get(reverse("inspections:agenda", args=[OLIMPIA])).context["to_schedule"]
        == []
    )


def test_the_main_menu_links_the_agenda_only_for_who_may_read_inspections(
    inspector_olimpia_client: Client,
    admin_olimpia_client: Client,
    olimpia: Municipality,
    make_staff: Callable[..., User],
) -> None:
    agenda = reverse("inspections:agenda", args=[OLIMPIA])
    assert (
        agenda in inspector_olimpia_client.get(reverse("municipality_home", args=[OLIMPIA])).content.decode()
    )
    finance = Client()
    finance.force_login(make_staff("fabio.fin", (olimpia, Role.FINANCE)))
    assert agenda not in finance.get(reverse("municipality_home", args=[OLIMPIA])).content.decode()
