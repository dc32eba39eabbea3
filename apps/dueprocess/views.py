"""Due-process screens: the judges' queues (ordered by judgment deadline), the judgment form, the case's due-
process page (appeals, judgments, penalty and its effects, staff filing form, finality, fine guide) and the
dívida ativa export. Reads go through for_user (outsiders and the wrong role get 404); writes call the services.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.decorators import recent_authentication_required
from apps.dueprocess import active_debt, exports, forms, selectors, services, verdicts
from apps.dueprocess.choices import Instance
from apps.dueprocess.models import Appeal, AppealAttachment, Effect, Regularization, Sanction
from apps.dueprocess.permissions import CHARGE, EXPORT, JUDGE_FIRST, JUDGE_SECOND
from apps.dueprocess.procedure import (
    bodies_for,
    body_of,
    body_pt,
    fine_due_pt,
    instance_label,
    proceeding,
    steps_pt,
)
from apps.dueprocess.services import finality, fines
from apps.enforcement.models import InfractionCase
from apps.enforcement.pdf import auto_rows
from apps.finance.choices import OriginType
from apps.finance.models import PaymentGuide
from apps.finance.selectors import fine_charge, waiting_guide
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.web.exports import export_response, requested_format
from apps.web.sorting import Sorting
from outorga.submit import submit

APPEAL = "dueprocess.appeal"
SANCTION = "dueprocess.sanction"
JUDGING = {Instance.FIRST: JUDGE_FIRST, Instance.SECOND: JUDGE_SECOND}


def _today() -> dt.date:
    return timezone.localdate()


def _case(request: HttpRequest, municipality: Municipality, pk: int) -> InfractionCase:
    rows = InfractionCase.objects.select_related(
        "municipality", "operator__person", "operator__company", "permit"
    )
    return get_object_for_user_or_404(rows, request.user, "view", municipality=municipality, pk=pk)


# --- queues and judgments -------------------------------------------------------------------------------


# The default column («Julgar até») keeps the queue's own order: no judgment deadline after every dated one.
APPEAL_SORTS = Sorting.columns(
    ("julgar", "Julgar até", ("judgment_deadline", "filed_on", "pk")),
    ("auto", "Auto", ("case__year", "case__sequence", "pk")),
    ("recorrente", "Recorrente", ("appellant_name", "pk")),
    ("protocolo", "Protocolo", ("filed_on", "pk")),
    ("prazo", "Prazo de recurso", ("deadline", "pk")),
)


@login_required
@require_GET
def queue(request: HttpRequest, ibge_code: str, instance: str) -> HttpResponseBase:
    if instance not in JUDGING:
        raise Http404("Fila não encontrada.")
    action = JUDGING[Instance(instance)]
    municipality = municipality_for(request, ibge_code, model_label=APPEAL, action=action)
    rows = (
        Appeal.objects.for_user(request.user, action).filter(case__municipality=municipality).queue(instance)
    )
    sort = APPEAL_SORTS.chosen(request)
    rows = rows.order_by(*sort.order_by) if sort is not None else rows
    if (fmt := requested_format(request)) is not None:
        return export_response(request, spec=exports.APPEALS, rows=rows, municipality=municipality, fmt=fmt)
    context = {
        "municipality": municipality,
        "appeals": rows,
        "today": _today(),
        "title": f"{Instance(instance).label} — {bodies_for(municipality.regimes, instance)}",
        "sort": (sort or APPEAL_SORTS.read(request)).headers(request),
    }
    return render(request, "dueprocess/queue.html", context)


@login_required
@recent_authentication_required
@require_http_methods(["GET", "POST"])
def judge(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    appeal = _appeal_to_judge(request, ibge_code, pk)
    municipality = appeal.case.municipality
    choices = _choices(appeal.case)
    body = body_of(appeal.case.regime_id, appeal.instance)
    form = forms.JudgmentForm(
        request.POST or None,
        initial={"decided_on": _today()},
        choices=choices,
        verdicts=verdicts.verdicts_for(appeal),
        body=body,
        vote_labels=verdicts.vote_words(appeal.case.regime_id),
    )
    if submit(
        request,
        form,
        lambda: services.appeal_judge(
            appeal=appeal,
            verdict=form.cleaned_data["verdict"],
            reasoning=form.cleaned_data["reasoning"],
            decided_on=form.cleaned_data["decided_on"],
            actor=request.user,
            as_of=_today(),
            chosen=form.chosen(),
            votes=form.votes(),
        ),
        success=f"Recurso do auto {appeal.case.number} julgado.",
    ):
        return redirect("dueprocess:case", municipality.ibge_code, appeal.case_id)
    context = {
        "municipality": municipality,
        "appeal": appeal,
        "form": form,
        "case": appeal.case,
        "label": instance_label(appeal.case.regime_id, appeal.instance),
        "body": body_pt(appeal.case.regime_id, appeal.instance, _today()),
        **_judge_record(appeal),
    }
    return render(request, "dueprocess/judge.html", context, status=400 if form.errors else 200)


def _judge_record(appeal: Appeal) -> dict[str, object]:
    """Everything the judge weighs, on the judging page itself: the auto, its evidence, the defence and its
    attachments, the earlier instances and what each verdict would do."""
    case = appeal.case
    # Items I–VI of the auto (VII, the penalty, and VIII, the deadline, are answered below by the previews).
    rows = auto_rows(case, fine_text="", appeal_text="")[:6]
    earlier = [row for row in selectors.case_appeals(case) if row.pk != appeal.pk]
    return {
        "auto_rows": rows,
        "evidence": case.evidence.all(),
        "attachments": appeal.attachments.all(),
        "earlier_appeals": earlier,
        "previews": verdicts.verdict_previews(appeal, _today()),
    }


def _choices(case: InfractionCase) -> list[services.Choice]:
    """The quantities to fix at judgment; none when the law cannot compute the penalty yet (the service then
    refuses a condemnation with the engine's reason)."""
    try:
        return services.judgment_choices(case, _today())
    except ValidationError:
        return []


def _appeal_to_judge(request: HttpRequest, ibge_code: str, pk: int) -> Appeal:
    """The appeal, only for whoever may judge its instance; anybody else gets 404 (no probing)."""
    rows = Appeal.objects.select_related(
        "case__municipality", "case__operator__person", "case__operator__company"
    )
    appeal: Appeal = get_object_for_user_or_404(
        rows, request.user, "view", case__municipality__ibge_code=ibge_code, pk=pk
    )
    if not user_can(request.user, appeal.case.municipality.pk, APPEAL, JUDGING[Instance(appeal.instance)]):
        raise Http404("Registro não encontrado.")
    if hasattr(appeal, "judgment"):
        raise Http404("Recurso já julgado.")
    return appeal


# --- the case's due-process page ----------------------------------------------------------------------


def _instances(case: InfractionCase) -> list[tuple[str, str]]:
    return [(key, instance_label(case.regime_id, key)) for key in proceeding(case.regime_id).instances]


def _case_context(
    request: HttpRequest,
    municipality: Municipality,
    case: InfractionCase,
    appeal_form: forms.AppealForm | None = None,
    regularization_form: forms.RegularizationForm | None = None,
) -> dict[str, object]:
    sanction = selectors.case_sanction(case)
    today = _today()
    regularization = selectors.case_regularization(case)
    terms = services.regularization_terms(case) if regularization is None else None
    # Finality for want of an appeal is offered only once the appeal period has really run out.
    lapse = finality.lapse_deadline(case, today) if case.state in finality.LAPSING else None
    return {
        "effect_rows": selectors.case_effects(case),
        "regularization": regularization,
        "can_release": user_can(request.user, municipality.pk, SANCTION, "change"),
        "regularization_limit": terms[1] if terms else None,
        "can_regularize": terms is not None
        and user_can(request.user, municipality.pk, SANCTION, "change")
        and not (sanction and sanction.conditional_cassation_on),
        "regularization_form": regularization_form
        or forms.RegularizationForm(initial={"regularized_on": today}),
        "municipality": municipality,
        "case": case,
        "appeals": selectors.case_appeals(case),
        "sanction": sanction,
        "fine": fine_charge(origin_id=sanction.pk) if sanction and sanction.has_fine else None,
        "findings": selectors.sanction_findings(sanction) if sanction else [],
        "suspension": selectors.sanction_suspension(sanction) if sanction else None,
        "can_file": user_can(request.user, municipality.pk, APPEAL, "change"),
        "can_finalize": user_can(request.user, municipality.pk, SANCTION, "change")
        and lapse is not None
        and today > lapse,
        "lapsing": case.state in finality.LAPSING,
        "lapse_deadline": lapse,
        "can_charge": user_can(request.user, municipality.pk, SANCTION, CHARGE)
        and sanction is not None
        and sanction.has_fine
        and sanction.guide is None
        and sanction.state != "annulled"
        and waiting_guide(origin_type=OriginType.FINE, origin_id=sanction.pk) is None,
        "appeal_form": appeal_form
        or forms.AppealForm(instances=_instances(case), initial={"filed_on": today}),
        "steps": steps_pt(case.regime_id, today),
        "fine_due": fine_due_pt(case.regime_id, today),
        "today": today,
    }


@login_required
@require_GET
def case_page(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=APPEAL)
    case = _case(request, municipality, pk)
    return render(request, "dueprocess/case.html", _case_context(request, municipality, case))


@login_required
@require_POST
def appeal_new(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=APPEAL, action="change")
    case = _case(request, municipality, pk)
    form = forms.AppealForm(request.POST, request.FILES, instances=_instances(case))
    if submit(
        request,
        form,
        lambda: services.appeal_file(
            case=case,
            instance=form.cleaned_data["instance"],
            filed_on=form.cleaned_data["filed_on"],
            text=form.cleaned_data["text"],
            actor=request.user,
            as_of=_today(),
            appellant_name=form.cleaned_data["appellant_name"],
            attachments=form.cleaned_data["attachments"],
        ),
        success=lambda appeal: (
            f"{instance_label(case.regime_id, appeal.instance)} protocolado"
            f"{' — FORA DO PRAZO' if appeal.late else ''}."
        ),
    ):
        return redirect("dueprocess:case", municipality.ibge_code, case.pk)
    context = _case_context(request, municipality, case, appeal_form=form)
    return render(request, "dueprocess/case.html", context, status=400)


@login_required
@require_POST
def regularize(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=SANCTION, action="change")
    case = _case(request, municipality, pk)
    form = forms.RegularizationForm(request.POST, request.FILES)
    if submit(
        request,
        form,
        lambda: services.case_regularize(
            case=case,
            regularized_on=form.cleaned_data["regularized_on"],
            description=form.cleaned_data["description"],
            evidence=form.cleaned_data["evidence"],
            actor=request.user,
            as_of=_today(),
        ),
        success=f"Regularização do auto {case.number} registrada.",
    ):
        return redirect("dueprocess:case", municipality.ibge_code, case.pk)
    context = _case_context(request, municipality, case, regularization_form=form)
    return render(request, "dueprocess/case.html", context, status=400)


@login_required
@require_POST
def seizure_release(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=SANCTION, action="change")
    rows = Effect.objects.filter(case__municipality=municipality, mechanism="seizure")
    row = get_object_for_user_or_404(rows, request.user, "view", pk=pk)
    form = forms.SeizureReleaseForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return redirect("dueprocess:case", municipality.ibge_code, row.case_id)
    try:
        services.seizure_release(
            effect=row,
            released_on=form.cleaned_data["released_on"],
            note=form.cleaned_data["note"],
            actor=request.user,
            as_of=_today(),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "Liberação do veículo registrada.")
    return redirect("dueprocess:case", municipality.ibge_code, row.case_id)


@login_required
@require_GET
def regularization_file(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=APPEAL)
    rows = Regularization.objects.filter(case__municipality=municipality)
    row: Regularization = get_object_for_user_or_404(rows, request.user, "view", pk=pk)
    return row.upload_response(request, municipality=municipality)


@login_required
@recent_authentication_required
@require_POST
def finalize(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=SANCTION, action="change")
    case = _case(request, municipality, pk)
    try:
        finality.case_finalize_unappealed(case=case, actor=request.user, as_of=_today())
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Decisão definitiva registrada para o auto {case.number}.")
    return redirect("dueprocess:case", municipality.ibge_code, case.pk)


@login_required
@require_POST
def fine_issue(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=SANCTION, action=CHARGE)
    rows = Sanction.objects.select_related("case", "guide")
    sanction = get_object_for_user_or_404(rows, request.user, CHARGE, case__municipality=municipality, pk=pk)
    try:
        issued = fines.fine_issue(sanction=sanction, actor=request.user, as_of=_today())
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if isinstance(issued, PaymentGuide):
            messages.success(request, f"Guia {issued.number} emitida.")
        else:
            messages.warning(request, issued.waiting_message)
    return redirect("dueprocess:case", municipality.ibge_code, sanction.case_id)


@login_required
@require_GET
def attachment_file(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=APPEAL)
    rows = AppealAttachment.objects.filter(appeal__case__municipality=municipality)
    attachment = get_object_for_user_or_404(rows, request.user, "view", pk=pk)
    # A name that says what the file is, whoever filed it (staff on paper or the operator in the portal).
    name = f"anexo-recurso-{attachment.appeal_id}-{attachment.pk}{attachment.extension}"
    return attachment.upload_response(request, municipality=municipality, filename=name)


# --- dívida ativa -----------------------------------------------------------------------------------------


@login_required
@require_GET
def active_debt_view(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=SANCTION, action=EXPORT)
    today = _today()
    if (fmt := requested_format(request)) is not None:
        streamed = active_debt.iter_unpaid_final_fines(municipality, today)
        return export_response(request, spec=exports.DEBTS, rows=streamed, municipality=municipality, fmt=fmt)
    rows = active_debt.unpaid_final_fines(municipality, today)
    if request.GET.get("formato") == "json":
        return _download(rows, municipality, today)
    total = sum((row.amount_brl for row in rows), Decimal("0.00"))
    context = {"municipality": municipality, "rows": rows, "today": today, "total": total}
    return render(request, "dueprocess/active_debt.html", context)


def _download(rows: list[active_debt.DebtRow], municipality: Municipality, today: dt.date) -> HttpResponse:
    """The JSON for the tax system; the spreadsheets go through the shared list export."""
    response = HttpResponse(active_debt.to_json(rows, municipality, today), content_type="application/json")
    name = f"divida-ativa-{municipality.ibge_code}-{today:%Y%m%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def tax_feed_view(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """The tax system's incremental feed: ?desde=<cursor> (0 for everything), &formato=csv for CSV (JSON
    otherwise). The events not fed yet are collected first, so the feed is always current."""
    from apps.dueprocess import taxfeed
    from apps.dueprocess.services.taxfeed import tax_feed_collect

    municipality = municipality_for(request, ibge_code, model_label=SANCTION, action=EXPORT)
    since_text = request.GET.get("desde", "0")
    if not since_text.isdigit():
        return HttpResponse("Parâmetro desde: informe o cursor (um número inteiro).", status=400)
    tax_feed_collect(municipality=municipality, as_of=_today())
    page = taxfeed.feed_page(municipality, int(since_text))
    if request.GET.get("formato") == "csv":
        response = HttpResponse(taxfeed.to_csv(page), content_type="text/csv; charset=utf-8")
        extension = "csv"
    else:
        response = HttpResponse(taxfeed.to_json(page, municipality), content_type="application/json")
        extension = "json"
    name = f"divida-ativa-eventos-{municipality.ibge_code}-desde-{page.since}.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
