"""The report's licensing sections: applications received and decided, time to decision, refusals by article.

A refusal's articles are the ones the law engine cited in the findings it did not meet (the stored decision of
the application), counted once per application: the chart answers "which requirement do applicants miss".
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet

from apps.licensing.choices import ApplicationState
from apps.licensing.models import Application
from apps.reports.proceedings import _monthly_count
from apps.reports.selectors import TOP_ARTICLES, Month, Section, Series, _in, _may
from apps.reports.stats import median, p90
from apps.tenancy.models import Municipality
from lawcode.citations import Citation
from lawcode.decision import Status

DECIDED = (
    (ApplicationState.APPROVED, "Deferidos"),
    (ApplicationState.DENIED, "Indeferidos"),
    (ApplicationState.ARCHIVED, "Arquivados"),
)


def _applications(user: Any, municipality: Municipality, regime: str) -> QuerySet[Application]:
    rows = _in(Application.objects.all(), municipality, user)
    return rows.filter(regime_id=regime) if regime else rows


def _decided(rows: QuerySet[Application], months: Sequence[Month]) -> QuerySet[Application]:
    return rows.filter(
        state__in=[state for state, _ in DECIDED],
        decided_on__gte=months[0].first,
        decided_on__lte=months[-1].last,
    )


def applications_by_month(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    """Applications filed (by filing month) and decided (by decision month, split by the outcome)."""
    if not _may(user, municipality, "licensing.application"):
        return None
    rows = _applications(user, municipality, regime)
    filed = _monthly_count(
        rows.filter(submitted_on__gte=months[0].first, submitted_on__lte=months[-1].last), "submitted_on"
    )
    decided = _decided(rows, months)
    series = [Series("Protocolados", tuple(filed.get(m.first, 0) for m in months))]
    for state, label in DECIDED:
        counts = _monthly_count(decided.filter(state=state), "decided_on")
        series.append(Series(label, tuple(counts.get(m.first, 0) for m in months)))
    return Section(
        "applications",
        "Requerimentos protocolados e decididos por mês",
        tuple(m.label for m in months),
        tuple(series),
    )


def time_to_decision(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    """Days from filing to decision, median and 90th percentile, by the month of the decision."""
    if not _may(user, municipality, "licensing.application"):
        return None
    decided = _decided(_applications(user, municipality, regime), months).filter(submitted_on__isnull=False)
    durations: dict[dt.date, list[int]] = {}
    for submitted, decided_on in decided.values_list("submitted_on", "decided_on"):
        if submitted is None or decided_on is None:
            continue  # filtered out above; the column types still allow it
        durations.setdefault(decided_on.replace(day=1), []).append((decided_on - submitted).days)
    every = [days for values in durations.values() for days in values]
    return Section(
        "application_time",
        "Tempo do protocolo à decisão do requerimento",
        tuple(m.label for m in months),
        (
            Series("Mediana (dias)", tuple(median(durations.get(m.first, [])) for m in months)),
            Series("90% decididos em até (dias)", tuple(p90(durations.get(m.first, [])) for m in months)),
        ),
        notes=(
            f"No período: {len(every)} requerimentos decididos; mediana de {median(every)} dias, "
            f"90% em até {p90(every)} dias (dias corridos).",
        ),
    )


def refusals_by_article(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    """Applications refused in the period, by each article the engine found not met."""
    if not _may(user, municipality, "licensing.application"):
        return None
    denied = _decided(_applications(user, municipality, regime), months).filter(state=ApplicationState.DENIED)
    counts: Counter[str] = Counter()
    for decision in denied.values_list("last_decision", flat=True):
        counts.update(set(_unmet_articles(decision or {})))
    top = counts.most_common(TOP_ARTICLES)
    return Section(
        "refusals",
        "Indeferimentos por dispositivo não atendido",
        tuple(article for article, _ in top),
        (Series("Requerimentos indeferidos", tuple(n for _, n in top)),),
        notes=(
            f"Os {TOP_ARTICLES} dispositivos mais citados nos indeferimentos do período; um requerimento "
            "indeferido por vários motivos conta em cada dispositivo.",
        ),
        category_header="Dispositivo",
    )


def _unmet_articles(decision: dict[str, Any]) -> list[str]:
    unmet = [f for f in decision.get("findings", []) if f.get("status") == Status.NOT_MET]
    return [Citation.from_dict(data).render() for finding in unmet for data in finding.get("citations", [])]
