"""Enforcement screens: the agent's phone form (plate and infraction looked up with HTMX), «meus autos», the
case page (timeline picture, notices, evidence), the printed papers and the editais. Reads go through
for_user (outsiders get 404); writes call the services, whose refusals land on the form fields.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.audit.services import audit_personal_data_read
from apps.enforcement import catalog, exports, forms, kept_photos, lawbridge, pdf, services
from apps.enforcement.choices import CaseState
from apps.enforcement.models import Edital, Evidence, InfractionCase, Notice
from apps.enforcement.regime_rules import clandestine_rule_pt, traffic_only_rule_pt
from apps.enforcement.selectors import PlateLookup, lookup_plate
from apps.enforcement.services import notices
from apps.enforcement.timeline import case_timeline, infraction_ciencia, notice_limit_passed, svg_height
from apps.ops.storage import stored_file_response
from apps.registry.choices import InfractionSeverity, OperatorKind
from apps.registry.identifiers import plate_format
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.web.exports import export_response, requested_format
from apps.web.pagination import paginate
from apps.web.sorting import Sorting
from outorga.submit import attach_refusal, submit

# The catalog grades infractions as the CTB does (art. 258); a law that grades none says «none»: no tag shown.
SEVERITY_LABELS = dict(InfractionSeverity.choices)

CASE = "enforcement.infractioncase"
FILE = "file"
NOTICE = "enforcement.notice"
EDITAL = "enforcement.edital"


def _render(request: HttpRequest, template: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """Every page knows whether the user files autos (the «Meus autos» menu link)."""
    municipality = context.get("municipality")
    context["can_file"] = municipality is not None and user_can(request.user, municipality.pk, CASE, FILE)
    return render(request, template, context, status=status)


def _now() -> dt.datetime:
    return timezone.now()


def _today() -> dt.date:
    return timezone.localdate()


def _regime(municipality: Municipality, request: HttpRequest) -> str:
    chosen = request.GET.get("regime_id") or request.POST.get("regime_id") or ""
    regimes = list(municipality.regimes)
    return chosen if chosen in regimes else (regimes[0] if regimes else "")


def _case(request: HttpRequest, municipality: Municipality, pk: int, action: str = "view") -> InfractionCase:
    rows = InfractionCase.objects.select_related(
        "municipality",
        "operator__person",
        "operator__company",
        "vehicle",
        "permit",
        "driver__person",
        "agent",
    )
    return get_object_for_user_or_404(rows, request.user, action, municipality=municipality, pk=pk)


# --- the phone form ---------------------------------------------------------------------------------------


def _drivers_for(municipality: Municipality, request: HttpRequest, regime: str) -> list[Any]:
    plate = request.POST.get("plate", "")
    if not plate_format(plate):
        return []
    return lookup_plate(municipality, plate, regime).drivers


@login_required
@require_http_methods(["GET", "POST"])
def case_new(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=CASE, action=FILE)
    regime = _regime(municipality, request)
    drivers = _drivers_for(municipality, request, regime) if request.method == "POST" else []
    form = forms.AutoForm(
        request.POST or None,
        request.FILES or None,
        regimes=list(municipality.regimes),
        drivers=drivers,
        initial={"regime_id": regime},
    )
    token = request.POST.get("kept_photos", "")
    kept = kept_photos.load(_agent_id(request), token) if request.method == "POST" else []
    if request.method == "POST" and form.is_valid():
        caption = form.cleaned_data.get("photo_caption", "")
        evidence = [services.EvidenceUpload(p.as_upload(), caption) for p in kept] + form.evidence()
        try:
            case = services.case_open(
                municipality=municipality,
                actor=request.user,
                details=form.details(),
                recorded_at=_now(),
                evidence=evidence,
                regime_id=regime,
            )
        except ValidationError as error:
            attach_refusal(form, error)
        else:
            kept_photos.discard(_agent_id(request), token)
            messages.success(request, f"Auto de infração {case.number} lavrado.")
            return redirect("enforcement:case_detail", municipality.ibge_code, case.pk)
    if request.method == "POST":  # the form comes back: what was attached stays attached
        token = kept_photos.keep(_agent_id(request), token, kept, request.FILES.getlist("photos"))
        kept = kept_photos.load(_agent_id(request), token)
    context = {
        "kept_token": token,
        "kept": kept,
        "municipality": municipality,
        "form": form,
        "regime": regime,
        "infractions": _infraction_options(municipality, regime, request.POST.get("q", "")),
        "traffic_rule": traffic_only_rule_pt(regime, _today()) if regime else "",
        "chosen_code": request.POST.get("infraction_code", ""),
        "lookup": _lookup_context(municipality, request.POST.get("plate", ""), regime),
    }
    return _render(request, "enforcement/case_form.html", context, status=400 if form.errors else 200)


def _agent_id(request: HttpRequest) -> int:
    return int(request.user.pk or 0)  # signed in (login_required): always a stored user


def _infraction_options(
    municipality: Municipality, regime: str | None, words: str
) -> list[tuple[Any, str, str]]:
    """Catalog entries matching the words, each with its severity and what a first offence costs today."""
    if not regime:
        return []
    infractions = catalog.search(regime, words, _today())
    penalties = lawbridge.first_offence_penalties(
        municipality, regime, [i.code for i in infractions], _today()
    )
    return [(i, SEVERITY_LABELS.get(i.severity, ""), penalties.get(i.code, "")) for i in infractions]


def _lookup_context(municipality: Municipality, plate: str, regime: str) -> dict[str, Any]:
    if not plate.strip():
        return {"state": "empty"}
    if plate_format(plate) is None:
        return {"state": "invalid", "plate": plate}
    found: PlateLookup = lookup_plate(municipality, plate, regime)
    clandestine = catalog.clandestine_infraction(regime, _today()) if found.clandestine else None
    return {
        "state": "found",
        "found": found,
        "clandestine_infraction": clandestine,
        "clandestine_rule": clandestine_rule_pt(regime, _today()),
    }


@login_required
@require_GET
def plate_lookup(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """HTMX: what the registry knows about the plate typed so far."""
    municipality = municipality_for(request, ibge_code, model_label=CASE, action=FILE)
    regime = _regime(municipality, request)
    context = {
        "municipality": municipality,
        "lookup": _lookup_context(municipality, request.GET.get("plate", ""), regime),
    }
    return _render(request, "enforcement/_plate_lookup.html", context)


@login_required
@require_GET
def infraction_search(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """HTMX: the catalog entries matching every word typed (accents ignored)."""
    municipality = municipality_for(request, ibge_code, model_label=CASE, action=FILE)
    regime = _regime(municipality, request)
    context = {
        "infractions": _infraction_options(municipality, regime, request.GET.get("q", "")),
        "chosen_code": request.GET.get("infraction_code", ""),
    }
    return _render(request, "enforcement/_infraction_options.html", context)


# --- lists ----------------------------------------------------------------------------------------------


@login_required
@require_GET
def my_cases(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=CASE, action=FILE)
    rows = InfractionCase.objects.for_user(request.user, "view").filter(municipality=municipality)
    rows = rows.of_agent(request.user).for_list().order_by("-created_at")
    page, query = paginate(request, rows)
    context = {
        "municipality": municipality,
        "page": page,
        "query": query,
        "title": "Meus autos",
        "mine": True,
    }
    return _render(request, "enforcement/case_list.html", context)


CASE_SORTS = Sorting.columns(
    ("numero", "Auto", ("year", "sequence", "pk")),
    ("placa", "Placa", ("plate", "pk")),
    ("data", "Data", ("occurred_at", "pk")),
    ("situacao", "Situação", ("state", "pk")),
    descending=True,
)


@login_required
@require_GET
def case_list(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=CASE)
    rows = InfractionCase.objects.for_user(request.user, "view").filter(municipality=municipality)
    state = request.GET.get("situacao", "")
    if state:
        rows = rows.filter(state=state)
    sort = CASE_SORTS.read(request)
    rows = rows.for_list().order_by(*sort.order_by)
    if (fmt := requested_format(request)) is not None:
        return export_response(request, spec=exports.CASES, rows=rows, municipality=municipality, fmt=fmt)
    page, query = paginate(request, rows)
    context = {
        "municipality": municipality,
        "page": page,
        "query": query,
        "title": "Autos de infração",
        "mine": False,
        "state": state,
        "states": CaseState.choices,
        "today": _today(),
        "sort": sort.headers(request),
    }
    return _render(request, "enforcement/case_list.html", context)


# --- the case page --------------------------------------------------------------------------------------


def _appeal_text(case: InfractionCase, as_of: dt.date) -> str:
    """The defence deadline the auto states (e.g. Olímpia art. 30 VIII): from the ciência if known, otherwise as
    counted from the auto date."""
    ciencia = infraction_ciencia(case)
    answer = lawbridge.defence_deadline(case, ciencia or case.drawn_on, as_of)
    if answer is None or answer.value is None:
        return answer.message if answer else "A lei do município não fixa prazo de recurso."
    if ciencia:
        return f"Até {answer.value:%d/%m/%Y} (ciência em {ciencia:%d/%m/%Y}). {answer.message}"
    return (
        f"Contado da ciência; se dada na lavratura ({case.drawn_on:%d/%m/%Y}), até {answer.value:%d/%m/%Y}."
    )


def _fine_text(case: InfractionCase, as_of: dt.date) -> str:
    answer = lawbridge.sanction_preview(case, as_of)
    if answer is None:
        return "Definida na decisão, conforme a lei e o histórico do autorizatário."
    return f"Prevista hoje: {answer.message} (a decisão final considera o histórico na data)."


@login_required
@require_GET
def case_detail(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=CASE)
    case = _case(request, municipality, pk)
    if case.operator is not None and case.operator.kind == OperatorKind.PF:  # the page shows the holder's CPF
        audit_personal_data_read(
            actor=request.user,
            municipality=municipality,
            obj=case,
            fields=["holder_document"],
            request_id=getattr(request, "request_id", ""),
        )
    today = _today()
    marks = case_timeline(case, today)
    can_notify = user_can(request.user, municipality.pk, NOTICE, "change")
    context = {
        "municipality": municipality,
        "case": case,
        "marks": marks,
        "svg_height": svg_height(marks),
        "today": today,
        "auto_rows": pdf.auto_rows(case, _fine_text(case, today), _appeal_text(case, today)),
        "notices": case.notices.select_related("edital"),
        "evidence": case.evidence.all(),
        "notice_limit_passed": notice_limit_passed(case, today),
        "can_notify": can_notify,
        "can_add_evidence": user_can(request.user, municipality.pk, "enforcement.evidence", "change"),
        "notice_form": forms.NoticeForm(initial={"sent_on": today}),
        "receipt_form": forms.ReceiptForm(),
        "evidence_form": forms.EvidenceForm(),
        "traffic_form": forms.TrafficOnlyForm(),
        "traffic_rule": traffic_only_rule_pt(case.regime_id, today),
        "can_mark_traffic": user_can(request.user, municipality.pk, CASE, "change"),
    }
    return _render(request, "enforcement/case_detail.html", context)


@login_required
@require_GET
def case_pdf(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=CASE)
    case = _case(request, municipality, pk)
    today = _today()
    warnings = [w["message"] for w in case.warnings]
    content = pdf.auto_pdf(case, _fine_text(case, today), _appeal_text(case, today), warnings)
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="auto-{case.number.replace("/", "-")}.pdf"'
    return response


@login_required
@require_GET
def evidence_file(request: HttpRequest, ibge_code: str, pk: int, evidence_id: int) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=CASE)
    case = _case(request, municipality, pk)
    evidence: Evidence = get_object_for_user_or_404(
        Evidence.objects.filter(case=case), request.user, "view", pk=evidence_id
    )
    return evidence.upload_response(request, municipality=municipality)


def _back(case: InfractionCase) -> HttpResponse:
    return redirect("enforcement:case_detail", case.municipality.ibge_code, case.pk)


def _flash_refusal(request: HttpRequest, error: ValidationError) -> None:
    for text in error.messages:
        messages.error(request, text)


@login_required
@require_POST
def evidence_add(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="enforcement.evidence", action="change")
    case = _case(request, municipality, pk)
    form = forms.EvidenceForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, "Prova: escolha um arquivo.")
        return _back(case)
    try:
        services.evidence_add(
            case=case,
            actor=request.user,
            upload=form.cleaned_data["file"],
            caption=form.cleaned_data["caption"],
            as_of=_today(),
        )
        messages.success(request, "Prova anexada.")
    except ValidationError as error:
        _flash_refusal(request, error)
    return _back(case)


@login_required
@require_POST
def traffic_only(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=CASE, action="change")
    case = _case(request, municipality, pk, "change")
    form = forms.TrafficOnlyForm(request.POST)
    try:
        reference = form.cleaned_data["reference"] if form.is_valid() else ""
        services.case_mark_traffic_only(case=case, actor=request.user, reference=reference, as_of=_today())
        messages.success(request, "Registrado: o fato já foi punido como infração de trânsito.")
    except ValidationError as error:
        _flash_refusal(request, error)
    return _back(case)


# --- notices ----------------------------------------------------------------------------------------------


@login_required
@require_POST
def notice_new(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=NOTICE, action="change")
    case = _case(request, municipality, pk)
    form = forms.NoticeForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, f"Notificação: {errors[0]}")
        return _back(case)
    try:
        notice = notices.notice_send(case=case, actor=request.user, as_of=_today(), **form.cleaned_data)
        messages.success(
            request, f"{notice.get_purpose_display()} registrada ({notice.get_channel_display()})."
        )
    except ValidationError as error:
        _flash_refusal(request, error)
    return _back(case)


def _notice(request: HttpRequest, municipality: Municipality, notice_id: int) -> Notice:
    rows = Notice.objects.select_related("case__municipality").filter(case__municipality=municipality)
    notice: Notice = get_object_for_user_or_404(rows, request.user, "view", pk=notice_id)
    return notice


@login_required
@require_POST
def notice_receipt(request: HttpRequest, ibge_code: str, notice_id: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=NOTICE, action="change")
    notice = _notice(request, municipality, notice_id)
    form = forms.ReceiptForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Recebimento: informe a data do recebimento ou da devolução.")
        return _back(notice.case)
    try:
        notices.notice_record_receipt(
            notice=notice,
            actor=request.user,
            as_of=_today(),
            received_on=form.cleaned_data["received_on"],
            returned_reason=form.cleaned_data["returned_reason"] or "",
        )
        messages.success(request, "Retorno da notificação registrado.")
    except ValidationError as error:
        _flash_refusal(request, error)
    return _back(notice.case)


@login_required
@require_GET
def notice_pdf(request: HttpRequest, ibge_code: str, notice_id: int) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=NOTICE)
    notice = _notice(request, municipality, notice_id)
    return stored_file_response(
        request,
        row=notice,
        fieldfile=notice.pdf,
        sha256=notice.pdf_sha256,
        municipality=municipality,
        content_type="application/pdf",
        filename=f"notificacao-{notice.pk}.pdf",
    )


# --- editais ----------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def edital_new(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=EDITAL, action="change")
    purpose = request.POST.get("purpose") or request.GET.get("purpose") or "infraction"
    candidates = notices.unreached_cases(municipality, purpose)
    form = forms.EditalForm(
        request.POST or None, candidates=candidates, initial={"purpose": purpose, "published_on": _today()}
    )
    if submit(
        request,
        form,
        lambda: notices.edital_publish(
            municipality=municipality,
            actor=request.user,
            purpose=form.cleaned_data["purpose"],
            cases=form.chosen(),
            published_on=form.cleaned_data["published_on"],
            publication_ref=form.cleaned_data["publication_ref"],
            as_of=_today(),
        ),
        success=lambda edital: f"Edital {edital.number} registrado.",
    ):
        return redirect("enforcement:edital_list", municipality.ibge_code)
    editais = Edital.objects.for_user(request.user, "view").filter(municipality=municipality)[:10]
    context = {
        "municipality": municipality,
        "form": form,
        "candidates": candidates,
        "purpose": purpose,
        "editais": editais,
    }
    return _render(request, "enforcement/edital_form.html", context, status=400 if form.errors else 200)


@login_required
@require_GET
def edital_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=EDITAL)
    rows = Edital.objects.for_user(request.user, "view").filter(municipality=municipality)
    page, query = paginate(request, rows)
    context = {
        "municipality": municipality,
        "page": page,
        "query": query,
        "can_publish": user_can(request.user, municipality.pk, EDITAL, "change"),
    }
    return _render(request, "enforcement/edital_list.html", context)


@login_required
@require_GET
def edital_pdf(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=EDITAL)
    edital = get_object_for_user_or_404(
        Edital.objects.all(), request.user, "view", municipality=municipality, pk=pk
    )
    return stored_file_response(
        request,
        row=edital,
        fieldfile=edital.pdf,
        sha256=edital.pdf_sha256,
        municipality=municipality,
        content_type="application/pdf",
        filename=f"edital-{edital.pk}.pdf",
    )
