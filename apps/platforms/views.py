"""Staff screens: art. 11-A substitution notices, platform tokens, and roster files with their progress."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from apps.platforms.choices import SubstitutionState
from apps.platforms.forms import CredentialIssueForm, RosterUploadForm
from apps.platforms.models import PlatformCredential, RosterImport, SubstitutionReport
from apps.platforms.services import (
    IssuedCredential,
    credential_issue,
    credential_revoke,
    platform_for_credential,
    substitution_handle,
)
from apps.platforms.services.roster import report_csv, roster_progress, roster_upload_accept
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.web.pagination import paginate
from outorga.routers import reads_from_replica
from outorga.submit import attach_refusal

MODEL = "platforms.substitutionreport"


@login_required
@require_GET
def substitution_queue(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=MODEL)
    show_all = request.GET.get("todas") == "1"
    rows = (
        SubstitutionReport.objects.for_user(request.user, "view")
        .filter(municipality=municipality)
        .select_related("platform", "permit", "permit__vehicle")
    )
    rows = rows if show_all else rows.filter(state=SubstitutionState.RECEIVED)
    page, query = paginate(request, rows)
    context = {
        "municipality": municipality,
        "page": page,
        "query": query,
        "show_all": show_all,
        "can_change": user_can(request.user, municipality.pk, MODEL, "change"),
    }
    return render(request, "platforms/substitution_queue.html", context)


@login_required
@require_POST
def substitution_decide(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=MODEL, action="change")
    report = get_object_for_user_or_404(
        SubstitutionReport.objects.all(), request.user, "change", municipality=municipality, pk=pk
    )
    accept = request.POST.get("decision") == "accept"
    try:
        substitution_handle(
            actor=request.user, report=report, accept=accept, note=request.POST.get("note", "")
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, "Comunicação conferida." if accept else "Comunicação recusada.")
    return redirect("platforms:substitution-queue", municipality.ibge_code)


CREDENTIAL = "platforms.platformcredential"


def _credential_page(
    request: HttpRequest,
    municipality: Municipality,
    form: CredentialIssueForm,
    issued: IssuedCredential | None,
) -> HttpResponse:
    rows = (
        PlatformCredential.objects.for_user(request.user, "view")
        .filter(municipality=municipality)
        .select_related("platform")
    )
    context = {
        "municipality": municipality,
        "credentials": rows,
        "form": form,
        "issued": issued,
        "can_change": user_can(request.user, municipality.pk, CREDENTIAL, "change"),
    }
    response = render(request, "platforms/credentials.html", context)
    response["Cache-Control"] = "no-store"  # the page may carry a token shown once
    return response


@login_required
@require_http_methods(["GET", "POST"])
def credentials(request: HttpRequest, ibge_code: str) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=CREDENTIAL)
    form = CredentialIssueForm(request.POST or None)
    if request.method == "GET":
        return _credential_page(request, municipality, form, None)
    if not user_can(request.user, municipality.pk, CREDENTIAL, "change"):
        raise Http404("Registro não encontrado.")
    if not form.is_valid():
        return _credential_page(request, municipality, form, None)
    data = form.cleaned_data
    try:
        platform = platform_for_credential(actor=request.user, name=data["platform_name"], cnpj=data["cnpj"])
    except ValidationError as refusal:
        attach_refusal(form, refusal)
        return _credential_page(request, municipality, form, None)
    issued = credential_issue(
        actor=request.user,
        platform=platform,
        municipality=municipality,
        label=data["label"],
        webhook_url=data["webhook_url"],
    )
    return _credential_page(request, municipality, CredentialIssueForm(), issued)


@login_required
@require_POST
def credential_revoke_view(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=CREDENTIAL, action="change")
    credential = get_object_for_user_or_404(
        PlatformCredential.objects.all(), request.user, "change", municipality=municipality, pk=pk
    )
    try:
        credential_revoke(actor=request.user, credential=credential)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request, f"Token {credential.token_prefix}… revogado: chamadas com ele passam a ser recusadas."
        )
    return redirect("platforms:credentials", municipality.ibge_code)


ROSTER = "platforms.rosterimport"


@login_required
@require_http_methods(["GET", "POST"])
def roster_imports(request: HttpRequest, ibge_code: str) -> HttpResponse:
    """The roster files sent in this town, and the form to send one (queued: the answer never waits)."""
    municipality = municipality_for(request, ibge_code, model_label=ROSTER)
    can_change = user_can(request.user, municipality.pk, ROSTER, "change")
    form = RosterUploadForm(request.POST or None, request.FILES or None, municipality=municipality)
    if request.method == "POST":
        if not can_change:
            raise Http404("Registro não encontrado.")
        if form.is_valid():
            upload = form.cleaned_data["file"]
            record = roster_upload_accept(
                actor=request.user,
                platform=form.cleaned_data["platform"],
                municipality=municipality,
                file_name=upload.name or "cadastro.csv",
                content=upload.read(),
            )
            return redirect("platforms:roster-import", municipality.ibge_code, record.pk)
    rows = (
        RosterImport.objects.for_user(request.user, "view")
        .filter(municipality=municipality)
        .select_related("platform")
    )
    page, query = paginate(request, rows)
    context = {
        "municipality": municipality,
        "form": form,
        "can_change": can_change,
        "page": page,
        "query": query,
    }
    return render(request, "platforms/roster_imports.html", context)


@login_required
@require_GET
def roster_import_progress(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    """Progress of one file; htmx asks for the panel alone every few seconds until the import finishes."""
    municipality = municipality_for(request, ibge_code, model_label=ROSTER)
    record = get_object_for_user_or_404(
        RosterImport.objects.select_related("platform"),
        request.user,
        "view",
        municipality=municipality,
        pk=pk,
    )
    context = {"municipality": municipality, "record": record, "progress": roster_progress(record)}
    template = "platforms/_roster_progress.html" if request.htmx else "platforms/roster_import.html"  # type: ignore[attr-defined]
    return render(request, template, context)


@login_required
@require_GET
@reads_from_replica
def roster_import_report(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=ROSTER)
    record = get_object_for_user_or_404(
        RosterImport.objects.all(), request.user, "view", municipality=municipality, pk=pk
    )
    response = HttpResponse(report_csv(record), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="cadastro-{record.pk}-recusas.csv"'
    return response
