"""The report's people section: operators (autorizatários) and drivers by regime, by their registry status."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import Count

from apps.registry.choices import OperatorStatus
from apps.registry.models import Driver, Operator
from apps.reports.selectors import Section, Series, _in, _may
from apps.tenancy.models import Municipality
from apps.tenancy.regimes import regime_summary


def operators_and_drivers(user: Any, municipality: Municipality, regime: str) -> Section | None:
    """Per regime: active operators, the other operators (in registration, suspended, revoked, cancelled) and
    active drivers, as the registry stands today."""
    if not _may(user, municipality, "registry.operator"):
        return None
    regimes = [regime] if regime else list(municipality.regimes)
    operators = _in(Operator.objects.filter(regime_id__in=regimes), municipality, user)
    by_status = Counter(
        {
            (regime_id, status == OperatorStatus.ACTIVE): n
            for regime_id, status, n in operators.order_by()
            .values_list("regime_id", "status")
            .annotate(n=Count("pk"))
        }
    )
    drivers = _active_drivers(user, municipality, regimes)
    series = [
        Series("Autorizatários ativos", tuple(by_status[(r, True)] for r in regimes)),
        Series("Outros autorizatários", tuple(by_status[(r, False)] for r in regimes)),
    ]
    if drivers is not None:
        series.append(Series("Condutores ativos", tuple(drivers[r] for r in regimes)))
    return Section(
        "people",
        "Autorizatários e condutores por regime",
        tuple(regime_summary(r)[0] for r in regimes),
        tuple(series),
        notes=("Outros autorizatários: em cadastro, suspensos, cassados ou cancelados.",),
        category_header="Regime",
    )


def _active_drivers(user: Any, municipality: Municipality, regimes: list[str]) -> Counter[str] | None:
    if not _may(user, municipality, "registry.driver"):
        return None
    rows = _in(Driver.objects.active().filter(operator__regime_id__in=regimes), municipality, user)
    return Counter(dict(rows.order_by().values_list("operator__regime_id").annotate(n=Count("pk"))))
