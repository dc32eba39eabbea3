"""Finance screens: guides (list, page, PDF), payment registration, cancellation, refunds, PIX settings.

Every read goes through ``for_user``; a user without the role for the screen gets 404, like a row that does
not exist. Writes call the services; a refusal is shown on the field it names and nothing is stored.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.decorators import recent_authentication_required
from apps.accounts.models import User
from apps.audit.services import audit_personal_data_read
from apps.finance import exports, services
from apps.finance.forms import (
    CancelForm,
    FeeScheduleForm,
    FinanceSettingsForm,
    GuideFilterForm,
    PaymentForm,
    RefundForm,
    RefundPaidForm,
)
from apps.finance.models import FeeSchedule, FinanceSettings, PaymentGuide, Refund, WaitingGuide
from apps.finance.pdf import guide_pdf, pix_qr_svg
from apps.finance.pix_context import charge_context
from apps.finance.selectors import waiting_guides
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.web.exports import export_response, requested_format
from apps.web.pagination import paginate
from apps.web.sorting import Sorting
from outorga.submit import submit

GUIDE = "finance.paymentguide"
WAITING = "finance.waitingguide"


def _actor(request: HttpRequest) -> User:
    """The signed-in staff member (every view here is behind login_required)."""
    return cast(User, request.user)


def _guide(request: HttpRequest, municipality: Municipality, pk: int, action: str = "view") -> PaymentGuide:
    return get_object_for_user_or_404(
        PaymentGuide.objects.all(), request.user, action, municipality=municipality, pk=pk
    )


def _audit_payer_read(request: HttpRequest, guide: PaymentGuide) -> None:
    audit_personal_data_read(
        actor=_actor(request),
        municipality=guide.municipality,
        obj=guide,
        fields=["payer_document"],
        request_id=getattr(request, "request_id", ""),
    )


GUIDE_SORTS = Sorting.columns(
    ("numero", "Número", ("year", "sequence")),
    ("contribuinte", "Contribuinte", ("payer_name", "year", "sequence")),
    ("valor", "Valor", ("amount_brl", "year", "sequence")),
    ("emissao", "Emissão", ("issued_on", "year", "sequence")),
    ("vencimento", "Vencimento", ("due_on", "year", "sequence")),
    ("situacao", "Situação", ("status", "year", "sequence")),
    descending=True,
)


@login_required
@require_GET
def guide_list(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=GUIDE)
    form = GuideFilterForm(request.GET or None)
    guides = PaymentGuide.objects.for_user(request.user, "view").filter(municipality=municipality)
    if form.is_bound and form.is_valid():
        guides = form.apply(guides, timezone.localdate())
    elif form.is_bound:
        guides = guides.none()
    sort = GUIDE_SORTS.read(request)
    guides = guides.order_by(*sort.order_by)
    if (fmt := requested_format(request)) is not None:
        return export_response(request, spec=exports.GUIDES, rows=guides, municipality=municipality, fmt=fmt)
    page, query = paginate(request, guides)
    context = {
        "municipality": municipality,
        "form": form,
        "page": page,
        "query": query,
        "today": timezone.localdate(),
        "sort": sort.headers(request),
        **_menu(request, municipality),
    }
    template = "finance/_guide_table.html" if request.htmx else "finance/guide_list.html"  # type: ignore[attr-defined]
    return render(request, template, context)


@login_required
@require_GET
def waiting_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """The queue of guides waiting for a value: what each charges, which value it waits for and where that
    value is entered; each leaves the queue by itself, issued, once the value is entered."""
    municipality = municipality_for(request, ibge_code, model_label=WAITING)
    rows = waiting_guides(municipality) & WaitingGuide.objects.for_user(request.user, "view")
    context = {"municipality": municipality, "rows": rows, **_menu(request, municipality)}
    return render(request, "finance/waiting_list.html", context)


def _menu(request: HttpRequest, municipality: Municipality) -> dict[str, bool]:
    return {
        "can_see_refunds": user_can(request.user, municipality.pk, "finance.refund", "view"),
        "can_see_waiting": user_can(request.user, municipality.pk, WAITING, "view"),
        "can_edit_settings": user_can(request.user, municipality.pk, "finance.financesettings", "change"),
        "can_register": user_can(request.user, municipality.pk, GUIDE, "change"),
    }


@login_required
@require_GET
def guide_detail(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=GUIDE)
    guide = _guide(request, municipality, pk)
    _audit_payer_read(request, guide)
    payment = getattr(guide, "payment", None)
    refunds = list(payment.refunds.all()) if payment is not None else []
    context = {
        "municipality": municipality,
        "guide": guide,
        "payment": payment,
        "refunds": refunds,
        "cancel_form": CancelForm(),
        "qr_svg": pix_qr_svg(guide.pix_payload),
        **charge_context(guide),
        **_menu(request, municipality),
    }
    return render(request, "finance/guide_detail.html", context)


@login_required
@require_GET
def guide_pdf_view(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=GUIDE)
    guide = _guide(request, municipality, pk)
    _audit_payer_read(request, guide)
    response = HttpResponse(guide_pdf(guide), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="guia-{guide.number.replace("/", "-")}.pdf"'
    return response


@login_required
@recent_authentication_required
@require_http_methods(["GET", "POST"])
def payment_register(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=GUIDE, action="change")
    guide = _guide(request, municipality, pk, "change")
    form = PaymentForm(
        request.POST or None, initial={"amount_brl": guide.amount_brl, "paid_on": timezone.localdate()}
    )
    if submit(
        request,
        form,
        lambda: services.payment_register(
            actor=_actor(request), guide=guide, as_of=timezone.localdate(), **form.cleaned_data
        ),
        success=f"Pagamento da guia {guide.number} registrado.",
    ):
        return redirect("finance:guide_detail", ibge_code, guide.pk)
    context = {"municipality": municipality, "guide": guide, "form": form, **_menu(request, municipality)}
    return render(request, "finance/payment_form.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def guide_cancel(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=GUIDE, action="change")
    guide = _guide(request, municipality, pk, "change")
    form = CancelForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError({"reason": "Motivo do cancelamento: campo obrigatório."})
        services.guide_cancel(
            actor=_actor(request),
            guide=guide,
            reason=form.cleaned_data["reason"],
            as_of=timezone.localdate(),
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"Guia {guide.number} cancelada.")
    return redirect("finance:guide_detail", ibge_code, guide.pk)


REFUND_SORTS = Sorting.columns(
    ("situacao", "Situação", ("status", "due_on", "pk")),
    ("guia", "Guia", ("payment__guide__year", "payment__guide__sequence", "pk")),
    ("contribuinte", "Contribuinte", ("payment__guide__payer_name", "pk")),
    ("valor", "Valor", ("amount_brl", "pk")),
    ("prazo", "Restituir até", ("due_on", "pk")),
)


@login_required
@require_GET
def refund_list(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label="finance.refund")
    refunds = (
        Refund.objects.for_user(request.user, "view")
        .filter(payment__guide__municipality=municipality)
        .select_related("payment__guide")
    )
    sort = REFUND_SORTS.read(request)
    refunds = refunds.order_by(*sort.order_by)
    if (fmt := requested_format(request)) is not None:
        return export_response(
            request, spec=exports.REFUNDS, rows=refunds, municipality=municipality, fmt=fmt
        )
    page, query = paginate(request, refunds)
    context = {
        "municipality": municipality,
        "page": page,
        "query": query,
        "paid_form": RefundPaidForm(),
        "today": timezone.localdate(),
        "sort": sort.headers(request),
        **_menu(request, municipality),
    }
    return render(request, "finance/refund_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def refund_create(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="finance.refund", action="change")
    guide = _guide(request, municipality, pk)
    payment = getattr(guide, "payment", None)
    if payment is None:
        raise Http404("Guia sem pagamento registrado.")
    form = RefundForm(request.POST or None)
    if submit(
        request,
        form,
        lambda: services.refund_create(
            actor=_actor(request), payment=payment, as_of=timezone.localdate(), **form.cleaned_data
        ),
        success=f"Restituição da guia {guide.number} registrada.",
    ):
        return redirect("finance:refund_list", ibge_code)
    context = {
        "municipality": municipality,
        "guide": guide,
        "payment": payment,
        "form": form,
        **_menu(request, municipality),
    }
    return render(request, "finance/refund_form.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def refund_mark_paid(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="finance.refund", action="change")
    refund = get_object_for_user_or_404(
        Refund.objects.all(), request.user, "change", payment__guide__municipality=municipality, pk=pk
    )
    form = RefundPaidForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError({"paid_on": "Data da restituição: informe uma data válida."})
        services.refund_mark_paid(
            actor=_actor(request),
            refund=refund,
            as_of=timezone.localdate(),
            **form.cleaned_data,
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, "Restituição marcada como paga.")
    return redirect("finance:refund_list", ibge_code)


def _settings_page(
    request: HttpRequest, municipality: Municipality, form: FinanceSettingsForm, fee_form: FeeScheduleForm
) -> HttpResponse:
    fees = FeeSchedule.objects.for_user(request.user, "view").filter(municipality=municipality)
    context = {
        "municipality": municipality,
        "form": form,
        "fee_form": fee_form,
        "fees": fees,
        **_menu(request, municipality),
    }
    status = 400 if form.errors or fee_form.errors else 200
    return render(request, "finance/settings_form.html", context, status=status)


def _settings_form(municipality: Municipality, data: Any = None) -> FinanceSettingsForm:
    current = FinanceSettings.objects.filter(municipality=municipality).first()
    return FinanceSettingsForm(data, initial=current.audit_snapshot() if current else {"guide_due_days": 10})


@login_required
@require_http_methods(["GET", "POST"])
def settings_edit(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(
        request, ibge_code, model_label="finance.financesettings", action="change"
    )
    form = _settings_form(municipality, request.POST or None)
    if submit(
        request,
        form,
        lambda: services.finance_settings_save(
            actor=_actor(request), municipality=municipality, **form.cleaned_data
        ),
        success="Recebimento PIX atualizado.",
    ):
        return redirect("finance:settings_edit", ibge_code)
    return _settings_page(request, municipality, form, FeeScheduleForm(regimes=municipality.regimes))


@login_required
@require_POST
def fee_create(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """An administrator configures a fee; the dispositivo is checked against the regime's law."""
    municipality = municipality_for(request, ibge_code, model_label="finance.feeschedule", action="change")
    fee_form = FeeScheduleForm(request.POST, regimes=municipality.regimes)
    if submit(
        request,
        fee_form,
        lambda: services.fee_schedule_create(
            actor=_actor(request), municipality=municipality, **fee_form.cleaned_data
        ),
        success="Taxa configurada.",
    ):
        return redirect("finance:settings_edit", ibge_code)
    return _settings_page(request, municipality, _settings_form(municipality), fee_form)
