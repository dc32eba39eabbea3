"""Back-office screens for portal accounts: the secretariat lists and invites operators, drivers and attendants.
Gated like every staff screen (tenancy matrix, 404 for other municipalities)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from apps.portal import services
from apps.portal.forms import PortalAccountForm, apply_refusal
from apps.portal.models import AppealAttachment, PortalAccount
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can

ACCOUNT = "portal.portalaccount"
ATTACHMENT = "portal.appealattachment"


def _municipality(
    request: HttpRequest, ibge_code: str, action: str, model_label: str = ACCOUNT
) -> Municipality:
    municipality = get_object_for_user_or_404(
        Municipality.objects.all(), request.user, "view", ibge_code=ibge_code
    )
    if not user_can(request.user, municipality.pk, model_label, action):
        raise Http404("Registro não encontrado.")
    return municipality


@login_required
@require_http_methods(["GET", "POST"])
def account_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = _municipality(request, ibge_code, "view")
    can_change = user_can(request.user, municipality.pk, ACCOUNT, "change")
    form = PortalAccountForm(request.POST or None, municipality=municipality)
    if request.method == "POST":
        if not can_change:
            raise Http404("Registro não encontrado.")
        if form.is_valid():
            try:
                account = services.portal_account_create(actor=request.user, **form.cleaned_data)  # type: ignore[arg-type]
            except ValidationError as exc:
                apply_refusal(form, exc)
            else:
                messages.success(request, f"Conta do portal criada: {account.user.username}.")
                return redirect("portal:staff-accounts", ibge_code=municipality.ibge_code)
    accounts = PortalAccount.objects.for_user(request.user, "view").filter(municipality=municipality)
    accounts = accounts.select_related("user", "operator__person", "operator__company")
    return render(request, "portal/staff_accounts.html", {"municipality": municipality, "accounts": accounts,
                                                          "form": form, "can_change": can_change})  # fmt: skip


@login_required
@require_GET
def attachment_download(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponseBase:
    """A file the operator attached to a portal appeal, for the judging authority, the board and the DPO."""
    municipality = _municipality(request, ibge_code, "view", ATTACHMENT)
    attachment = get_object_for_user_or_404(
        AppealAttachment.objects.filter(municipality=municipality), request.user, "view", pk=pk
    )
    extension = attachment.file.name.rsplit(".", 1)[-1]
    name = f"anexo-recurso-{attachment.appeal_id}-{pk}.{extension}"
    response: HttpResponseBase = FileResponse(
        attachment.file.open("rb"), content_type=attachment.content_type, filename=name
    )
    return response
