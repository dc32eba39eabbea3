"""The managers' report page and its printable monthly PDF; thin views over apps.reports.selectors."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from apps.reports import applications, people, proceedings, revenue
from apps.reports import selectors as s
from apps.reports.charts import bar_chart
from apps.reports.deadlines import WEEKDAYS_PT, deadlines_for_reader, month_grids
from apps.reports.forms import ReportFilterForm
from apps.reports.pdf import monthly_report_pdf
from apps.reports.permissions import REPORT
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality

PDF_WINDOW_DAYS = 30  # the printed report lists the deadlines of the coming month


def sections(
    user: Any, municipality: Municipality, last: dt.date, count: int, regime: str, as_of: dt.date
) -> list[s.Section]:
    """Every section the user may read, in reading order (fleet and people, enforcement and due process,
    finance, licensing)."""
    months = s.months_ending(last, count, as_of)
    found = [
        s.permits_by_status(user, municipality, regime, months),
        s.vehicle_ages(user, municipality, regime, as_of),
        s.documents_expiring(user, municipality, as_of),
        people.operators_and_drivers(user, municipality, regime),
        s.autos_by_article(user, municipality, regime, months),
        proceedings.autos_by_severity(user, municipality, regime, months),
        s.autos_by_month(user, municipality, regime, months),
        proceedings.recidivism(user, municipality, regime, months),
        proceedings.appeals_by_instance(user, municipality, regime, months),
        proceedings.time_to_final_decision(user, municipality, regime, months),
        s.fines_by_month(user, municipality, regime, months, as_of),
        revenue.fees_by_month(user, municipality, regime, months, as_of),
        revenue.in_fiscal_units(user, municipality, regime, months),
        applications.applications_by_month(user, municipality, regime, months),
        applications.time_to_decision(user, municipality, regime, months),
        applications.refusals_by_article(user, municipality, regime, months),
    ]
    return [section for section in found if section is not None]


@login_required
@require_GET
def report(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=REPORT)
    as_of = timezone.localdate()
    form = ReportFilterForm(request.GET or None, regimes=list(municipality.regimes))
    last, count, regime = form.choices(as_of)
    found = sections(request.user, municipality, last, count, regime, as_of)
    window = form.window()
    at_risk = deadlines_for_reader(
        request.user, municipality=municipality, as_of=as_of, within_days=window, regime=regime
    )
    context = {
        "municipality": municipality,
        "form": form,
        "as_of": as_of,
        "last": last,
        "count": count,
        "sections": [(section, bar_chart(section)) for section in found],
        "pdf_query": f"mes={last:%Y-%m}" + (f"&regime={regime}" if regime else ""),
        "window": window,
        "weekdays": WEEKDAYS_PT,
        "at_risk": at_risk,
        "overdue": sum(item.due_on < as_of for item in at_risk),
        "grids": month_grids(at_risk, as_of, as_of + dt.timedelta(days=window)),
    }
    return render(request, "reports/report.html", context)


@login_required
@require_GET
def monthly_pdf(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """The month's report for the Câmara: the month itself and the 12 months before it, as tables."""
    municipality = municipality_for(request, ibge_code, model_label=REPORT)
    as_of = timezone.localdate()
    form = ReportFilterForm(
        {"ate": request.GET.get("mes", ""), "meses": "12", "regime": request.GET.get("regime", "")},
        regimes=list(municipality.regimes),
    )
    last, count, regime = form.choices(as_of)
    found = sections(request.user, municipality, last, count, regime, as_of)
    at_risk = deadlines_for_reader(
        request.user, municipality=municipality, as_of=as_of, within_days=PDF_WINDOW_DAYS, regime=regime
    )
    pdf = monthly_report_pdf(municipality, found, month=last, regime=regime, as_of=as_of, deadlines=at_risk)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="relatorio-{municipality.ibge_code}-{last:%Y-%m}.pdf"'
    )
    return response
