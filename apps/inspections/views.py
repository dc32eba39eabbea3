"""Inspection screens: the inspector's agenda, the phone form that records a result, the result page, scheduling
and the calendar by final plate digit.

Every read goes through ``for_user``; a user without the role, or a row of another municipality, answers 404.
Writes call the services; a refusal is shown on the field it names and nothing is stored.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.models import User
from apps.inspections import calendar as cal
from apps.inspections import exports, services
from apps.inspections.cards import overdue_filter
from apps.inspections.choices import InspectionResult, MissedState
from apps.inspections.forms import (
    ITEM_CHOICES,
    CalendarForm,
    RescheduleForm,
    ResultForm,
    ScheduleForm,
)
from apps.inspections.models import Inspection, MissedInspection
from apps.inspections.presenters import checklist_rows, year_chart
from apps.licensing.models import Application
from apps.registry import identifiers as ids
from apps.registry.models import Vehicle
from apps.tenancy.access import municipality_for
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.web.exports import export_response, requested_format
from outorga.submit import submit

MODEL = "inspections.inspection"


def _inspection(
    request: HttpRequest, municipality: Municipality, pk: int, action: str = "view"
) -> Inspection:
    rows = Inspection.objects.for_list().select_related(
        "previous", "vehicle__operator__person", "vehicle__operator__company"
    )
    return get_object_for_user_or_404(rows, request.user, action, municipality=municipality, pk=pk)


def _menu(request: HttpRequest, municipality: Municipality) -> dict[str, Any]:
    return {
        "municipality": municipality,
        "can_record": user_can(request.user, municipality.pk, MODEL, "change"),
        "can_schedule": user_can(request.user, municipality.pk, MODEL, "schedule"),
    }


@login_required
@require_GET
def agenda(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """Pending inspections: overdue, today's and the next ones; ``?todas=1`` shows every inspector's."""
    municipality = municipality_for(request, ibge_code, model_label=MODEL)
    today = timezone.localdate()
    pending = (
        Inspection.objects.for_user(request.user, "view")
        .for_list()
        .filter(municipality=municipality)
        .pending()
    )
    mine_only = request.GET.get("todas") != "1" and user_can(request.user, municipality.pk, MODEL, "change")
    if mine_only:
        pending = pending.filter(Q(inspector__isnull=True) | Q(inspector=request.user))
    done = Inspection.objects.for_user(request.user, "view").for_list().filter(municipality=municipality)
    context = {
        **_menu(request, municipality),
        "today": today,
        "mine_only": mine_only,
        "overdue": list(pending.filter(overdue_filter(today)).order_by("scheduled_for", "pk")),
        "due_today": list(pending.filter(scheduled_for=today).exclude(overdue_filter(today))),
        "upcoming": list(pending.filter(scheduled_for__gt=today).exclude(overdue_filter(today))[:50]),
        "recent": list(done.exclude(result=InspectionResult.PENDING).order_by("-performed_on", "-pk")[:10]),
    }
    context["to_schedule"] = _awaiting_schedule(request, municipality) if context["can_schedule"] else []
    return render(request, "inspections/agenda.html", context)


def _awaiting_schedule(request: HttpRequest, municipality: Municipality) -> list[Application]:
    """Applications waiting for an inspection that nobody scheduled yet (the scheduler's to-do list)."""
    rows = (
        Application.objects.for_user(request.user, "view")
        .for_list()
        .filter(municipality=municipality, state="awaiting_inspection", vehicle__isnull=False)
    )
    return list(
        rows.exclude(vehicle__inspections__result=InspectionResult.PENDING).order_by("submitted_on")[:50]
    )


@login_required
@require_GET
def detail(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=MODEL)
    inspection = _inspection(request, municipality, pk)
    reinspection = Inspection.objects.filter(previous=inspection).first()
    pending_items = checklist_rows(inspection, timezone.localdate()) if inspection.result == "pending" else []
    context = {
        **_menu(request, municipality),
        "inspection": inspection,
        "reinspection": reinspection,
        "pending_items": pending_items,
        "reschedule_form": RescheduleForm(),
    }
    return render(request, "inspections/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def record(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    """The phone form: one column, one conforme / não conforme choice per item, each with its articles."""
    municipality = municipality_for(request, ibge_code, model_label=MODEL, action="change")
    inspection = _inspection(request, municipality, pk, "change")
    if inspection.result != InspectionResult.PENDING:
        messages.info(request, "Esta vistoria já foi registrada.")
        return redirect("inspections:detail", ibge_code, inspection.pk)
    today = timezone.localdate()
    form = ResultForm(
        request.POST or None, items=checklist_rows(inspection, today), initial={"performed_on": today}
    )
    if done := submit(
        request,
        form,
        lambda: services.inspection_record_result(
            actor=request.user,
            inspection=inspection,
            performed_on=form.cleaned_data["performed_on"],
            items=form.item_results(),
            notes=form.cleaned_data["notes"],
            as_of=today,
        ),
        success=lambda row: f"Vistoria registrada: {row.get_result_display().lower()}.",
    ):
        return redirect("inspections:detail", ibge_code, done.result.pk)
    context = {
        **_menu(request, municipality),
        "inspection": inspection,
        "form": form,
        "rows": form.rows(),
        "choices": ITEM_CHOICES,
    }
    return render(request, "inspections/record.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def item_toggle(request: HttpRequest, ibge_code: str, pk: int, code: str) -> HttpResponse:
    """HTMX: re-render one item with the choice just made (the note opens when it is not in order).

    Stateless: nothing is stored until the whole form is sent, so an abandoned form leaves nothing half-written.
    """
    municipality = municipality_for(request, ibge_code, model_label=MODEL, action="change")
    inspection = _inspection(request, municipality, pk, "change")
    rows = {row["code"]: row for row in checklist_rows(inspection, timezone.localdate())}
    if code not in rows:
        raise Http404("Item não encontrado.")
    form = ResultForm(request.POST, items=[rows[code]])
    context = {
        "row": form.rows()[0],
        "inspection": inspection,
        "municipality": municipality,
        "choices": ITEM_CHOICES,
    }
    return render(request, "inspections/_item.html", context)


def _schedule_form(request: HttpRequest, municipality: Municipality, vehicle: Vehicle) -> ScheduleForm:
    applications = Application.objects.for_user(request.user, "view").filter(
        municipality=municipality, vehicle=vehicle, state="awaiting_inspection"
    )
    inspectors = User.objects.filter(memberships__municipality=municipality, memberships__role=Role.INSPECTOR)
    initial = {
        "application": request.GET.get("requerimento"),
        "kind": request.GET.get("tipo"),
        "scheduled_for": timezone.localdate(),
    }
    return ScheduleForm(
        request.POST or None, applications=applications, inspectors=inspectors.distinct(), initial=initial
    )


@login_required
@require_GET
def schedule_by_plate(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """The agenda's "Agendar vistoria" box: the plate (old or Mercosul format) leads to the vehicle's schedule."""
    municipality = municipality_for(request, ibge_code, model_label=MODEL, action="schedule")
    raw = ids.normalize_plate(request.GET.get("placa", ""))
    plates = {raw, ids.to_mercosul(raw)} if ids.plate_format(raw) else set()
    vehicle = (
        Vehicle.objects.for_user(request.user, "view")
        .filter(municipality=municipality, plate__in=plates)
        .first()
    )
    if vehicle is None:
        messages.error(request, "Placa: nenhum veículo cadastrado no município com esta placa.")
        return redirect("inspections:agenda", ibge_code)
    return redirect("inspections:schedule", ibge_code, vehicle.pk)


@login_required
@require_http_methods(["GET", "POST"])
def schedule(request: HttpRequest, ibge_code: str, vehicle_pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=MODEL, action="schedule")
    vehicle = get_object_for_user_or_404(
        Vehicle.objects.all(), request.user, "view", municipality=municipality, pk=vehicle_pk
    )
    form = _schedule_form(request, municipality, vehicle)
    if done := submit(
        request,
        form,
        lambda: services.inspection_schedule(
            actor=request.user,
            vehicle=vehicle,
            scheduled_for=form.cleaned_data["scheduled_for"],
            kind=form.cleaned_data["kind"] or None,
            application=form.cleaned_data["application"],
            inspector=form.cleaned_data["inspector"],
            as_of=timezone.localdate(),
        ),
        success=lambda row: f"Vistoria agendada para {row.scheduled_for:%d/%m/%Y}.",
    ):
        return redirect("inspections:detail", ibge_code, done.result.pk)
    context = {**_menu(request, municipality), "vehicle": vehicle, "form": form}
    return render(request, "inspections/schedule.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def reschedule(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=MODEL, action="schedule")
    inspection = _inspection(request, municipality, pk, "schedule")
    form = RescheduleForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError({"scheduled_for": "Nova data: informe uma data válida."})
        services.inspection_reschedule(
            actor=request.user,
            inspection=inspection,
            scheduled_for=form.cleaned_data["scheduled_for"],
            as_of=timezone.localdate(),
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, "Vistoria reagendada.")
    return redirect("inspections:detail", ibge_code, inspection.pk)


@login_required
@require_GET
def calendar_view(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    """Vehicles due and overdue in a month, and the 12-month picture, per regime of the municipality."""
    municipality = municipality_for(request, ibge_code, model_label=MODEL)
    today = timezone.localdate()
    form = CalendarForm.for_query(request.GET, today)
    year, month = (
        (form.cleaned_data["year"], form.cleaned_data["month"])
        if form.is_valid()
        else (today.year, today.month)
    )
    if (fmt := requested_format(request)) is not None:
        rows = _month_inspections(request, municipality, year, month)
        return export_response(
            request, spec=exports.INSPECTIONS, rows=rows, municipality=municipality, fmt=fmt
        )
    sections = [
        _calendar_section(request, municipality, regime_id, today, year, month)
        for regime_id in municipality.regimes or []
    ]
    context = {
        **_menu(request, municipality),
        "form": form,
        "year": year,
        "month": month,
        "sections": sections,
        "booked": _booked(request, municipality, today, year, month),
        "month_label": cal.MONTHS_PT[month - 1],
        "today": today,
        **_neighbours(year, month),
    }
    return render(request, "inspections/calendar.html", context)


def _month_inspections(request: HttpRequest, municipality: Municipality, year: int, month: int) -> Any:
    rows = Inspection.objects.for_user(request.user, "view").filter(municipality=municipality)
    return rows.filter(scheduled_for__year=year, scheduled_for__month=month).order_by("scheduled_for", "pk")


def _booked(
    request: HttpRequest, municipality: Municipality, today: dt.date, year: int, month: int
) -> dict[str, int]:
    """The agenda's own figures, read the way the agenda reads them: inspections booked in the month shown and
    every one overdue today (any month), so the calendar never shows zeros while the agenda lists late ones."""
    rows = Inspection.objects.for_user(request.user, "view").filter(municipality=municipality)
    pending = rows.pending()
    return {
        "month": pending.filter(scheduled_for__year=year, scheduled_for__month=month).count(),
        "overdue": pending.filter(overdue_filter(today)).count(),
    }


def _calendar_section(
    request: HttpRequest, municipality: Municipality, regime_id: str, today: dt.date, year: int, month: int
) -> dict[str, Any]:
    if not cal.answers_calendar(regime_id):
        return {"regime_id": regime_id, "available": False}
    ctx = cal.CalendarContext(
        municipality, regime_id, today, cal.vehicles_in_service(municipality, regime_id, request.user)
    )
    schedule_rows = cal.month_schedule(ctx, year, month)
    counts = cal.year_picture(ctx, year)
    return {
        "regime_id": regime_id,
        "available": True,
        "rows": schedule_rows,
        "chart": year_chart(counts, month),
        "counts": counts,
        "vehicles": len(ctx.vehicles),
    }


def _neighbours(year: int, month: int) -> dict[str, tuple[int, int]]:
    previous = (year, month - 1) if month > 1 else (year - 1, 12)
    following = (year, month + 1) if month < 12 else (year + 1, 1)
    return {"previous": previous, "following": following}


MISSED = "inspections.missedinspection"


def _missed(request: HttpRequest, municipality: Municipality, pk: int, action: str) -> MissedInspection:
    rows = MissedInspection.objects.select_related("vehicle", "permit", "case").filter(
        municipality=municipality
    )
    return get_object_for_user_or_404(rows, request.user, action, pk=pk)


@login_required
@require_GET
def missed_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """Calendar inspections the daily sweep found missed: pending ones first, for the agent to confirm."""
    municipality = municipality_for(request, ibge_code, model_label=MODEL)
    if not user_can(request.user, municipality.pk, MISSED, "view"):
        raise Http404("Registro não encontrado.")
    rows = MissedInspection.objects.for_user(request.user, "view").filter(municipality=municipality)
    rows = rows.select_related("vehicle", "permit", "case", "resolved_by")
    context = {
        **_menu(request, municipality),
        "pending": list(rows.pending().order_by("due_month", "pk")),
        "resolved": list(rows.exclude(state=MissedState.PENDING).order_by("-resolved_on", "-pk")[:50]),
        "can_confirm": user_can(request.user, municipality.pk, MISSED, "change"),
    }
    return render(request, "inspections/missed.html", context)


@login_required
@require_POST
def missed_confirm(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=MODEL)
    missed = _missed(request, municipality, pk, "change")
    try:
        done = services.missed_inspection_confirm(
            missed=missed,
            actor=request.user,
            recorded_at=timezone.now(),
            agent_registration=request.POST.get("agent_registration", ""),
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("inspections:missed", ibge_code)
    assert done.case is not None
    messages.success(request, f"Auto {done.case.number} lavrado ({done.basis}).")
    return redirect("enforcement:case_detail", ibge_code, done.case.pk)


@login_required
@require_POST
def missed_dismiss(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=MODEL)
    missed = _missed(request, municipality, pk, "change")
    try:
        services.missed_inspection_dismiss(
            missed=missed,
            actor=request.user,
            as_of=timezone.localdate(),
            reason=request.POST.get("reason", ""),
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, "Vistoria não realizada descartada, com o motivo registrado.")
    return redirect("inspections:missed", ibge_code)
