"""Back-office screens for portal accounts: the secretariat lists and invites operators, drivers and attendants.
Gated like every staff screen (tenancy matrix, 404 for other municipalities)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.ops.storage import stored_file_response
from apps.portal import services
from apps.portal.forms import PortalInvitationForm, apply_refusal
from apps.portal.models import AppealAttachment, PortalAccount, PortalInvitation
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
    """Portal logins of the municipality, pending invitations, and the form to invite someone by e-mail."""
    municipality = _municipality(request, ibge_code, "view")
    can_change = user_can(request.user, municipality.pk, ACCOUNT, "change")
    initial = {"operator": request.GET.get("autorizatario"), "role": request.GET.get("papel")}
    form = PortalInvitationForm(request.POST or None, municipality=municipality, initial=initial)
    if request.method == "POST":
        if not can_change:
            raise Http404("Registro não encontrado.")
        if form.is_valid():
            try:
                invitation = services.portal_invitation_create(
                    actor=request.user,  # type: ignore[arg-type]
                    base_url=request.build_absolute_uri("/"),
                    **form.cleaned_data,
                )
            except ValidationError as exc:
                apply_refusal(form, exc)
            else:
                messages.success(request, f"Convite do portal enviado para {invitation.email}.")
                return redirect("portal:staff-accounts", ibge_code=municipality.ibge_code)
    accounts = PortalAccount.objects.for_user(request.user, "view").filter(municipality=municipality)
    accounts = accounts.select_related("user", "operator__person", "operator__company")
    invitations = PortalInvitation.objects.for_user(request.user, "view").filter(
        municipality=municipality,
        accepted_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    )
    invitations = invitations.select_related("operator__person", "operator__company")
    context = {
        "municipality": municipality,
        "accounts": accounts,
        "invitations": invitations,
        "form": form,
        "can_change": can_change,
    }
    return render(request, "portal/staff_accounts.html", context)


@login_required
@require_POST
def account_set_active(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    """Suspend or restore a portal login (the secretariat's answer to a lost phone or a person who left)."""
    municipality = _municipality(request, ibge_code, "change")
    account = get_object_for_user_or_404(
        PortalAccount.objects.filter(municipality=municipality).select_related("user"),
        request.user,
        "change",
        pk=pk,
    )
    active = request.POST.get("active") == "1"
    services.portal_account_set_active(actor=request.user, account=account, active=active)  # type: ignore[arg-type]
    state = "reativada" if active else "suspensa"
    messages.success(request, f"Conta do portal {account.user.username} {state}.")
    return redirect("portal:staff-accounts", ibge_code=municipality.ibge_code)


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
    return stored_file_response(
        request,
        row=attachment,
        fieldfile=attachment.file,
        sha256=attachment.sha256,
        municipality=municipality,
        content_type=attachment.content_type,
        filename=name,
    )
