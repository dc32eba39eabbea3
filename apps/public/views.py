"""Public pages (no login): verification by plate, permit number or QR code, the complaint form and open data;
and the secretariat's complaint queue (staff, through the tenancy gate; outsiders get 404).

Everything a public page shows comes from a PublicVerification (a whitelist) — see verification.py.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from apps.audit.services import audit_personal_data_read
from apps.public import documents, exports, kept, lookups, opendata, pow, ratelimit, services
from apps.public.choices import OPEN_COMPLAINT_STATES, ComplaintState
from apps.public.forms import ComplaintForm, ComplaintMoveForm, DocumentCheckForm, LookupForm
from apps.public.models import Complaint
from apps.public.verification import InvalidQuery, municipality_by_ibge
from apps.signing.verification import normalize_code
from apps.tenancy.access import municipality_for
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can
from apps.web.exports import export_response, requested_format
from apps.web.lean import session_free
from apps.web.pagination import paginate
from apps.web.sorting import Sorting
from outorga.routers import reads_from_replica
from outorga.submit import attach_refusal

COMPLAINT = "public.complaint"


def _rate_limited(request: HttpRequest, error: lookups.RateLimited) -> HttpResponse:
    response = render(request, "public/rate_limited.html", {"message": error.message_pt}, status=429)
    response["Retry-After"] = str(error.retry_after)
    return response


COMPLAINTS_LIMITED = (
    "Muitas denúncias em pouco tempo a partir desta conexão. Aguarde {seconds} segundos e tente de novo; "
    "se for urgente, ligue para a prefeitura."
)


@session_free
@require_GET
@reads_from_replica
def search(request: HttpRequest) -> HttpResponse:
    """The phone-first page: type the plate (searched in every town) or the permit number (with its town)."""
    form = LookupForm(request.GET if "q" in request.GET else None)
    context: dict[str, object] = {"form": form, "towns": kept.TOWNS.get}  # called only if shown
    if form.is_bound and form.is_valid():
        try:
            outcome = lookups.by_text(request, form.cleaned_data["municipio"] or None, form.cleaned_data["q"])
            context["outcome"] = outcome
            context["complaint_town"] = _complaint_town(outcome, form.cleaned_data["municipio"])
            context["contacts"] = _contacts(outcome)
        except lookups.RateLimited as error:
            return _rate_limited(request, error)
        except InvalidQuery as error:
            form.add_error("q", error.message_pt)
            return render(request, "public/search.html", context, status=400)
        return _not_stored(render(request, "public/search.html", context))
    elif form.is_bound:
        return render(request, "public/search.html", context, status=400)
    return render(request, "public/search.html", context)


def _not_stored(response: HttpResponse) -> HttpResponse:
    """An answer naming the permit's holder: kept by no browser or proxy cache (issue 28, item 8)."""
    response["Cache-Control"] = "no-store"
    return response


def _contacts(outcome: lookups.Outcome) -> list[Municipality]:
    """Whom to call about the answer: the vehicle's town; with nothing found, the town asked about, or every
    town searched (a plate is looked up in all of them). Only towns that published a contact."""
    codes = {result.municipality_ibge for result in outcome.results}
    if not codes and outcome.query.municipality is not None:
        codes = {outcome.query.municipality.ibge_code}
    towns = kept.CONTACTS.get()
    return [town for town in towns if town.ibge_code in codes] if codes else list(towns)


def _complaint_town(outcome: lookups.Outcome, chosen: str) -> str:
    """The town a complaint about this lookup goes to: the vehicle's, else the one chosen on the form."""
    if outcome.results:
        return outcome.results[0].municipality_ibge
    return outcome.query.municipality.ibge_code if outcome.query.municipality else chosen


@session_free
@require_GET
@reads_from_replica
def verify_token(request: HttpRequest, qr_token: str) -> HttpResponse:
    """The page the QR code printed on every permit opens (licensing.urls_public reserves the route)."""
    try:
        outcome = lookups.by_token(request, qr_token)
    except lookups.RateLimited as error:
        return _rate_limited(request, error)
    except InvalidQuery as error:
        return render(request, "public/token_problem.html", {"message": error.message_pt}, status=400)
    if not outcome.results:
        message = "Código não encontrado: esta autorização não existe ou o código foi substituído."
        return render(
            request, "public/token_problem.html", {"message": message, "not_found": True}, status=404
        )
    context = {"outcome": outcome, "via_qr": True, "contacts": _contacts(outcome)}
    return _not_stored(render(request, "public/verify.html", context))


