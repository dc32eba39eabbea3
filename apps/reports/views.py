"""The managers' report page and its printable monthly PDF; thin views over apps.reports.selectors."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from apps.reports import selectors as s
from apps.reports.charts import bar_chart
from apps.reports.forms import ReportFilterForm
from apps.reports.pdf import monthly_report_pdf
from apps.reports.permissions import REPORT
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can


def _municipality(request: HttpRequest, ibge_code: str) -> Municipality:
    municipality = get_object_for_user_or_404(
        Municipality.objects.all(), request.user, "view", ibge_code=ibge_code
    )
    if not user_can(request.user, municipality.pk, REPORT, "view"):
        raise Http404("Registro não encontrado.")
    return municipality


def sections(
    user: Any, municipality: Municipality, last: dt.date, count: int, regime: str, as_of: dt.date
) -> list[s.Section]:
    """Every section the user may read, in reading order (fleet, enforcement, finance)."""
    months = s.months_ending(last, count, as_of)
    found = [
        s.permits_by_status(user, municipality, regime, months),
        s.vehicle_ages(user, municipality, regime, as_of),
        s.documents_expiring(user, municipality, as_of),
        s.autos_by_article(user, municipality, regime, months),
        s.autos_by_month(user, municipality, regime, months),
        s.fines_by_month(user, municipality, regime, months, as_of),
    ]
    return [section for section in found if section is not None]


@login_required
@require_GET
def report(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = _municipality(request, ibge_code)
    as_of = timezone.localdate()
    form = ReportFilterForm(request.GET or None, regimes=list(municipality.regimes))
    last, count, regime = form.choices(as_of)
    found = sections(request.user, municipality, last, count, regime, as_of)
    context = {
        "municipality": municipality,
        "form": form,
        "as_of": as_of,
        "last": last,
        "count": count,
        "sections": [(section, bar_chart(section)) for section in found],
        "pdf_query": f"mes={last:%Y-%m}" + (f"&regime={regime}" if regime else ""),
    }
    return render(request, "reports/report.html", context)


@login_required
@require_GET
def monthly_pdf(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """The month's report for the Câmara: the month itself and the 12 months before it, as tables."""
    municipality = _municipality(request, ibge_code)
    as_of = timezone.localdate()
    form = ReportFilterForm(
        {"ate": request.GET.get("mes", ""), "meses": "12", "regime": request.GET.get("regime", "")},
        regimes=list(municipality.regimes),
    )
    last, count, regime = form.choices(as_of)
    found = sections(request.user, municipality, last, count, regime, as_of)
    pdf = monthly_report_pdf(municipality, found, month=last, regime=regime, as_of=as_of)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="relatorio-{municipality.ibge_code}-{last:%Y-%m}.pdf"'
    )
    return response
