"""Finance's boundary with the law engine: a charge in a declared unit → the regime's ``fine_amount`` question,
asked through apps.lawconfig.engine (finance.valuation reads the answer and stores it on the guide)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import lawcode
from apps.lawconfig import engine
from apps.tenancy.models import Municipality
from lawcode.facts import FineFacts


def fine_amount(
    municipality: Municipality,
    regime_id: str,
    *,
    quantity: Decimal,
    unit: str,
    fact_date: dt.date,
    auto_date: dt.date | None,
    issue_date: dt.date,
    decided_final_on: dt.date | None = None,
) -> lawcode.Decision:
    """The amount in reais of ``quantity`` ``unit`` as the law values it for a guide issued on ``issue_date``."""
    facts = FineFacts(
        quantity=quantity,
        unit=unit,
        infraction_date=fact_date,
        auto_date=auto_date,
        guide_issue_date=issue_date,
        decided_final_on=decided_final_on,
    )
    return engine.evaluate(
        municipality=municipality, question="fine_amount", facts=facts, as_of=issue_date, regime_id=regime_id
    )
