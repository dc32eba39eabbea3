"""What-if screens for administrators: state a change, follow the run, read the report, download the list."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from apps.reports.charts import bar_chart
from apps.tenancy.access import municipality_for
from apps.tenancy.querysets import get_object_for_user_or_404
from apps.web.exports import export_response, requested_format
from apps.web.pagination import paginate
from apps.whatif.choices import FINISHED, RunState
from apps.whatif.exports import WHATIF_OUTCOMES
from apps.whatif.forms import WhatIfForm
from apps.whatif.models import WhatIfRun
from apps.whatif.selectors import outcomes_of, runs_for, transitions_section
from apps.whatif.services import whatif_request

MODEL = "whatif.whatifrun"


@login_required
@require_http_methods(["GET", "POST"])
def runs(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """The form to simulate a change (queued: the answer never waits) and the simulations already run."""
    municipality = municipality_for(request, ibge_code, model_label=MODEL)
    regimes = list(municipality.regimes or [])
    form = WhatIfForm(request.POST or None, regimes=regimes, initial={"as_of": timezone.localdate()})
    if request.method == "POST":
        municipality_for(request, ibge_code, model_label=MODEL, action="change")
        if form.is_valid():
            run = whatif_request(
                actor=request.user,
                municipality=municipality,
                regime_id=form.cleaned_data["regime_id"],
                change=form.cleaned_data["proposed"],
                as_of=form.cleaned_data["as_of"],
            )
            return redirect("whatif:run", municipality.ibge_code, run.pk)
    page, query = paginate(request, runs_for(request.user, municipality))
    context = {"municipality": municipality, "form": form, "page": page, "query": query}
    return render(request, "whatif/runs.html", context, status=400 if form.errors else 200)


@login_required
@require_GET
def run_detail(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponseBase:
    """Progress while the worker runs it (htmx polls the panel), then the report; ``?formato=`` downloads."""
    municipality = municipality_for(request, ibge_code, model_label=MODEL)
    run = get_object_for_user_or_404(
        WhatIfRun.objects.select_related("requested_by"),
        request.user,
        "view",
        municipality=municipality,
        pk=pk,
    )
    fmt = requested_format(request)
    if fmt is not None and run.state == RunState.DONE:
        return export_response(
            request, spec=WHATIF_OUTCOMES, rows=outcomes_of(run), municipality=municipality, fmt=fmt
        )
    context = {"municipality": municipality, "run": run, "finished": run.state in FINISHED}
    if run.state == RunState.DONE:
        section = transitions_section(run)
        page, query = paginate(request, outcomes_of(run), 50)
        context |= {"section": section, "chart": bar_chart(section), "page": page, "query": query}
    if not request.htmx:  # type: ignore[attr-defined]
        return render(request, "whatif/run.html", context)
    if context["finished"]:
        response = HttpResponse()
        response["HX-Redirect"] = request.path  # the report replaces the progress panel: load the whole page
        return response
    return render(request, "whatif/_progress.html", context)