@require_http_methods(["GET", "POST"])
def complaint_new(request: HttpRequest) -> HttpResponse:
    """'Report a problem': recorded for the secretariat, which answers within its procedures. Each client may
    send a few per window (ratelimit), and each send carries a proof of work solved by the browser (pow)."""
    form = ComplaintForm(request.POST or None, initial=_complaint_initial(request))
    if request.method == "POST":
        decision = ratelimit.hit(request, scope="complaint")
        if not decision.allowed:
            message = COMPLAINTS_LIMITED.format(seconds=decision.retry_after)
            response = render(request, "public/rate_limited.html", {"message": message}, status=429)
            response["Retry-After"] = str(decision.retry_after)
            return response
        if form.is_valid() and _proof_accepted(request, form):
            complaint = _file_complaint(form)
            if complaint is not None:
                messages.success(
                    request, f"Denúncia registrada sob o protocolo {complaint.number}. Obrigado."
                )
                return redirect("public:complaint-sent")
        return _complaint_page(request, form, status=400)
    return _complaint_page(request, form)


def _proof_accepted(request: HttpRequest, form: ComplaintForm) -> bool:
    try:
        pow.verify(request.POST.get("pow_challenge", ""), request.POST.get("pow_nonce", ""))
    except pow.ProofRefused as refusal:
        form.add_error(None, refusal.message_pt)
        return False
    return True


def _complaint_page(request: HttpRequest, form: ComplaintForm, status: int = 200) -> HttpResponse:
    """Every rendering gets a fresh challenge: a refused or expired one is never offered again."""
    context = {"form": form, "challenge": pow.issue() if pow.enabled() else None}
    return render(request, "public/complaint_form.html", context, status=status)


def _complaint_initial(request: HttpRequest) -> dict[str, str]:
    keys = {"municipio": "municipio", "placa": "plate", "alvara": "permit_number"}
    return {field: request.GET[key] for key, field in keys.items() if request.GET.get(key)}


def _file_complaint(form: ComplaintForm) -> Complaint | None:
    data = form.cleaned_data
    try:
        return services.complaint_file(
            municipality=municipality_by_ibge(data["municipio"]),
            category=data["category"],
            occurred_on=data["occurred_on"],
            description=data["description"],
            as_of=lookups.today(),
            plate=data["plate"],
            permit_number=data["permit_number"],
            place=data["place"],
            contact=data["contact"],
        )
    except ValidationError as error:
        attach_refusal(form, error)
    except InvalidQuery as error:
        form.add_error("municipio", error.message_pt)
    return None


@require_GET
def complaint_sent(request: HttpRequest) -> HttpResponse:
    """The thank-you page after the redirect (the protocol number arrives as a one-time message)."""
    return render(request, "public/complaint_sent.html")


@require_GET
@reads_from_replica
def open_data(request: HttpRequest) -> HttpResponse:
    towns = [(m, opendata.published_on(m)) for m in Municipality.objects.order_by("name")]
    return render(request, "public/open_data.html", {"towns": towns, "fields": opendata.FIELDS})


@require_GET
def open_data_file(request: HttpRequest, ibge_code: str, fmt: str) -> HttpResponseBase:
    municipality = Municipality.objects.filter(ibge_code=ibge_code).first()
    if municipality is None or fmt not in opendata.FORMATS:
        raise Http404("Arquivo não encontrado.")
    return opendata.download_response(request, municipality, fmt)


COMPLAINT_SORTS = Sorting.columns(
    ("recebida", "Recebida em", ("received_on", "created_at", "pk")),
    ("protocolo", "Protocolo", ("year", "sequence", "pk")),
    ("problema", "Problema", ("category", "pk")),
    ("situacao", "Situação", ("state", "pk")),
)


