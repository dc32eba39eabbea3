"""Deadlines at risk: legal limits still open that end within a few days (or have already passed).

Nothing is recomputed here. Every deadline is the one the law engine fixed when the apps recorded the step
that opened it, stored with its decision and article:

- judgments: ``Appeal.judgment_deadline`` and its decision (apps.dueprocess.lawbridge.judgment_deadline);
- penalty notices: ``InfractionCase.notice_limit`` and its decision (apps.enforcement.services);
- inspections: ``Inspection.deadline`` and ``deadline_basis`` (apps.inspections.lawbridge: the scheduling
  deadline after the fee, or the cure window of a failed vehicle for its re-inspection);
- cure windows of applications: ``Application.cure_deadline`` and the decision that opened it;
- payment guides: ``PaymentGuide.due_on`` and the guide's ``legal_basis``.

Each kind names the permission of the person who acts on it (the tenancy matrix), so the staff digest sends
judgments to judges, inspections to inspectors and guides to finance without a list of roles here.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.urls import reverse

from apps.dueprocess.choices import Instance
from apps.dueprocess.models import Appeal
from apps.dueprocess.permissions import JUDGE_FIRST, JUDGE_SECOND
from apps.enforcement.choices import CaseState, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.finance.choices import GuideStatus
from apps.finance.models import PaymentGuide
from apps.inspections.models import Inspection
from apps.lawconfig.yearly import missing_values
from apps.licensing.choices import ApplicationState
from apps.licensing.models import Application
from apps.tenancy.models import Municipality
from apps.tenancy.permissions import CHANGE, VIEW
from apps.tenancy.querysets import user_can
from lawcode.citations import Citation, render_citations
from lawcode.deadlines import MONTH_NAMES_PT

CLOSED_CASES = (CaseState.CLOSED, CaseState.CANCELLED)
WEEKDAYS_PT = ("segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo")


@dataclass(frozen=True)
class Kind:
    key: str
    label: str
    model_label: str  # the rows read (the report shows the kind to who may view them)


JUDGMENT = Kind("judgment", "Julgamento de recurso", "dueprocess.appeal")
NOTICE = Kind("notice", "Notificação da penalidade", "enforcement.notice")
INSPECTION = Kind("inspection", "Vistoria", "inspections.inspection")
CURE = Kind("cure", "Prazo para sanar pendências", "licensing.application")
GUIDE = Kind("guide", "Vencimento de guia", "finance.paymentguide")
KINDS = (JUDGMENT, NOTICE, INSPECTION, CURE, GUIDE)
# Not a deadline of a case: a value the law will need on 1 January (apps.lawconfig.yearly), in the digest only.
NEXT_YEAR_VALUE = Kind("next_year_value", "Valor que a lei vai exigir", "lawconfig.parametervalue")


@dataclass(frozen=True)
class AtRisk:
    """One open deadline: what, until when, under which article, where to act and who acts."""

    kind: Kind
    due_on: dt.date
    what: str
    cite: str
    url: str
    regime_id: str
    acts: tuple[str, str]  # (model label, action) of the tenancy matrix allowed to act on it

    def days_left(self, as_of: dt.date) -> int:
        return (self.due_on - as_of).days

    def status(self, as_of: dt.date) -> str:
        days = self.days_left(as_of)
        if days < 0:
            return f"vencido há {-days} dia(s)"
        return "vence hoje" if days == 0 else f"vence em {days} dia(s)"


def deadlines_at_risk(*, municipality: Municipality, as_of: dt.date, within_days: int) -> list[AtRisk]:
    """Every open deadline of the municipality ending on or before ``as_of + within_days``, the nearest first.

    Deadlines already passed and still open are included: they are the most at risk of all.
    """
    until = as_of + dt.timedelta(days=within_days)
    found = [
        *_judgments(municipality, until),
        *_notices(municipality, until),
        *_inspections(municipality, until),
        *_cures(municipality, until),
        *_guides(municipality, until),
    ]
    return sorted(found, key=lambda item: (item.due_on, item.kind.key, item.what))


def values_to_enter(*, municipality: Municipality, as_of: dt.date) -> list[AtRisk]:
    """The values the municipality's laws will need (from 1 December: next year's) that nobody entered yet,
    due the day they are needed; for whom may change the legal configuration (its administrators)."""
    return [
        AtRisk(
            NEXT_YEAR_VALUE,
            need.needed_on,
            f"{need.what} — cadastro pelo {need.who}",
            need.cite,
            need.url,
            "",
            ("lawconfig.parametervalue", CHANGE),
        )
        for need in missing_values(municipality=municipality, today=as_of)
    ]


def citations_of(decision: Mapping[str, Any]) -> str:
    """The articles a stored engine decision cites, once each, in the order its findings cite them."""
    seen: dict[tuple[Any, ...], Citation] = {}
    for finding in decision.get("findings", []):
        for data in finding.get("citations", []):
            citation = Citation.from_dict(data)
            seen.setdefault((citation.act_key, citation.dispositivo, citation.version), citation)
    return render_citations(list(seen.values()))


def _judgments(municipality: Municipality, until: dt.date) -> Iterator[AtRisk]:
    rows = (
        Appeal.objects.filter(case__municipality=municipality, judgment__isnull=True)
        .filter(judgment_deadline__isnull=False, judgment_deadline__lte=until)
        .exclude(case__state__in=CLOSED_CASES)
        .select_related("case")
    )
    for appeal in rows:
        action = JUDGE_FIRST if appeal.instance == Instance.FIRST else JUDGE_SECOND
        yield AtRisk(
            JUDGMENT,
            appeal.judgment_deadline,  # filtered: not null
            f"Julgar o recurso do auto {appeal.case.number} ({appeal.get_instance_display()})",
            citations_of(appeal.judgment_deadline_decision),
            reverse("dueprocess:judge", args=[municipality.ibge_code, appeal.pk]),
            appeal.case.regime_id,
            ("dueprocess.appeal", action),
        )


def _notices(municipality: Municipality, until: dt.date) -> Iterator[AtRisk]:
    notified = Q(notices__purpose=NoticePurpose.FINAL_DECISION)
    rows = (
        InfractionCase.objects.filter(municipality=municipality, notice_limit__isnull=False)
        .filter(notice_limit__lte=until)
        .exclude(state__in=CLOSED_CASES)
        .exclude(notified)
    )
    for case in rows:
        yield AtRisk(
            NOTICE,
            case.notice_limit,  # type: ignore[arg-type]  # filtered: not null
            f"Notificar a penalidade do auto {case.number}",
            citations_of(case.notice_limit_decision),
            reverse("enforcement:case_detail", args=[municipality.ibge_code, case.pk]),
            case.regime_id,
            ("enforcement.notice", CHANGE),
        )


def _inspections(municipality: Municipality, until: dt.date) -> Iterator[AtRisk]:
    rows = (
        Inspection.objects.filter(municipality=municipality)
        .pending()
        .filter(deadline__isnull=False, deadline__lte=until)
        .select_related("vehicle")
    )
    for row in rows:
        yield AtRisk(
            INSPECTION,
            row.deadline,  # type: ignore[arg-type]  # filtered: not null
            f"{row.get_kind_display()} do veículo {row.vehicle.plate_display}",
            row.deadline_basis,
            reverse("inspections:detail", args=[municipality.ibge_code, row.pk]),
            row.regime_id,
            ("inspections.inspection", CHANGE),
        )


def _cures(municipality: Municipality, until: dt.date) -> Iterator[AtRisk]:
    rows = Application.objects.filter(
        municipality=municipality,
        state=ApplicationState.PENDING_DOCUMENTS,
        cure_deadline__isnull=False,
        cure_deadline__lte=until,
    )
    for application in rows:
        yield AtRisk(
            CURE,
            application.cure_deadline,  # type: ignore[arg-type]  # filtered: not null
            f"Pendências do requerimento {application.number}",
            _cure_cite(application),
            reverse("licensing:application_detail", args=[municipality.ibge_code, application.pk]),
            application.regime_id,
            ("licensing.application", CHANGE),
        )


def _cure_cite(application: Application) -> str:
    """The articles of the findings that state the cure deadline (they name its date), else the decision's."""
    decision = application.last_decision or {}
    day = f"{application.cure_deadline:%d/%m/%Y}"
    stating = [f for f in decision.get("findings", []) if day in f.get("message", "")]
    return citations_of({"findings": stating}) or citations_of(decision)


