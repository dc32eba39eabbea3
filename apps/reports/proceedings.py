"""The report's due-process sections: autos by severity, recidivism, appeals, and time to the final decision.

Severity and recidivism are the law's, never the app's: an auto's severity is the one its regime's catalog
declares for the infraction, and an auto is a recidivism when the engine's sanction decision said so under the
regime's own rule (window, anchor and scope are the regime's parameters and interpretations). A regime whose
sanction rule has no recidivism at all is named in a note instead of being counted as 0 %.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Count, F, QuerySet
from django.db.models.functions import TruncMonth

import lawcode
from apps.dueprocess.choices import Instance, SanctionState, Verdict
from apps.dueprocess.models import Appeal, Judgment, Sanction
from apps.registry.choices import InfractionSeverity
from apps.reports.selectors import Month, Section, Series, _by_month, _cases, _may
from apps.reports.stats import median, p90
from apps.tenancy.models import Municipality
from apps.tenancy.regimes import regime_summary

UNCLASSIFIED = "Sem classe de gravidade (penalidade própria)"
PENDING = "Aguardando julgamento"


def _children(
    queryset: QuerySet[Any], user: Any, municipality: Municipality, regime: str, prefix: str
) -> QuerySet[Any]:
    """Rows that belong to the municipality through their case (``prefix`` is the path to the case)."""
    rows: QuerySet[Any] = queryset.for_user(user, "view")  # type: ignore[attr-defined]
    rows = rows.filter(**{f"{prefix}municipality": municipality})
    return rows.filter(**{f"{prefix}regime_id": regime}) if regime else rows


def severity_label(regime_id: str, code: str) -> str:
    entry = lawcode.get_regime(regime_id).catalog.get(code)
    labels = dict(InfractionSeverity.choices)
    return UNCLASSIFIED if entry is None else labels.get(entry.severity, UNCLASSIFIED)


def autos_by_severity(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    """Autos of the period by the severity class the regime's catalog gives their infraction."""
    if not _may(user, municipality, "enforcement.infractioncase"):
        return None
    grouped = (
        _cases(user, municipality, regime, months)
        .order_by()
        .values_list("regime_id", "infraction_code")
        .annotate(n=Count("pk"))
    )
    counts: Counter[str] = Counter()
    for regime_id, code, n in grouped:
        counts[severity_label(regime_id, code)] += n
    order = [label for _, label in InfractionSeverity.choices] + [UNCLASSIFIED]
    categories = tuple(label for label in order if counts[label])
    return Section(
        "autos_severity",
        "Autos de infração por gravidade",
        categories,
        (Series("Autos", tuple(counts[c] for c in categories)),),
        notes=("Gravidade conforme o catálogo de infrações da lei de cada regime.",),
        category_header="Gravidade",
    )


def recidivism(user: Any, municipality: Municipality, regime: str, months: Sequence[Month]) -> Section | None:
    """Final penalties by the month they became final, and how many the engine judged a recidivism."""
    if not _may(user, municipality, "dueprocess.sanction"):
        return None
    finals = _children(Sanction.objects.all(), user, municipality, regime, "case__").filter(
        state=SanctionState.FINAL,
        decided_final_on__gte=months[0].first,
        decided_final_on__lte=months[-1].last,
    )
    defined = finals.filter(decision__result__has_key="recidivism")
    total = _monthly_count(defined, "decided_final_on")
    repeated = _monthly_count(defined.filter(recidivism=True), "decided_final_on")
    series = (
        Series("Penalidades definitivas", tuple(total.get(m.first, 0) for m in months)),
        Series("Com reincidência", tuple(repeated.get(m.first, 0) for m in months)),
    )
    undefined = sorted(
        set(finals.exclude(pk__in=defined.values("pk")).values_list("case__regime_id", flat=True))
    )
    return Section(
        "recidivism",
        "Reincidência nas penalidades definitivas",
        tuple(m.label for m in months),
        series,
        notes=_recidivism_notes(sum(total.values()), sum(repeated.values()), undefined),
    )


def _recidivism_notes(total: int, repeated: int, undefined: Iterable[str]) -> tuple[str, ...]:
    rate = f"{repeated / total * 100:.1f}".replace(".", ",") if total else "0,0"
    notes = [
        f"Taxa de reincidência no período: {rate}% ({repeated} de {total} penalidades definitivas).",
        "Reincidência como a lei de cada regime a define (prazo e contagem), decidida em cada penalidade.",
    ]
    notes += [
        f"{regime_summary(regime_id)[0]}: a lei não prevê reincidência; suas penalidades não entram na taxa."
        for regime_id in undefined
    ]
    return tuple(notes)


def _monthly_count(rows: QuerySet[Any], date_field: str) -> dict[dt.date, int]:
    grouped = rows.order_by().annotate(month=TruncMonth(date_field)).values("month").annotate(n=Count("pk"))
    return _by_month(grouped, "n")


def appeals_by_instance(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    """Appeals filed in the period by instance, split by the judgment's verdict (or still pending)."""
    if not _may(user, municipality, "dueprocess.appeal"):
        return None
    rows = _children(Appeal.objects.all(), user, municipality, regime, "case__").filter(
        filed_on__gte=months[0].first, filed_on__lte=months[-1].last
    )
    grouped = Counter(
        {
            (instance, verdict or ""): n
            for instance, verdict, n in rows.order_by()
            .values_list("instance", "judgment__verdict")
            .annotate(n=Count("pk"))
        }
    )
    outcomes = [*Verdict.choices, ("", PENDING)]
    series = tuple(
        Series(label, tuple(grouped[(instance, value)] for instance in Instance.values))
        for value, label in outcomes
    )
    return Section(
        "appeals",
        "Recursos por instância e resultado",
        tuple(Instance.labels),
        series,
        stacked=True,
        notes=("Recursos protocolados no período; o resultado é o do julgamento, se já houve.",),
        category_header="Instância",
    )


def time_to_final_decision(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    """Days from the auto to its final decision (a final penalty, or the judgment that cancelled the auto),
    median and 90th percentile, by the month of the final decision."""
    if not _may(user, municipality, "dueprocess.sanction"):
        return None
    start, end = months[0].first, months[-1].last
    finals = _children(Sanction.objects.all(), user, municipality, regime, "case__").filter(
        state=SanctionState.FINAL, decided_final_on__gte=start, decided_final_on__lte=end
    )
    cancelled = _children(Judgment.objects.all(), user, municipality, regime, "appeal__case__").filter(
        verdict=Verdict.GRANTED, decided_on__gte=start, decided_on__lte=end
    )
    durations: dict[dt.date, list[int]] = {}
    pairs = [
        *finals.values_list("decided_final_on", F("case__drawn_on")),
        *cancelled.values_list("decided_on", F("appeal__case__drawn_on")),
    ]
    for decided, drawn in pairs:
        durations.setdefault(decided.replace(day=1), []).append((decided - drawn).days)
    series = (
        Series("Mediana (dias)", tuple(median(durations.get(m.first, [])) for m in months)),
        Series("90% decididos em até (dias)", tuple(p90(durations.get(m.first, [])) for m in months)),
    )
    every = [days for values in durations.values() for days in values]
    return Section(
        "decision_time",
        "Tempo do auto à decisão definitiva",
        tuple(m.label for m in months),
        series,
        notes=(
            f"No período: {len(every)} decisões definitivas; mediana de {median(every)} dias, "
            f"90% em até {p90(every)} dias.",
            "Decisão definitiva: penalidade sem recurso no prazo ou mantida na última instância, ou auto "
            "cancelado em recurso. Dias corridos desde a lavratura do auto.",
        ),
    )
