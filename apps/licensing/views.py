"""Licensing screens: the analyst's queue, the application page (decision, timeline, actions), the operator's
permits, the permit page and its PDF. Reads go through for_user (outsiders get 404); writes call services.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.decorators import recent_authentication_required
from apps.audit.services import audit_personal_data_read
from apps.finance.choices import OriginType
from apps.finance.models import FeeSchedule
from apps.finance.selectors import waiting_guide
from apps.licensing import exports, hooks, services
from apps.licensing.choices import ApplicationState
from apps.licensing.forms import (
    ApplicationCreateForm,
    ApplicationFilterForm,
    FeeForm,
    NoteForm,
    PermitFilterForm,
)
from apps.licensing.models import Application, Permit
from apps.licensing.pdf import permit_pdf as render_permit_pdf
from apps.licensing.presenters import (
    application_documents,
    application_timeline,
    available_actions,
    decision_view,
    permit_lines,
)
from apps.licensing.standing import permit_standing
from apps.licensing.urls_public import verify_path
from apps.registry.models import Operator
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.web.exports import export_response, requested_format
from apps.web.pagination import paginate
from apps.web.sorting import Sorting
from outorga.submit import submit

APPLICATION = "licensing.application"
INSPECTION = "inspections.inspection"
PERMIT = "licensing.permit"


def _today() -> dt.date:
    return timezone.localdate()


APPLICATION_SORTS = Sorting.columns(
    ("numero", "Número", ("year", "sequence")),
    ("tipo", "Tipo", ("kind", "year", "sequence")),
    ("protocolo", "Protocolo", ("submitted_on", "year", "sequence")),
    ("prazo", "Prazo para sanar", ("cure_deadline", "year", "sequence")),
    ("situacao", "Situação", ("state", "year", "sequence")),
    descending=True,
)
PERMIT_SORTS = Sorting.columns(
    ("numero", "Número", ("year", "sequence")),
    ("placa", "Placa", ("vehicle__plate", "year", "sequence")),
    ("validade", "Validade", ("valid_until", "year", "sequence")),
    ("situacao", "Situação", ("state", "year", "sequence")),
    descending=True,
)


@login_required
@require_GET
def application_list(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=APPLICATION)
    form = ApplicationFilterForm(request.GET or None, regimes=list(municipality.regimes))
    rows = Application.objects.for_user(request.user, "view").filter(municipality=municipality).for_list()
    if form.is_valid():
        rows = form.apply(rows)
    sort = APPLICATION_SORTS.read(request)
    rows = rows.order_by(*sort.order_by)
    if (fmt := requested_format(request)) is not None:
        return export_response(
            request, spec=exports.APPLICATIONS, rows=rows, municipality=municipality, fmt=fmt
        )
    page, query = paginate(request, rows)
    context = {
        "municipality": municipality,
        "form": form,
        "page": page,
        "query": query,
        "sort": sort.headers(request),
    }
    template = (
        "licensing/_application_table.html"
        if request.headers.get("HX-Request")
        else "licensing/application_list.html"
    )
    return render(request, template, context)


def _application(
    request: HttpRequest, municipality: Municipality, pk: int, action: str = "view"
) -> Application:
    rows = Application.objects.select_related(
        "operator__person",
        "operator__company",
        "vehicle",
        "driver__person",
        "attendant__person",
        "permit",
        "fee_guide",
        "municipality",
    )
    return get_object_for_user_or_404(rows, request.user, action, municipality=municipality, pk=pk)


@login_required
@require_GET
def application_detail(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=APPLICATION)
    application = _application(request, municipality, pk)
    today = _today()
    events = list(application.events.all())
    can_change = user_can(request.user, municipality.pk, APPLICATION, "change")
    context = {
        "municipality": municipality,
        "application": application,
        "events": events,
        "decision": decision_view(application.last_decision),
        "timeline": application_timeline(application, events, today),
        "actions": available_actions(application) if can_change else [],
        "fee_form": FeeForm(fee_kinds=_fee_kinds(application)),
        "note_form": NoteForm(),
        "issued_permit": Permit.objects.filter(application=application).first(),
        "today": today,
        "schedule_url": _schedule_url(request, municipality, application),
        "documents": application_documents(application),
        "fee_waiting": waiting_guide(origin_type=OriginType.APPLICATION, origin_id=application.pk),
    }
    return render(request, "licensing/application_detail.html", context)


def _schedule_url(request: HttpRequest, municipality: Municipality, application: Application) -> str:
    """Where to schedule the inspection the application waits for (its vehicle, itself pre-selected)."""
    waiting = application.state == ApplicationState.AWAITING_INSPECTION and application.vehicle_id is not None
    if not waiting or not user_can(request.user, municipality.pk, INSPECTION, "schedule"):
        return ""
    path = reverse("inspections:schedule", args=[municipality.ibge_code, application.vehicle_id])
    return f"{path}?{urlencode({'requerimento': application.pk})}"


def _fee_kinds(application: Application) -> list[tuple[str, str]]:
    """Only the fees this municipality configured for the regime (Patrocínio's inspection fee is seeded)."""
    rows = FeeSchedule.objects.filter(municipality=application.municipality, regime_id=application.regime_id)
    return sorted({(row.fee_kind, row.get_fee_kind_display()) for row in rows})


def _run_action(action: str, application: Application, request: HttpRequest) -> Application:
    actor, today = request.user, _today()
    note = request.POST.get("note", "")
    calls: dict[str, Callable[[], Application]] = {
        "protocolar": lambda: services.application_submit(application=application, actor=actor, as_of=today),
        "analisar": lambda: services.application_start_analysis(
            application=application, actor=actor, as_of=today
        ),
        "avaliar": lambda: services.application_evaluate(application=application, actor=actor, as_of=today),
        "pedir-documentos": lambda: services.application_request_documents(
            application=application, actor=actor, as_of=today, note=note
        ),
        "exigir-taxa": lambda: services.application_require_fee(
            application=application, actor=actor, as_of=today, fee_kind=request.POST.get("fee_kind", "")
        ),
        "pedir-vistoria": lambda: services.application_require_inspection(
            application=application, actor=actor, as_of=today
        ),
        "deferir": lambda: services.application_approve(
            application=application, actor=actor, as_of=today, note=note
        ),
        "indeferir": lambda: services.application_deny(
            application=application, actor=actor, as_of=today, note=note
        ),
        "arquivar": lambda: services.application_archive(
            application=application, actor=actor, as_of=today, reason=note
        ),
    }
    if action not in calls:
        raise Http404("Ação desconhecida.")
    return calls[action]()


@login_required
@recent_authentication_required(actions=("deferir",))
@require_POST
def application_action(request: HttpRequest, ibge_code: str, pk: int, action: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=APPLICATION, action="change")
    application = _application(request, municipality, pk, "change")
    try:
        moved = _run_action(action, application, request)
    except ValidationError as exc:
        for text in exc.messages:
            messages.error(request, text)
    else:
        messages.success(request, f"Requerimento {moved.number}: {moved.get_state_display().lower()}.")
    return redirect("licensing:application_detail", ibge_code, pk)


def _operator(request: HttpRequest, municipality: Municipality, operator_id: int, action: str) -> Operator:
    rows = Operator.objects.select_related("person", "company", "municipality")
    operator = rows.filter(municipality=municipality, pk=operator_id).first()
    if operator is None or not user_can(request.user, municipality.pk, APPLICATION, action):
        raise Http404("Registro não encontrado.")
    return operator


@login_required
@require_GET
def operator_permits(request: HttpRequest, ibge_code: str, operator_id: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=PERMIT)
    operator = _operator(request, municipality, operator_id, "view")
    permits = permit_lines(
        Permit.objects.for_user(request.user, "view").filter(operator=operator).for_list(), _today()
    )
    applications = Application.objects.for_user(request.user, "view").filter(operator=operator).for_list()
    context = {
        "municipality": municipality,
        "operator": operator,
        "permits": permits,
        "applications": applications,
        "can_create": user_can(request.user, municipality.pk, APPLICATION, "change"),
    }
    return render(request, "licensing/operator_permits.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def application_create(request: HttpRequest, ibge_code: str, operator_id: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=APPLICATION, action="change")
    operator = _operator(request, municipality, operator_id, "change")
    form = ApplicationCreateForm(request.POST or None, operator=operator)
    if done := submit(
        request,
        form,
        lambda: services.application_create(
            actor=request.user, operator=operator, as_of=_today(), **_create_arguments(form.cleaned_data)
        ),
        success=lambda application: f"Requerimento {application.number} criado (rascunho).",
    ):
        return redirect("licensing:application_detail", ibge_code, done.result.pk)
    context = {"municipality": municipality, "operator": operator, "form": form}
    return render(request, "licensing/application_form.html", context, status=400 if form.errors else 200)


def _create_arguments(data: dict[str, Any]) -> dict[str, Any]:
    arguments = dict(data)
    arguments["extensions"] = data.get("extensions") or 0
    arguments["reason"] = data.get("reason") or ""
    return arguments


@login_required
@require_GET
def permit_list(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=PERMIT)
    form = PermitFilterForm(request.GET or None)
    rows = Permit.objects.for_user(request.user, "view").filter(municipality=municipality).for_list()
    if form.is_valid():
        rows = form.apply(rows)
    sort = PERMIT_SORTS.read(request)
    rows = rows.order_by(*sort.order_by)
    if (fmt := requested_format(request)) is not None:
        return export_response(request, spec=exports.PERMITS, rows=rows, municipality=municipality, fmt=fmt)
    page, query = paginate(request, rows)
    context = {
        "sort": sort.headers(request),
        "municipality": municipality,
        "form": form,
        "page": page,
        "lines": permit_lines(page, _today()),
        "query": query,
        "today": _today(),
    }
    return render(request, "licensing/permit_list.html", context)


def _permit(request: HttpRequest, municipality: Municipality, pk: int) -> Permit:
    rows = Permit.objects.select_related(
        "operator__person",
        "operator__company",
        "vehicle",
        "driver__person",
        "application",
        "municipality",
        "replaces",
    )
    return get_object_for_user_or_404(rows, request.user, "view", municipality=municipality, pk=pk)


def _permit_read(request: HttpRequest, ibge_code: str, pk: int) -> Permit:
    """The permit a page or its PDF shows, with the read of the holder's document in the audit trail."""
    municipality = municipality_for(request, ibge_code, model_label=PERMIT)
    permit = _permit(request, municipality, pk)
    audit_personal_data_read(
        actor=request.user,
        municipality=municipality,
        obj=permit,
        fields=["holder_document"],
        request_id=getattr(request, "request_id", ""),
    )
    return permit


@login_required
@require_GET
def permit_detail(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    permit = _permit_read(request, ibge_code, pk)
    context = {
        "municipality": permit.municipality,
        "permit": permit,
        "decision": decision_view(permit.decision),
        "verify_url": request.build_absolute_uri(verify_path(permit.qr_token)),
        "application_states": ApplicationState,
        "permit_notes": hooks.permit_notes(permit, timezone.localdate()),
        "standing": permit_standing(permit, as_of=timezone.localdate()),
    }
    return render(request, "licensing/permit_detail.html", context)


@login_required
@require_GET
def permit_pdf(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    permit = _permit_read(request, ibge_code, pk)
    content = render_permit_pdf(permit, request.build_absolute_uri(verify_path(permit.qr_token)))
    response = HttpResponse(content, content_type="application/pdf")
    filename = f"alvara-{permit.number.replace('/', '-')}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
