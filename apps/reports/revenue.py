"""The report's finance sections beyond the fines in R$: licensing fees in R$, and fines and fees in the fiscal
unit the law fixed them in (UFESP, UFM…), so a reader can compare months across a change of the unit's value.

Fees are the guides of applications; fines those of sanctions (the dívida ativa column stays with the fines,
the only guides the dívida ativa export sends). Units are the regime's own (units.yaml), named as it names them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from apps.finance.choices import GuideStatus, OriginType
from apps.finance.models import REAIS, Payment, PaymentGuide, unit_display
from apps.reports.selectors import Month, Section, Series, _in, _may, _sum_by_month
from apps.tenancy.models import Municipality

ZERO = Decimal("0.00")


def _guides(user: Any, municipality: Municipality, regime: str) -> QuerySet[PaymentGuide]:
    rows = _in(PaymentGuide.objects.all(), municipality, user)
    return rows.filter(regime_id=regime) if regime else rows


def fees_by_month(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month], as_of: dt.date
) -> Section | None:
    """Licensing fees issued, paid and overdue, in R$, by month (issue, payment and due months)."""
    if not _may(user, municipality, "finance.paymentguide"):
        return None
    guides = _guides(user, municipality, regime).filter(origin_type=OriginType.APPLICATION)
    start, end = months[0].first, months[-1].last
    issued = _sum_by_month(guides.filter(issued_on__gte=start, issued_on__lte=end), "issued_on", "amount_brl")
    paid = _sum_by_month(
        Payment.objects.filter(guide__in=guides, paid_on__gte=start, paid_on__lte=end),
        "paid_on",
        "amount_brl",
    )
    overdue = _sum_by_month(
        guides.filter(status=GuideStatus.OPEN, due_on__lt=as_of, due_on__gte=start, due_on__lte=end),
        "due_on",
        "amount_brl",
    )
    names = (("Emitidas", issued), ("Pagas", paid), ("Vencidas e não pagas", overdue))
    return Section(
        "fees",
        "Taxas de licenciamento por mês (R$)",
        tuple(m.label for m in months),
        tuple(Series(label, tuple(sums.get(m.first, ZERO) for m in months)) for label, sums in names),
        money=True,
        notes=(
            "Taxas dos requerimentos (autorização, renovação, vistoria…), pelo mês de emissão, pagamento e vencimento.",
        ),
    )


def in_fiscal_units(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    """Fines and fees issued in each fiscal unit, by issue month, in the unit's own quantity."""
    if not _may(user, municipality, "finance.paymentguide"):
        return None
    guides = _guides(user, municipality, regime).exclude(unit=REAIS)
    guides = guides.filter(issued_on__gte=months[0].first, issued_on__lte=months[-1].last)
    kinds: dict[str, str] = {OriginType.FINE: "Multas", OriginType.APPLICATION: "Taxas"}
    units = guides.order_by().values_list("origin_type", "regime_id", "unit").distinct()
    named: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for origin, regime_id, unit in units:
        label = f"{kinds.get(origin, origin)} ({unit_display(regime_id, unit)})"
        named.setdefault((origin, label), []).append((regime_id, unit))
    series = []
    for (origin, label), pairs in sorted(named.items(), key=lambda item: item[0][1]):
        sums: dict[dt.date, Decimal] = {}
        for regime_id, unit in pairs:
            rows = guides.filter(origin_type=origin, regime_id=regime_id, unit=unit)
            for month, total in _sum_by_month(rows, "issued_on", "quantity").items():
                sums[month] = sums.get(month, ZERO) + total
        series.append(Series(label, tuple(sums.get(m.first, ZERO) for m in months)))
    return Section(
        "fiscal_units",
        "Multas e taxas emitidas em unidade fiscal",
        tuple(m.label for m in months),
        tuple(series),
        decimals=True,
        notes=(
            "Quantidade na unidade fiscal em que a lei fixa o valor, pelo mês de emissão da guia; "
            "valores fixados em reais não entram aqui.",
        ),
    )
