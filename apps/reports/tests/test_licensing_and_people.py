"""Licensing sections over hand-built applications (filed, decided, refused by the articles the engine cited) and
the people section over the licensed operator of the fixture."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

import lawcode
from apps.accounts.models import User
from apps.licensing.choices import ApplicationKind, ApplicationState
from apps.licensing.models import Application
from apps.registry.choices import OperatorStatus
from apps.reports import applications as a
from apps.reports import people
from apps.reports import selectors as s
from apps.tenancy.models import Municipality
from apps.tenancy.regimes import regime_summary

pytestmark = pytest.mark.django_db
D = dt.date
OLIMPIA = "olimpia_sp_escolar"


def _finding(status: str, *refs: str) -> dict[str, Any]:
    regime = lawcode.get_regime(OLIMPIA)
    citations = [regime.resolve_citation(ref, D(2025, 5, 1)).to_dict() for ref in refs]
    return {"code": "x", "status": status, "message": "…", "citations": citations}


@pytest.fixture
def filed(olimpia: Municipality, olimpia_licensed: Any) -> list[Application]:
    """May 2025: one approved in 20 days, one refused in 41 days (art. 3º twice in one finding's list, art. 22),
    one refused in 10 days (art. 3º), one still in analysis."""
    operator = olimpia_licensed[1].operator
    rows: list[tuple[Any, ...]] = [
        (1, ApplicationState.APPROVED, D(2025, 5, 5), D(2025, 5, 25), []),
        (
            2,
            ApplicationState.DENIED,
            D(2025, 5, 10),
            D(2025, 6, 20),
            [("not_met", "art3", "art22"), ("met", "art5")],
        ),
        (3, ApplicationState.DENIED, D(2025, 5, 20), D(2025, 5, 30), [("not_met", "art3")]),
        (4, ApplicationState.IN_ANALYSIS, D(2025, 5, 21), None, []),
    ]
    return [
        Application.objects.create(
            municipality=olimpia,
            regime_id=OLIMPIA,
            number=f"{n}/2025",
            year=2025,
            sequence=n,
            kind=ApplicationKind.VEHICLE_PERMIT,
            state=state,
            operator=operator,
            submitted_on=submitted,
            decided_on=decided,
            last_decision={"findings": [_finding(status, *refs) for status, *refs in findings]},
        )
        for n, state, submitted, decided, findings in rows
    ]


MAY_JUNE = s.months_ending(D(2025, 6, 1), 2, D(2026, 3, 10))


def test_applications_filed_and_decided_by_month(
    filed: list[Application], olimpia: Municipality, admin_olimpia: User
) -> None:
    section = a.applications_by_month(admin_olimpia, olimpia, "", MAY_JUNE)
    assert section is not None
    by_label = {series.label: series.values for series in section.series}
    assert by_label == {
        "Protocolados": (4, 0),
        "Deferidos": (1, 0),
        "Indeferidos": (1, 1),
        "Arquivados": (0, 0),
    }


def test_time_to_decision_median_and_p90(
    filed: list[Application], olimpia: Municipality, admin_olimpia: User
) -> None:
    section = a.time_to_decision(admin_olimpia, olimpia, "", MAY_JUNE)
    assert section is not None
    assert section.series[0].values == (10, 41)  # May: 20 and 10 days (nearest rank: 10); June: 41
    assert section.series[1].values == (20, 41)
    assert "3 requerimentos decididos; mediana de 20 dias, 90% em até 41 dias" in section.notes[0]


def test_refusals_are_counted_by_each_article_not_met(
    filed: list[Application], olimpia: Municipality, admin_olimpia: User
) -> None:
    section = a.refusals_by_article(admin_olimpia, olimpia, "", MAY_JUNE)
    assert section is not None
    counts = dict(zip(section.categories, section.series[0].values, strict=True))
    assert counts == {"Lei 5.171/2025 (Olímpia), art. 3º": 2, "Lei 5.171/2025 (Olímpia), art. 22": 1}


def test_operators_and_drivers_by_regime(
    olimpia_licensed: Any, olimpia: Municipality, admin_olimpia: User
) -> None:
    section = people.operators_and_drivers(admin_olimpia, olimpia, OLIMPIA)
    assert section is not None
    assert section.categories == (regime_summary(OLIMPIA)[0],)
    by_label = {series.label: series.values for series in section.series}
    active = olimpia_licensed[1].operator.status == OperatorStatus.ACTIVE
    assert by_label["Autorizatários ativos"] == (int(active),)
    assert by_label["Outros autorizatários"] == (int(not active),)
    assert by_label["Condutores ativos"] == (
        olimpia_licensed[1].operator.drivers.filter(active=True).count(),
    )
