"""Screens of the PSP integration: the review queue of payments the bank reported, and the charge's terms.

Same rules as apps.finance.views: reads through ``for_user`` (404 for the wrong role), writes through services.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.accounts.decorators import recent_authentication_required
from apps.accounts.models import User
from apps.finance import services_pix
from apps.finance.choices import ReviewStatus
from apps.finance.forms_pix import ChargeTermsForm, CnabApplyForm, CnabUploadForm, ReviewDecisionForm
from apps.finance.models import PaymentGuide
from apps.finance.pix_models import PaymentReview, PixChargeTerms
from apps.finance.psp.config import psp_config
from apps.finance.views import _menu
from apps.tenancy.access import municipality_for
from apps.tenancy.querysets import get_object_for_user_or_404
from apps.web.pagination import paginate
from outorga.submit import submit

REVIEW = "finance.paymentreview"


@login_required
@require_GET
def review_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=REVIEW)
    reviews = (
        PaymentReview.objects.for_user(request.user, "view")
        .filter(received__municipality=municipality)
        .select_related("received__guide", "resolved_by")
        .order_by("status", "-created_at", "-id")
    )
    page, query = paginate(request, reviews)
    context = {
        "municipality": municipality,
        "page": page,
        "query": query,
        "open_count": reviews.filter(status=ReviewStatus.OPEN).count(),
        "decision_form": ReviewDecisionForm(),
        **_menu(request, municipality),
    }
    return render(request, "finance/review_list.html", context)


@login_required
@require_POST
def review_decide(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=REVIEW, action="change")
    review = get_object_for_user_or_404(
        PaymentReview.objects.all(), request.user, "change", received__municipality=municipality, pk=pk
    )
    form = ReviewDecisionForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError({"decision": "Decisão: escolha uma das opções."})
        number = form.cleaned_data["guide_number"].strip()
        guide = (
            PaymentGuide.objects.filter(municipality=municipality, number=number).first() if number else None
        )
        if number and guide is None:
            raise ValidationError({"guide": f"Guia {number}: não encontrada neste município."})
        services_pix.payment_review_resolve(
            actor=cast(User, request.user),
            review=review,
            decision=form.cleaned_data["decision"],
            note=form.cleaned_data["note"],
            guide=guide,
            as_of=timezone.localdate(),
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, "Decisão registrada.")
    return redirect("finance:review_list", ibge_code)


@login_required
@require_http_methods(["GET", "POST"])
def charge_terms_edit(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label="finance.pixchargeterms", action="change")
    current = PixChargeTerms.objects.filter(municipality=municipality).first()
    initial = (
        current.audit_snapshot() if current else {"days_payable_after_due": 30, "discount_days_before_due": 0}
    )
    form = ChargeTermsForm(request.POST or None, initial=initial)
    if submit(
        request,
        form,
        lambda: services_pix.pix_charge_terms_save(
            actor=cast(User, request.user), municipality=municipality, **form.cleaned_data
        ),
        success="Encargos da cobrança PIX atualizados.",
    ):
        return redirect("finance:charge_terms_edit", ibge_code)
    context = {
        "municipality": municipality,
        "form": form,
        "terms": current,
        "has_psp": psp_config(municipality.ibge_code) is not None,
        **_menu(request, municipality),
    }
    return render(request, "finance/charge_terms_form.html", context, status=400 if form.errors else 200)


MAX_CNAB_BYTES = 5_000_000


def _cnab_text(upload: Any) -> str:
    raw = upload.read(MAX_CNAB_BYTES + 1)
    if len(raw) > MAX_CNAB_BYTES:
        raise ValidationError({"file": "Arquivo grande demais (máximo de 5 MB)."})
    try:
        return str(raw.decode("latin-1"))
    except UnicodeDecodeError:  # pragma: no cover — latin-1 decodes any byte
        raise ValidationError({"file": "Arquivo ilegível."}) from None


@login_required
@recent_authentication_required
@require_http_methods(["GET", "POST"])
def cnab_upload(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """Upload → preview (the application rolled back) → apply, in one transaction."""
    municipality = municipality_for(request, ibge_code, model_label=REVIEW, action="change")
    form, lines, content = CnabUploadForm(), None, ""
    if request.method == "POST" and "content" in request.POST:
        apply_form = CnabApplyForm(request.POST)
        if apply_form.is_valid():
            try:
                applied = services_pix.cnab_return_apply(
                    actor=cast(User, request.user),
                    municipality=municipality,
                    content=apply_form.cleaned_data["content"],
                    as_of=timezone.localdate(),
                )
            except ValidationError as exc:
                messages.error(request, " ".join(exc.messages))
            else:
                counts = Counter(line.outcome for line in applied)
                messages.success(
                    request,
                    f"Arquivo aplicado: {counts['baixa']} baixa(s), {counts['conferência']} para conferência, "
                    f"{counts['já registrado']} já registrado(s), {counts['ignorado']} movimento(s) ignorado(s).",
                )
                return redirect("finance:review_list", ibge_code)
    elif request.method == "POST":
        form = CnabUploadForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                content = _cnab_text(form.cleaned_data["file"])
                lines = services_pix.cnab_return_preview(
                    municipality=municipality, content=content, as_of=timezone.localdate()
                )
            except ValidationError as exc:
                form.add_error(None, " ".join(exc.messages))
                lines, content = None, ""
    context = {
        "municipality": municipality,
        "form": form,
        "lines": lines,
        "apply_form": CnabApplyForm(initial={"content": content}) if lines is not None else None,
        **_menu(request, municipality),
    }
    return render(request, "finance/cnab_upload.html", context, status=400 if form.errors else 200)
