"""The report's enforcement and finance sections over real autos, final sanctions and fine guides."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from apps.accounts.models import User
from apps.dueprocess.services.fines import fine_issue
from apps.dueprocess.tests.helpers import final_without_appeal, notify, open_case
from apps.enforcement.choices import NoticePurpose
from apps.finance.choices import FeeKind, OriginType
from apps.finance.models import PaymentGuide
from apps.finance.services import fee_guide_issue, fee_schedule_create
from apps.reports import revenue
from apps.reports import selectors as s
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
D = dt.date


@pytest.fixture
def fined(
    olimpia: Municipality,
    agent_olimpia: User,
    judge_olimpia: User,
    finance_olimpia: User,
    olimpia_licensed: Any,
) -> PaymentGuide:
    """One auto of March 2026, final without appeal, its fine issued on 25/03 and due on 24/04."""
    plate = olimpia_licensed[1].vehicle.plate
    case = open_case(olimpia, agent_olimpia, code="OLI-23-I", plate=plate, on=D(2026, 3, 12))
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    notify(case, agent_olimpia, D(2026, 3, 25), NoticePurpose.FINAL_DECISION)
    return fine_issue(sanction=sanction, actor=finance_olimpia, as_of=D(2026, 3, 25))


def test_autos_are_counted_by_article_and_by_month(
    fined: PaymentGuide, olimpia: Municipality, admin_olimpia: User
) -> None:
    months = s.months_ending(D(2026, 4, 1), 3, D(2026, 4, 30))
    by_article = s.autos_by_article(admin_olimpia, olimpia, "", months)
    assert by_article is not None and by_article.series[0].values == (1,)
    # The article infringed as the law writes it (never the cite key), then the infraction.
    assert by_article.categories[0].startswith("Lei 5.171/2025 (Olímpia), art. ")
    by_month = s.autos_by_month(admin_olimpia, olimpia, "", months)
    assert by_month is not None and by_month.series[0].values == (0, 1, 0)
    other_regime = s.autos_by_month(admin_olimpia, olimpia, "votuporanga_sp_escolar", months)
    assert other_regime is not None and other_regime.series[0].values == (0, 0, 0)


def test_fines_issued_overdue_and_for_dividaativa_in_reais(
    fined: PaymentGuide, olimpia: Municipality, admin_olimpia: User
) -> None:
    amount = fined.amount_brl
    assert amount == Decimal("576.30")
    months = s.months_ending(D(2026, 4, 1), 2, D(2026, 5, 10))  # March and April, read on 10/05
    section = s.fines_by_month(admin_olimpia, olimpia, "", months, D(2026, 5, 10))
    assert section is not None and section.money
    issued, paid, overdue, debt = (series.values for series in section.series)
    assert issued == (amount, Decimal("0.00"))  # issued in March
    assert paid == (Decimal("0.00"), Decimal("0.00"))
    assert overdue == (Decimal("0.00"), amount) and debt == (Decimal("0.00"), amount)  # due in April, unpaid
    before_due = s.fines_by_month(admin_olimpia, olimpia, "", months, D(2026, 4, 20))
    assert before_due is not None and before_due.series[2].values == (Decimal("0.00"), Decimal("0.00"))


def test_fines_are_also_reported_in_their_fiscal_unit(
    fined: PaymentGuide, olimpia: Municipality, admin_olimpia: User
) -> None:
    assert fined.unit != "brl" and fined.quantity > 0
    months = s.months_ending(D(2026, 4, 1), 2, D(2026, 4, 30))
    section = revenue.in_fiscal_units(admin_olimpia, olimpia, "", months)
    assert section is not None and section.decimals
    [series] = section.series
    assert series.label == f"Multas ({fined.get_unit_display()})"
    assert series.values == (fined.quantity, Decimal("0.00"))  # issued in March
    assert section.text(Decimal("15.0000")) == "15"


def test_fees_are_counted_apart_from_fines(
    fined: PaymentGuide, olimpia: Municipality, admin_olimpia: User
) -> None:
    fee_schedule_create(
        actor=None,
        municipality=olimpia,
        regime_id=None,
        fee_kind=FeeKind.PERMIT,
        quantity=Decimal("150.00"),
        unit="brl",
        cite="art3",
        valid_from=D(2025, 9, 24),
    )
    guide = fee_guide_issue(
        actor=None,
        municipality=olimpia,
        fee_kind=FeeKind.PERMIT,
        payer_name="José da Silva",
        payer_document="52998224725",
        origin_type=OriginType.APPLICATION,
        origin_id=1,
        fact_date=D(2026, 3, 2),
        as_of=D(2026, 3, 2),
    )
    months = s.months_ending(D(2026, 3, 1), 1, D(2026, 3, 31))
    section = revenue.fees_by_month(admin_olimpia, olimpia, "", months, D(2026, 3, 31))
    assert section is not None and section.money
    issued, paid, overdue = (series.values for series in section.series)
    assert issued == (Decimal("150.00"),) and paid == (Decimal("0.00"),)  # the fine is not a fee
    assert guide.due_on < D(2026, 3, 31)  # due days after issue: overdue when read on 31/03
    assert overdue == (Decimal("150.00"),)
    # In the fiscal-unit section the fee in reais is left out; the fine (in its unit) stays alone.
    units = revenue.in_fiscal_units(admin_olimpia, olimpia, "", months)
    assert units is not None and [series.label for series in units.series] == [
        f"Multas ({fined.get_unit_display()})"
    ]
