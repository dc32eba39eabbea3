"""The numbers of the managers' report, each section in a constant number of aggregate queries.

Every section starts from `.for_user(user, "view")` of the rows it counts: a person without the right to list
autos sees no autos chart. Months are calendar months in the municipality's clock; the current month counts
up to ``as_of`` (the date the report is read for), never beyond.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.db.models.functions import TruncMonth

from apps.dueprocess.choices import SanctionState
from apps.enforcement.citations import infraction_cite_text
from apps.enforcement.models import InfractionCase
from apps.finance.choices import GuideStatus, OriginType
from apps.finance.formatting import brl, decimal_pt
from apps.finance.models import Payment, PaymentGuide
from apps.licensing.choices import PermitState
from apps.licensing.models import Application, Permit
from apps.registry.choices import DocumentStatus
from apps.registry.models import Document, Vehicle
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import user_can

MONTHS_PT = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")
EXPIRY_WINDOWS = (30, 60, 90)
TOP_ARTICLES = 10
RECENT_DECISIONS = 20  # the latest decisions read for the vehicle-age limit (most carry it)
VEHICLE_AGE_FINDING = "vehicle_age"  # the finding code every regime's vehicle rule reports (lawcode)


@dataclass(frozen=True)
class Month:
    first: dt.date
    last: dt.date

    @property
    def label(self) -> str:
        return f"{MONTHS_PT[self.first.month - 1]}/{self.first:%Y}"


@dataclass(frozen=True)
class Series:
    label: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Section:
    """One chart and its table: categories on the x axis, one or more series; ``money`` for R$ values."""

    key: str
    title: str
    categories: tuple[str, ...]
    series: tuple[Series, ...]
    money: bool = False
    stacked: bool = False
    notes: tuple[str, ...] = field(default=())
    limit_at: int | None = None  # index of the first category above a legal limit (vehicle ages)
    decimals: bool = False  # quantities of a fiscal unit (12,5 UFESP), not counts
    category_header: str = "Mês"  # the heading of the table's first column

    def text(self, value: Any) -> str:
        """A value as the table shows it: R$ 1.234,56, 12,5 or 1.234."""
        return value_text(value, self.money, decimals=self.decimals)

    @property
    def rows(self) -> list[tuple[str, list[Any]]]:
        """The table beside the chart: one row per category, one column per series."""
        return [(category, [s.values[i] for s in self.series]) for i, category in enumerate(self.categories)]

    @property
    def is_empty(self) -> bool:
        return not any(value for series in self.series for value in series.values)


def value_text(value: Any, money: bool, *, decimals: bool = False) -> str:
    if money:
        return brl(Decimal(value))
    if decimals:
        return decimal_pt(Decimal(value).quantize(Decimal("0.01")))
    return f"{int(value):,}".replace(",", ".")


def months_ending(last_month: dt.date, count: int, as_of: dt.date) -> list[Month]:
    """``count`` calendar months ending with the month of ``last_month``; the current one stops at as_of."""
    months = []
    year, month = last_month.year, last_month.month
    for _ in range(count):
        first = dt.date(year, month, 1)
        following = dt.date(year + month // 12, month % 12 + 1, 1)
        months.append(Month(first, min(following - dt.timedelta(days=1), as_of)))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return months[::-1]


def _may(user: Any, municipality: Municipality, model_label: str) -> bool:
    return user_can(user, municipality.pk, model_label, "view")


def _in(queryset: QuerySet[Any], municipality: Municipality, user: Any) -> QuerySet[Any]:
    return queryset.for_user(user, "view").filter(municipality=municipality)  # type: ignore[attr-defined,no-any-return]


# --- fleet and people ------------------------------------------------------------------------------------


def permits_by_status(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    """Permits at the end of each month: in force, expired, revoked or cancelled (one aggregate query).

    A permit is in force from its issue until it is closed or its validity ends; suspensions are counted as in
    force (the permit still exists), as the law treats them.
    """
    if not _may(user, municipality, "licensing.permit"):
        return None
    rows = _in(Permit.objects.all(), municipality, user)
    rows = rows.filter(regime_id=regime) if regime else rows
    counts = rows.aggregate(**_permit_counts(months))
    names = (("active", "Vigentes"), ("expired", "Vencidos"), ("closed", "Cassados ou cancelados"))
    series = tuple(
        Series(label, tuple(counts[f"{key}_{i}"] for i in range(len(months)))) for key, label in names
    )
    return Section(
        "permits",
        "Autorizações por situação, mês a mês",
        tuple(m.label for m in months),
        series,
        stacked=True,
        notes=("Situação no último dia de cada mês; suspensos contam como vigentes.",),
    )


def _permit_counts(months: Sequence[Month]) -> dict[str, Count]:
    counts: dict[str, Count] = {}
    for i, month in enumerate(months):
        issued = Q(issued_on__lte=month.last)
        still_open = Q(closed_on__isnull=True) | Q(closed_on__gt=month.last)
        within = Q(valid_until__isnull=True) | Q(valid_until__gte=month.last)
        expired = (still_open & Q(valid_until__lt=month.last)) | (
            Q(closed_on__lte=month.last) & Q(state=PermitState.EXPIRED)
        )
        closed = Q(closed_on__lte=month.last, state__in=(PermitState.REVOKED, PermitState.CANCELLED))
        counts[f"active_{i}"] = Count("pk", filter=issued & still_open & within)
        counts[f"expired_{i}"] = Count("pk", filter=issued & expired)
        counts[f"closed_{i}"] = Count("pk", filter=issued & closed)
    return counts


@dataclass(frozen=True)
class AgeLimit:
    regime_id: str
    years: int
    citation: str


def vehicle_age_limits(municipality: Municipality, regimes: Iterable[str]) -> dict[str, AgeLimit | None]:
    """Each regime's maximum vehicle age as the law engine last applied it in this municipality.

    The engine's vehicle rule records the parameter it compared the age with (value, unit and article) in the
    decision stored with each application; the limit is the one in years cited by the decision's vehicle-age
    finding. A regime with no application decided yet has no known limit here (None): the report says so
    instead of guessing.
    """
    limits: dict[str, AgeLimit | None] = {}
    for regime_id in regimes:
        decisions = (
            Application.objects.filter(municipality=municipality, regime_id=regime_id)
            .exclude(last_decision={})
            .order_by("-decided_on", "-pk")
            .values_list("last_decision", flat=True)[:RECENT_DECISIONS]
        )
        found = (_limit_in(regime_id, decision) for decision in decisions)
        limits[regime_id] = next((limit for limit in found if limit is not None), None)
    return limits


def _limit_in(regime_id: str, decision: dict[str, Any]) -> AgeLimit | None:
    finding = next((f for f in decision.get("findings", []) if f.get("code") == VEHICLE_AGE_FINDING), None)
    if finding is None:
        return None
    cited = {(c.get("act_key"), c.get("dispositivo")) for c in finding.get("citations", [])}
    for use in decision.get("parameters", []):
        citation = use.get("citation", {})
        if use.get("unit") == "years" and (citation.get("act_key"), citation.get("dispositivo")) in cited:
            return AgeLimit(regime_id, int(use["value"]), str(citation.get("text", "")))
    return None


def vehicle_ages(user: Any, municipality: Municipality, regime: str, as_of: dt.date) -> Section | None:
    """Vehicles of operators by age (years since manufacture), split at the legal limit when it is known."""
    if not _may(user, municipality, "registry.vehicle"):
        return None
    rows = _in(Vehicle.objects.filter(operator__isnull=False), municipality, user)
    rows = rows.filter(operator__regime_id=regime) if regime else rows
    by_year = dict(rows.order_by().values_list("manufacture_year").annotate(n=Count("pk")))
    ages = {as_of.year - year: count for year, count in by_year.items()}
    top = max(ages, default=0)
    regimes = [regime] if regime else list(municipality.regimes)
    limits = vehicle_age_limits(municipality, regimes)
    known = {limit.years for limit in limits.values() if limit is not None}
    limit = known.pop() if len(known) == 1 and all(limits.values()) else None
    top = max(top, (limit or 0) + 1)
    categories = tuple(f"{age} ano(s)" for age in range(top + 1))
    counts = tuple(ages.get(age, 0) for age in range(top + 1))
    if limit is None:
        series: tuple[Series, ...] = (Series("Veículos", counts),)
    else:
        within = tuple(c if age <= limit else 0 for age, c in enumerate(counts))
        above = tuple(c if age > limit else 0 for age, c in enumerate(counts))
        series = (Series("Dentro do limite legal", within), Series("Acima do limite legal", above))
    return Section(
        "vehicle_ages",
        "Veículos por idade e o limite legal",
        categories,
        series,
        stacked=True,
        notes=_limit_notes(limits),
        limit_at=None if limit is None else limit + 1,
        category_header="Idade",
    )


def _limit_notes(limits: dict[str, AgeLimit | None]) -> tuple[str, ...]:
    from apps.tenancy.regimes import regime_summary

    notes = ["Idade contada do ano de fabricação até o ano da data do relatório."]
    for regime_id, limit in limits.items():
        name = regime_summary(regime_id)[0]
        if limit is None:
            notes.append(
                f"{name}: nenhuma autorização decidida ainda, o limite aplicado pela lei não está disponível."
            )
        else:
            notes.append(f"{name}: até {limit.years} anos ({limit.citation}).")
    return tuple(notes)


def documents_expiring(user: Any, municipality: Municipality, as_of: dt.date) -> Section | None:
    """Valid documents whose validity ends within 30, 60 and 90 days (one aggregate query)."""
    if not _may(user, municipality, "registry.document"):
        return None
    rows = _in(Document.objects.filter(status=DocumentStatus.VALID), municipality, user)
    bounds = (0, *EXPIRY_WINDOWS)
    counts = rows.aggregate(
        **{
            f"w{days}": Count(
                "pk",
                filter=Q(
                    valid_until__gt=as_of + dt.timedelta(days=start),
                    valid_until__lte=as_of + dt.timedelta(days=days),
                ),
            )
            for start, days in zip(bounds, bounds[1:], strict=False)
        }
        | {"today": Count("pk", filter=Q(valid_until=as_of))}
    )
    categories = (
        "Vencem hoje",
        *(f"Em {start + 1} a {days} dias" for start, days in zip(bounds, bounds[1:], strict=False)),
    )
    values = (counts["today"], *(counts[f"w{days}"] for days in EXPIRY_WINDOWS))
    return Section(
        "documents",
        "Documentos que vencem nos próximos 90 dias",
        categories,
        (Series("Documentos", values),),
        notes=("Documentos válidos de todos os regimes.",),
        category_header="Prazo",
    )


# --- enforcement -----------------------------------------------------------------------------------------


def _cases(user: Any, municipality: Municipality, regime: str, months: Sequence[Month]) -> QuerySet[Any]:
    rows = _in(InfractionCase.objects.all(), municipality, user)
    rows = rows.filter(regime_id=regime) if regime else rows
    return rows.filter(drawn_on__gte=months[0].first, drawn_on__lte=months[-1].last)


def autos_by_article(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    """The most frequent infractions of the period, by the article infringed."""
    if not _may(user, municipality, "enforcement.infractioncase"):
        return None
    rows = _cases(user, municipality, regime, months).order_by()
    grouped = (
        rows.values("regime_id", "infraction_cite", "infraction_title")
        .annotate(n=Count("pk"), last=Max("drawn_on"))
        .order_by("-n", "infraction_cite")
    )
    top = list(grouped[:TOP_ARTICLES])
    categories = tuple(
        f"{infraction_cite_text(row['regime_id'], row['infraction_cite'], row['last'])} — "
        f"{row['infraction_title'][:60]}"
        for row in top
    )
    return Section(
        "autos_article",
        "Autos de infração por dispositivo infringido",
        categories,
        (Series("Autos", tuple(row["n"] for row in top)),),
        notes=(f"Os {TOP_ARTICLES} dispositivos mais autuados no período.",),
        category_header="Dispositivo",
    )


def autos_by_month(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month]
) -> Section | None:
    if not _may(user, municipality, "enforcement.infractioncase"):
        return None
    rows = _cases(user, municipality, regime, months).order_by()
    by_month = _by_month(
        rows.annotate(month=TruncMonth("drawn_on")).values("month").annotate(n=Count("pk")), "n"
    )
    values = tuple(by_month.get(m.first, 0) for m in months)
    return Section(
        "autos_month",
        "Autos de infração lavrados por mês",
        tuple(m.label for m in months),
        (Series("Autos", values),),
    )


def _by_month(rows: Iterable[dict[str, Any]], key: str) -> dict[dt.date, Any]:
    result = {}
    for row in rows:
        month = row["month"]
        month = month.date() if isinstance(month, dt.datetime) else month
        result[month.replace(day=1)] = row[key] or 0
    return result


# --- finance ---------------------------------------------------------------------------------------------


def fines_by_month(
    user: Any, municipality: Municipality, regime: str, months: Sequence[Month], as_of: dt.date
) -> Section | None:
    """Fines issued, paid, overdue and due for dívida ativa, in R$, by month (four aggregate queries).

    Issued and overdue count by the guide's issue and due months; paid by the payment date; dívida ativa are
    final fines still unpaid after their due date (what the dívida ativa export lists), by due month.
    """
    if not _may(user, municipality, "finance.paymentguide"):
        return None
    guides = _in(PaymentGuide.objects.filter(origin_type=OriginType.FINE), municipality, user)
    guides = guides.filter(regime_id=regime) if regime else guides
    names = _fine_sums(guides, months[0].first, months[-1].last, as_of)
    series = tuple(
        Series(label, tuple(values.get(m.first, Decimal("0.00")) for m in months)) for label, values in names
    )
    return Section(
        "fines",
        "Multas por mês (R$)",
        tuple(m.label for m in months),
        series,
        money=True,
        notes=("Para dívida ativa: multas definitivas vencidas e não pagas.",),
    )


def _fine_sums(
    guides: QuerySet[PaymentGuide], start: dt.date, end: dt.date, as_of: dt.date
) -> tuple[tuple[str, dict[dt.date, Any]], ...]:
    """Each series' label and its R$ by month, one aggregate query each."""
    issued = _sum_by_month(guides.filter(issued_on__gte=start, issued_on__lte=end), "issued_on", "amount_brl")
    paid = _sum_by_month(
        Payment.objects.filter(guide__in=guides, paid_on__gte=start, paid_on__lte=end),
        "paid_on",
        "amount_brl",
    )
    overdue_rows = guides.filter(
        status=GuideStatus.OPEN, due_on__lt=as_of, due_on__gte=start, due_on__lte=end
    )
    overdue = _sum_by_month(overdue_rows, "due_on", "amount_brl")
    debt = _sum_by_month(_final_fine_guides(overdue_rows), "due_on", "amount_brl")
    return (
        ("Emitidas", issued),
        ("Pagas", paid),
        ("Vencidas e não pagas", overdue),
        ("Para dívida ativa", debt),
    )


def _final_fine_guides(guides: QuerySet[PaymentGuide]) -> QuerySet[PaymentGuide]:
    from apps.dueprocess.models import Sanction

    finals = Sanction.objects.filter(state=SanctionState.FINAL).values("guide_id")
    return guides.filter(pk__in=finals)


def _sum_by_month(rows: QuerySet[Any], date_field: str, amount: str) -> dict[dt.date, Decimal]:
    grouped = (
        rows.order_by().annotate(month=TruncMonth(date_field)).values("month").annotate(total=Sum(amount))
    )
    return _by_month(grouped, "total")
