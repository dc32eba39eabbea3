"""The report's enforcement and finance sections over real autos, final sanctions and fine guides."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from apps.accounts.models import User
from apps.dueprocess.fines import fine_issue
from apps.dueprocess.tests.helpers import final_without_appeal, notify, open_case
from apps.enforcement.choices import NoticePurpose
from apps.finance.models import PaymentGuide
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
    assert by_article.categories[0].startswith("art")  # the article infringed, then the infraction
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