def _guides(municipality: Municipality, until: dt.date) -> Iterator[AtRisk]:
    rows = PaymentGuide.objects.filter(municipality=municipality, status=GuideStatus.OPEN, due_on__lte=until)
    for guide in rows:
        yield AtRisk(
            GUIDE,
            guide.due_on,
            f"Guia {guide.number} — {guide.payer_name}",
            guide.legal_basis,
            reverse("finance:guide_detail", args=[municipality.ibge_code, guide.pk]),
            guide.regime_id,
            ("finance.paymentguide", CHANGE),
        )


# --- the calendar ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Day:
    on: dt.date | None  # None: a blank cell before the 1st or after the last day
    items: tuple[AtRisk, ...] = ()
    today: bool = False


@dataclass(frozen=True)
class MonthGrid:
    first: dt.date
    weeks: tuple[tuple[Day, ...], ...]

    @property
    def title(self) -> str:
        return f"{MONTH_NAMES_PT[self.first.month - 1]} de {self.first.year}"


def month_grids(items: Iterable[AtRisk], as_of: dt.date, until: dt.date) -> list[MonthGrid]:
    """One Monday-first grid per month from today's month to ``until``'s. Deadlines already passed stay in the
    list (with how long ago): placed on their days they would stretch the calendar back by months."""
    by_day: dict[dt.date, list[AtRisk]] = {}
    for item in items:
        by_day.setdefault(item.due_on, []).append(item)
    start = as_of.replace(day=1)
    grids = []
    while start <= until:
        grids.append(_grid(start, by_day, as_of))
        start = (start + dt.timedelta(days=32)).replace(day=1)
    return grids


def _grid(first: dt.date, by_day: Mapping[dt.date, list[AtRisk]], as_of: dt.date) -> MonthGrid:
    weeks = []
    for week in calendar.Calendar(firstweekday=0).monthdatescalendar(first.year, first.month):
        weeks.append(
            tuple(
                Day(day, tuple(by_day.get(day, ())), day == as_of) if day.month == first.month else Day(None)
                for day in week
            )
        )
    return MonthGrid(first, tuple(weeks))


def deadlines_for_reader(
    user: Any, *, municipality: Municipality, as_of: dt.date, within_days: int, regime: str = ""
) -> list[AtRisk]:
    """The deadlines at risk of the kinds ``user`` may read (the report), of one regime or all."""
    readable = {kind.key for kind in KINDS if user_can(user, municipality.pk, kind.model_label, VIEW)}
    found = deadlines_at_risk(municipality=municipality, as_of=as_of, within_days=within_days)
    return [item for item in found if item.kind.key in readable and (not regime or item.regime_id == regime)]