@login_required
@require_GET
def complaint_queue(request: HttpRequest, ibge_code: str) -> HttpResponseBase:
    municipality = municipality_for(request, ibge_code, model_label=COMPLAINT)
    show_closed = request.GET.get("encerradas") == "1"
    rows = Complaint.objects.for_user(request.user, "view").filter(municipality=municipality).for_queue()
    rows = rows if show_closed else rows.filter(state__in=OPEN_COMPLAINT_STATES)
    sort = COMPLAINT_SORTS.read(request)
    rows = rows.order_by(*sort.order_by)
    if (fmt := requested_format(request)) is not None:
        return export_response(
            request, spec=exports.COMPLAINTS, rows=rows, municipality=municipality, fmt=fmt
        )
    page, query = paginate(request, rows)
    context = {
        "municipality": municipality,
        "page": page,
        "query": query,
        "show_closed": show_closed,
        "today": lookups.today(),
        "sort": sort.headers(request),
    }
    return render(request, "public/complaint_queue.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def complaint_detail(request: HttpRequest, ibge_code: str, pk: int) -> HttpResponse:
    municipality = municipality_for(request, ibge_code, model_label=COMPLAINT)
    complaint = get_object_for_user_or_404(
        Complaint.objects.for_queue(), request.user, "view", municipality=municipality, pk=pk
    )
    can_change = user_can(request.user, municipality.pk, COMPLAINT, "change")
    form = ComplaintMoveForm(request.POST or None)
    if request.method == "POST":
        if not can_change:
            raise Http404("Registro não encontrado.")
        if form.is_valid() and _move(request, complaint, form):
            messages.success(request, "Denúncia atualizada.")
            return redirect("public:complaint-detail", ibge_code=ibge_code, pk=pk)
    if complaint.contact:
        audit_personal_data_read(
            actor=request.user,
            municipality=municipality,
            obj=complaint,
            fields=["contact"],
            request_id=getattr(request, "request_id", ""),
        )
    context = {
        "municipality": municipality,
        "complaint": complaint,
        "form": form,
        "can_change": can_change and complaint.state != ComplaintState.CLOSED,
    }
    return render(request, "public/complaint_detail.html", context, status=400 if form.errors else 200)


def _move(request: HttpRequest, complaint: Complaint, form: ComplaintMoveForm) -> bool:
    try:
        services.complaint_move(
            complaint=complaint,
            state=form.cleaned_data["state"],
            resolution=form.cleaned_data["resolution"],
            actor=request.user,
            as_of=lookups.today(),
        )
    except ValidationError as error:
        attach_refusal(form, error)
        return False
    return True


# --- documents: is this PDF an authentic act? (apps.public.documents, apps.signing.verification) --------------


@require_http_methods(["GET", "POST"])
def document_check(request: HttpRequest) -> HttpResponse:
    """Anyone uploads an act's PDF or types its code and is told whether it is authentic and unchanged."""
    posted = request.method == "POST"
    form = DocumentCheckForm(request.POST if posted else None, request.FILES if posted else None)
    result = None
    status = 200
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data.get("arquivo")
        ibge = form.cleaned_data.get("municipio") or ""
        try:
            if upload is not None:
                result = documents.by_upload(request, upload, ibge)
            else:
                return redirect(_document_code_url(form.cleaned_data["codigo"], ibge))
        except documents.Limited as error:
            return _document_limited(request, error)
        except InvalidQuery as error:
            form.add_error(None, error.message_pt)
    if form.errors:
        status = 400
    return render(request, "public/document_check.html", {"form": form, "result": result}, status=status)


@require_GET
def document_code(request: HttpRequest, code: str) -> HttpResponse:
    """The address the QR code of every act opens: what was issued under this code and its state today."""
    try:
        result = documents.by_code(request, code, request.GET.get("municipio", ""))
    except documents.Limited as error:
        return _document_limited(request, error)
    except InvalidQuery as error:
        form = DocumentCheckForm()
        form.add_error(None, error.message_pt)
        return render(request, "public/document_check.html", {"form": form}, status=400)
    form = DocumentCheckForm(initial={"codigo": code})
    status = 404 if result.check.document is None else 200
    return render(request, "public/document_check.html", {"form": form, "result": result}, status=status)


def _document_code_url(code: str, ibge: str) -> str:
    url = reverse("public:document-code", args=[normalize_code(code) or "-"])
    return f"{url}?municipio={ibge}" if ibge else url


def _document_limited(request: HttpRequest, error: documents.Limited) -> HttpResponse:
    response = render(request, "public/rate_limited.html", {"message": error.message_pt}, status=429)
    response["Retry-After"] = str(error.retry_after)
    return response
