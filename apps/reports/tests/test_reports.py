"""The managers' report: who sees it, what each section counts, the legal vehicle-age limit, the PDF."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.licensing.casebook import Case, pf_case
from apps.licensing.models import Permit
from apps.licensing.tests.conftest import issue_permit
from apps.reports import selectors as s
from apps.reports.charts import bar_chart
from apps.reports.selectors import Section, Series
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from outorga.pytest_plugin import require_tools

pytestmark = pytest.mark.django_db
AS_OF = dt.date(2026, 3, 10)
OLIMPIA = "3533908"


@pytest.fixture
def licensed(olimpia: Municipality) -> tuple[Case, Permit]:
    case = pf_case(olimpia, 1, "João da Silva", as_of=AS_OF)
    return case, issue_permit(case)


@pytest.fixture
def admin(admin_olimpia: User) -> User:
    return admin_olimpia


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_only_managers_of_the_municipality_open_the_report(
    admin_olimpia_client: Client,
    analyst_olimpia_client: Client,
    outsider_client: Client,
    agent_votuporanga_client: Client,
    olimpia: Municipality,
) -> None:
    url = reverse("reports:report", args=[OLIMPIA])
    assert admin_olimpia_client.get(url).status_code == 200
    for client in (analyst_olimpia_client, outsider_client, agent_votuporanga_client):
        assert client.get(url).status_code == 404
        assert client.get(reverse("reports:monthly_pdf", args=[OLIMPIA])).status_code == 404


def test_the_age_limit_is_the_one_the_law_engine_applied(
    licensed: tuple[Case, Permit], olimpia: Municipality
) -> None:
    limits = s.vehicle_age_limits(olimpia, olimpia.regimes)
    limit = limits["olimpia_sp_escolar"]
    assert limit is not None and limit.years == 15  # Olímpia, Lei 5.171/2025 art. 13, II
    assert "13" in limit.citation


def test_vehicle_ages_split_at_the_legal_limit(
    licensed: tuple[Case, Permit], olimpia: Municipality, admin: User
) -> None:
    case, _ = licensed
    age = AS_OF.year - case.vehicle.manufacture_year
    section = s.vehicle_ages(admin, olimpia, "", AS_OF)
    assert section is not None and section.limit_at == 16
    within, above = section.series
    assert within.values[age] == 1 and sum(above.values) == 0
    assert any("até 15 anos" in note for note in section.notes)


def test_without_a_decided_permit_the_report_says_the_limit_is_unknown(
    olimpia: Municipality, admin: User
) -> None:
    section = s.vehicle_ages(admin, olimpia, "", AS_OF)
    assert section is not None and section.limit_at is None
    assert any("limite aplicado pela lei não está disponível" in note for note in section.notes)


def test_permits_are_counted_by_their_situation_at_each_month_end(
    licensed: tuple[Case, Permit], olimpia: Municipality, admin: User
) -> None:
    _, permit = licensed
    months = s.months_ending(dt.date(2026, 3, 1), 3, AS_OF)
    assert [m.label for m in months] == ["jan/2026", "fev/2026", "mar/2026"]
    assert months[-1].last == AS_OF  # the current month counts up to the report date
    section = s.permits_by_status(admin, olimpia, "", months)
    assert section is not None
    active, expired, closed = section.series
    assert active.values == (0, 0, 1) and expired.values == (0, 0, 0) and closed.values == (0, 0, 0)
    Permit.objects.filter(pk=permit.pk).update(
        valid_until=dt.date(2026, 2, 20), issued_on=dt.date(2026, 1, 5), valid_from=dt.date(2026, 1, 5)
    )
    section = s.permits_by_status(admin, olimpia, "", months)
    assert section is not None
    assert section.series[0].values == (1, 0, 0) and section.series[1].values == (0, 1, 1)


def test_documents_expiring_are_grouped_in_30_60_90_days(
    licensed: tuple[Case, Permit], olimpia: Municipality, admin: User
) -> None:
    section = s.documents_expiring(admin, olimpia, AS_OF)
    assert section is not None
    assert section.categories == ("Vencem hoje", "Em 1 a 30 dias", "Em 31 a 60 dias", "Em 61 a 90 dias")
    from apps.registry.models import Document

    expected = [
        Document.objects.filter(
            municipality=olimpia,
            status="valid",
            valid_until__gt=AS_OF + dt.timedelta(days=a),
            valid_until__lte=AS_OF + dt.timedelta(days=b),
        ).count()
        for a, b in ((0, 30), (30, 60), (60, 90))
    ]
    assert list(section.series[0].values[1:]) == expected


def test_the_page_draws_each_chart_with_its_table(
    licensed: tuple[Case, Permit], admin_olimpia_client: Client
) -> None:
    content = admin_olimpia_client.get(
        reverse("reports:report", args=[OLIMPIA]), {"meses": "6"}
    ).content.decode()
    keys = (
        *("permits", "vehicle_ages", "documents", "people", "autos_article", "autos_severity", "autos_month"),
        *("recidivism", "appeals", "decision_time", "fines", "fees", "fiscal_units", "applications"),
        *("application_time", "refusals"),
    )
    for key in (*keys, "deadlines"):
        assert f'data-section="{key}"' in content
    charts = content.count("<svg")
    assert charts == len(keys) and content.count("<caption>") >= charts  # each chart has its table
    assert "style=" not in content.split("<main", 1)[-1]  # strict CSP: presentation attributes only
    assert "limite legal" in content and "R$ 0,00" in content
    # SVG coordinates need a decimal point: the pt-BR locale must not turn 12.5 into "12,5".
    assert re.search(r'<rect x="[0-9]+\.[0-9]"', content)
    assert not re.search(r'(x|y|x1|y1|width|height)="-?[0-9]+,[0-9]', content)


def test_a_section_needs_the_right_to_list_its_rows(
    make_staff: Callable[..., User], olimpia: Municipality
) -> None:
    """The auditor/DPO may open the report; sections of rows a role could not list are left out."""
    auditor = make_staff("ana.auditora", (olimpia, Role.AUDITOR_DPO))
    sections = s.fines_by_month(auditor, olimpia, "", s.months_ending(AS_OF, 3, AS_OF), AS_OF)
    from apps.tenancy.querysets import user_can

    assert (sections is not None) == user_can(auditor, olimpia.pk, "finance.paymentguide", "view")


def test_the_monthly_pdf_prints_the_sections(
    licensed: tuple[Case, Permit], admin_olimpia_client: Client
) -> None:
    response = admin_olimpia_client.get(reverse("reports:monthly_pdf", args=[OLIMPIA]), {"mes": "2026-03"})
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    require_tools("pdftotext", package="poppler-utils")
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True
    ).stdout
    words = text.decode()
    assert "Relatório mensal — mar/2026" in words
    assert "Autorizações por situação, mês a mês" in words and "Veículos por idade e o limite legal" in words


def test_stacked_bars_pile_up_and_scale_to_the_axis() -> None:
    section = Section("t", "T", ("a", "b"), (Series("x", (1, 3)), Series("y", (1, 1))), stacked=True)
    chart = bar_chart(section)
    heights = [bar.height for bar in chart.bars]
    assert heights[0] == heights[1] == heights[3]  # 1 and 1 in "a", 1 of "y" in "b"
    assert heights[2] == pytest.approx(3 * heights[0], abs=0.2)
    assert [tick.label for tick in chart.ticks] == ["0", "1", "2", "3", "4"]  # round ticks, no fractions
    assert chart.bars[1].y + chart.bars[1].height == pytest.approx(chart.bars[0].y, abs=0.2)
