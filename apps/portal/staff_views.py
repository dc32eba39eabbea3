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
from apps.portal.choices import SubmissionState
from apps.portal.forms import PortalInvitationForm, SubmissionRejectForm
from apps.portal.models import DocumentSubmission, PortalAccount, PortalInvitation
from apps.tenancy.access import municipality_for
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from outorga.submit import submit

ACCOUNT = "portal.portalaccount"
SUBMISSION = "portal.documentsubmission"
DECIDED_SHOWN = 20


@login_required
@require_http_methods(["GET", "POST"])
def account_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """Portal logins of the municipality, pending invitations, and the form to invite someone by e-mail."""
    municipality = municipality_for(request, ibge_code, model_label=ACCOUNT)
    can_change = user_can(request.user, municipality.pk, ACCOUNT, "change")
    initial = {"operator": request.GET.get("autorizatario"), "role": request.GET.get("papel")}
    form = PortalInvitationForm(request.POST or None, municipality=municipality, initial=initial)
    if request.method == "POST":
        if not can_change:
            raise Http404("Registro não encontrado.")
        if submit(
            request,
            form,
            lambda: services.portal_invitation_create(
                actor=request.user,  # type: ignore[arg-type]
                base_url=request.build_absolute_uri("/"),
                **form.cleaned_data,
            ),
            success=lambda invitation: f"Convite do portal enviado para {invitation.email}.",
        ):
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
    municipality = municipality_for(request, ibge_code, model_label=ACCOUNT, action="change")
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


# --- renewed documents sent in the portal: the secretariat validates them before they count ------------------


@login_required
@require_GET
def submission_list(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """Copies waiting for validation (oldest first), then the last decided ones."""
    municipality = municipality_for(request, ibge_code, model_label=SUBMISSION)
    rows = (
        DocumentSubmission.objects.for_user(request.user, "view")
        .filter(municipality=municipality)
        .select_related(
            "renews__person", "renews__company", "renews__vehicle", "renews__operator", "uploaded_by"
        )
    )
    context = {
        "municipality": municipality,
        "pending": rows.pending().order_by("submitted_on", "pk"),
        "decided": rows.exclude(state=SubmissionState.PENDING).order_by("-decided_on", "-pk")[:DECIDED_SHOWN],
        "can_change": user_can(request.user, municipality.pk, SUBMISSION, "change"),
        "reject_form": SubmissionRejectForm(),
    }
    return render(request, "portal/staff_submissions.html", context)


@login_required
@require_POST
def submission_decide(request: HttpRequest, ibge_code: str, pk: int, verdict: str) -> HttpResponse:
    """Accept (the copy becomes the registry's document, the old one replaced) or reject with a reason."""
    municipality = municipality_for(request, ibge_code, model_label=SUBMISSION, action="change")
    submission = get_object_for_user_or_404(
        DocumentSubmission.objects.filter(municipality=municipality), request.user, "change", pk=pk
    )
    form = SubmissionRejectForm(request.POST)
    try:
        if verdict == "aceitar":
            document = services.document_submission_accept(
                actor=request.user,  # type: ignore[arg-type]
                submission=submission,
                as_of=timezone.localdate(),
            )
            until = f", válido até {document.valid_until:%d/%m/%Y}" if document.valid_until else ""
            messages.success(
                request, f"{document.get_kind_display()} aceito{until}; a cópia anterior foi substituída."
            )
        elif form.is_valid():
            services.document_submission_reject(
                actor=request.user,  # type: ignore[arg-type]
                submission=submission,
                reason=form.cleaned_data["reason"],
                as_of=timezone.localdate(),
            )
            messages.success(request, "Cópia recusada; o autorizatário vê o motivo no portal.")
        else:
            messages.error(request, "Motivo da recusa: informe o que o autorizatário deve corrigir.")
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    return redirect("portal:staff-submissions", ibge_code=municipality.ibge_code)


@login_required
@require_GET
def submission_file(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=SUBMISSION)
    submission = get_object_for_user_or_404(
        DocumentSubmission.objects.filter(municipality=municipality), request.user, "view", pk=pk
    )
    extension = submission.file.name.rsplit(".", 1)[-1]
    return stored_file_response(
        request,
        row=submission,
        fieldfile=submission.file,
        sha256=submission.sha256,
        municipality=municipality,
        content_type=submission.content_type,
        filename=f"documento-enviado-{pk}.{extension}",
    )
