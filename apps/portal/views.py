"""Portal screens. Every view receives the user's PortalScope from `portal_view`; rows are fetched only through
it, so another operator's record answers 404. Writes call apps.portal.services (which call the back office's)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.password_validation import password_validators_help_texts
from django.core.exceptions import SuspiciousOperation, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods
from mozilla_django_oidc.views import OIDCAuthenticationCallbackView, OIDCAuthenticationRequestView

from apps.accounts.forms import LoginForm
from apps.accounts.session import mark_authentication_confirmed, second_factor_step
from apps.dueprocess.models import Sanction
from apps.dueprocess.procedure import instance_label
from apps.dueprocess.selectors import sanction_suspension
from apps.enforcement.choices import CaseState
from apps.enforcement.services.notices import notice_electronic_open
from apps.finance.choices import GuideStatus, OriginType
from apps.finance.models import Payment
from apps.finance.pdf import guide_pdf, pix_qr_svg
from apps.finance.selectors import FineCharge, fine_charge, waiting_guide
from apps.licensing.choices import OPEN_STATES
from apps.licensing.pdf import permit_pdf as render_permit_pdf
from apps.licensing.presenters import application_documents
from apps.licensing.urls_public import verify_path
from apps.notifications.selectors import is_addressed_to, portal_notifications
from apps.notifications.services import notifications_mark_read
from apps.ops.storage import stored_file_response
from apps.portal import govbr, services
from apps.portal.forms import (
    AppealForm,
    ApplicationStartForm,
    DocumentRenewForm,
    PortalClaimForm,
    TrafficInfractionDeclareForm,
)
from apps.portal.presenters import (
    appeal_window,
    application_deadlines,
    case_next_steps,
    no_appeal_reason,
    permit_lines,
)
from apps.portal.receipts import payment_receipt_pdf
from apps.portal.selectors import (
    PortalScope,
    document_lines,
    driving_record_lines,
    get_in_scope,
    next_expiring,
    portal_account_of,
    portal_invitation_for_token,
)
from apps.public import ratelimit
from apps.tenancy.forms import SetPasswordFromInvitationForm
from outorga.submit import attach_refusal, submit

PortalView = Callable[..., HttpResponseBase]
NOTIFICATIONS_SHOWN = 100


def portal_view(*, holder_only: bool = False) -> Callable[[PortalView], PortalView]:
    """Signed-in portal users only; staff get a page pointing them to the back office (403). Screens that only the
    holder may use answer 404 to a driver or attendant, like any record outside their scope."""

    def decorate(view: PortalView) -> PortalView:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return redirect(f"{reverse('portal:login')}?next={request.path}")
            account = portal_account_of(request.user)
            if account is None:
                return render(request, "portal/not_portal.html", status=403)
            if holder_only and not account.is_holder:
                raise Http404("Registro não encontrado.")
            return view(request, PortalScope(account), *args, **kwargs)

        return wrapper

    return decorate


def _render(request: HttpRequest, scope: PortalScope, template: str, **context: Any) -> HttpResponse:
    context |= {"scope": scope, "account": scope.account, "operator": scope.operator}
    return render(request, f"portal/{template}", context)


class PortalLoginView(auth_views.LoginView):
    template_name = "portal/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return reverse("portal:home")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return super().get_context_data(**kwargs) | {"govbr_enabled": settings.GOVBR_ENABLED}


# --- gov.br (OpenID Connect) ------------------------------------------------------------------------------


class GovBrLoginView(OIDCAuthenticationRequestView):  # type: ignore[misc]  # the package has no type hints
    """«Entrar com gov.br»: off to gov.br with a fresh state, nonce and PKCE challenge kept in the session."""

    def get(self, request: HttpRequest) -> HttpResponse:
        if not settings.GOVBR_ENABLED:
            raise Http404("Entrada pelo gov.br não está disponível nesta prefeitura.")
        response: HttpResponse = super().get(request)
        return response


class GovBrCallbackView(OIDCAuthenticationCallbackView):  # type: ignore[misc]  # no type hints either
    """gov.br sends the browser back here with a code; the backend exchanges it (apps.portal.govbr). A refusal is
    explained on the portal's login page; a user with an authenticator still types its code."""

    def get(self, request: HttpRequest) -> HttpResponse:
        if not settings.GOVBR_ENABLED:
            raise Http404("Entrada pelo gov.br não está disponível nesta prefeitura.")
        if request.GET.get("error"):
            setattr(request, govbr.REFUSAL_ATTRIBUTE, "cancelled")
        try:
            response: HttpResponse = super().get(request)
        except SuspiciousOperation:  # a state this session never issued (forged, replayed or another browser)
            setattr(request, govbr.REFUSAL_ATTRIBUTE, "state")
            return self.login_failure()
        return response

    def login_failure(self) -> HttpResponse:
        reason = getattr(self.request, govbr.REFUSAL_ATTRIBUTE, None) or "state"
        messages.error(self.request, govbr.REFUSALS[reason])
        return redirect("portal:login")

    def login_success(self) -> HttpResponse:
        super().login_success()
        destination = reverse("portal:home")
        step = second_factor_step(self.user)
        if step is None:
            mark_authentication_confirmed(self.request)
            return redirect(destination)
        page = "second_factor_verify" if step == "verify" else "second_factor_enrol"
        return redirect(f"{reverse(page)}?{urlencode({'next': destination})}")


# --- overview, vehicles, permits, documents ---------------------------------------------------------------


@require_GET
@portal_view()
def home(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    today = timezone.localdate()
    running = scope.cases().exclude(state__in=(CaseState.CLOSED, CaseState.CANCELLED))
    open_cases = [(case, appeal_window(case, today)) for case in running]
    permits = permit_lines(scope.permits_in_force(), today, driver=scope.account.driver)
    return _render(
        request,
        scope,
        "home.html",
        today=today,
        permits=permits,
        drivers=scope.drivers(),
        attendants=scope.attendants(),
        next_document=next_expiring(scope.documents(), today),
        applications=scope.applications().filter(state__in=OPEN_STATES),
        guides=scope.guides().filter(status=GuideStatus.OPEN),
        open_cases=open_cases,
    )


@require_GET
@portal_view()
def vehicles(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    permits = permit_lines(scope.permits(), timezone.localdate(), driver=scope.account.driver)
    return _render(request, scope, "vehicles.html", vehicles=scope.vehicles(), permits=permits)


@require_GET
@portal_view()
def permit_pdf(request: HttpRequest, scope: PortalScope, pk: int) -> HttpResponse:
    permit = get_in_scope(scope.permits(), pk=pk)
    content = render_permit_pdf(permit, request.build_absolute_uri(verify_path(permit.qr_token)))
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="alvara-{permit.number.replace("/", "-")}.pdf"'
    return response


@require_GET
@portal_view()
def documents(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    today = timezone.localdate()
    docs = scope.documents()
    return _render(
        request,
        scope,
        "documents.html",
        today=today,
        lines=document_lines(docs, today),
        next_document=next_expiring(docs, today),
    )


@require_http_methods(["GET", "POST"])
@portal_view()
def document_renew(request: HttpRequest, scope: PortalScope, pk: int) -> HttpResponse:
    document = get_in_scope(scope.documents(), pk=pk)
    form = DocumentRenewForm(request.POST or None, request.FILES or None)
    if submit(
        request,
        form,
        lambda: services.portal_document_renew(
            account=scope.account,
            document=document,
            upload=form.cleaned_data["file"],
            issue_date=form.cleaned_data["issue_date"],
            expiry_date=form.cleaned_data["expiry_date"],
            as_of=timezone.localdate(),
        ),
        success=(
            f"Documento enviado: {document.get_kind_display()}, aguardando a validação da secretaria. "
            "A cópia atual vale até a nova ser aceita."
        ),
    ):
        return redirect("portal:documents")
    return _render(request, scope, "document_renew.html", document=document, form=form)


@require_http_methods(["GET", "POST"])
@portal_view()
def driving_records(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    """The drivers' traffic records: what was declared, whether the prefeitura confirmed it; declare one more."""
    drivers = scope.drivers()
    form = TrafficInfractionDeclareForm(request.POST or None, drivers=drivers)
    if submit(
        request,
        form,
        lambda: services.portal_traffic_infraction_declare(
            account=scope.account,
            driver=form.cleaned_data["driver"],
            date=form.cleaned_data["date"],
            severity=form.cleaned_data["severity"],
            description=form.cleaned_data["description"],
            as_of=timezone.localdate(),
        ),
        success="Infração declarada. A prefeitura a confere com a certidão do DETRAN.",
    ):
        return redirect("portal:driving-records")
    return _render(request, scope, "driving_records.html", drivers=driving_record_lines(drivers), form=form)


# --- applications -----------------------------------------------------------------------------------------


@require_GET
@portal_view(holder_only=True)
def applications(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    return _render(request, scope, "applications.html", applications=scope.applications())


@require_http_methods(["GET", "POST"])
@portal_view(holder_only=True)
def application_new(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    form = ApplicationStartForm(request.POST or None, scope=scope, initial={"kind": request.GET.get("tipo")})
    if done := submit(
        request,
        form,
        lambda: services.portal_application_start(
            account=scope.account,
            kind=form.cleaned_data["kind"],
            as_of=timezone.localdate(),
            **form.targets(),
        ),
        success=lambda application: (
            f"Requerimento {application.number} protocolado. Acompanhe aqui os prazos."
        ),
    ):
        return redirect("portal:application", pk=done.result.pk)
    return _render(request, scope, "application_new.html", form=form)


@require_GET
@portal_view(holder_only=True)
def application_detail(request: HttpRequest, scope: PortalScope, pk: int) -> HttpResponse:
    application = get_in_scope(scope.applications(), pk=pk)
    today = timezone.localdate()
    return _render(
        request,
        scope,
        "application_detail.html",
        application=application,
        documents=application_documents(application),
        events=application.events.order_by("on", "pk"),
        deadlines=application_deadlines(application, today),
        fee_waiting=waiting_guide(origin_type=OriginType.APPLICATION, origin_id=application.pk),
    )


# --- payments ---------------------------------------------------------------------------------------------


@require_GET
@portal_view(holder_only=True)
def guides(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    return _render(
        request,
        scope,
        "guides.html",
        guides=scope.guides(),
        waiting=scope.waiting_guides(),
        today=timezone.localdate(),
    )


@require_GET
@portal_view(holder_only=True)
def guide_detail(request: HttpRequest, scope: PortalScope, pk: int) -> HttpResponse:
    guide = get_in_scope(scope.guides(), pk=pk)
    payment = Payment.objects.filter(guide=guide).first()
    qr_svg = pix_qr_svg(guide.pix_payload) if guide.status == GuideStatus.OPEN else ""
    return _render(
        request,
        scope,
        "guide_detail.html",
        guide=guide,
        payment=payment,
        qr_svg=qr_svg,
        today=timezone.localdate(),
    )


@require_GET
@portal_view(holder_only=True)
def guide_pdf_download(request: HttpRequest, scope: PortalScope, pk: int) -> HttpResponse:
    guide = get_in_scope(scope.guides(), pk=pk)
    response = HttpResponse(guide_pdf(guide), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="guia-{guide.number.replace("/", "-")}.pdf"'
    return response


@require_GET
@portal_view(holder_only=True)
def guide_receipt(request: HttpRequest, scope: PortalScope, pk: int) -> HttpResponse:
    guide = get_in_scope(scope.guides(), pk=pk)
    payment = Payment.objects.filter(guide=guide).first()
    if payment is None:
        raise Http404("Esta guia ainda não tem pagamento registrado.")
    response = HttpResponse(payment_receipt_pdf(guide, payment), content_type="application/pdf")
    response["Content-Disposition"] = (
        f'attachment; filename="comprovante-{guide.number.replace("/", "-")}.pdf"'
    )
    return response


# --- autos, notices and appeals ---------------------------------------------------------------------------


@require_GET
@portal_view(holder_only=True)
def cases(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    return _render(request, scope, "cases.html", cases=scope.cases())


def _fine(sanction: Sanction | None) -> FineCharge | None:
    """The fine's valuation and waiting guide, read where every screen reads them (finance's selector)."""
    return fine_charge(origin_id=sanction.pk) if sanction is not None and sanction.has_fine else None


@require_http_methods(["GET", "POST"])
@portal_view(holder_only=True)
def case_detail(request: HttpRequest, scope: PortalScope, pk: int) -> HttpResponse:
    case = get_in_scope(scope.cases(), pk=pk)
    today = timezone.localdate()
    window = appeal_window(case, today)
    form = AppealForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and window is None:
        messages.error(request, no_appeal_reason(case))
        return redirect("portal:case", pk=case.pk)
    if request.method == "POST" and window is not None and form.is_valid():
        try:
            appeal = services.portal_appeal_file(
                account=scope.account,
                case=case,
                instance=window.instance,
                text=form.cleaned_data["text"],
                attachments=form.cleaned_data["attachments"],
                as_of=today,
            )
        except ValidationError as exc:
            attach_refusal(form, exc)
        else:
            messages.success(request, _filed_message(appeal))
            return redirect("portal:case", pk=case.pk)
    appeals = scope.appeals().filter(case=case).select_related("judgment").prefetch_related("attachments")
    sanction = getattr(case, "sanction", None)
    return _render(
        request,
        scope,
        "case_detail.html",
        case=case,
        sanction=sanction,
        fine=_fine(sanction),
        suspension=sanction_suspension(sanction) if sanction is not None else None,
        next_steps=case_next_steps(case, window, today),
        today=today,
        window=window,
        no_appeal=no_appeal_reason(case) if window is None else "",
        form=form,
        appeals=appeals,
        notices=case.notices.order_by("sent_on", "pk"),
    )


def _filed_message(appeal: Any) -> str:
    label = instance_label(appeal.case.regime_id, appeal.instance)
    if appeal.late:
        return (
            f"{label} protocolado em {appeal.filed_on:%d/%m/%Y}, fora do prazo (até {appeal.deadline:%d/%m/%Y}): "
            "a autoridade decidirá se o conhece."
        )
    return f"{label} protocolado em {appeal.filed_on:%d/%m/%Y}."


@require_GET
@portal_view(holder_only=True)
def notice_pdf(request: HttpRequest, scope: PortalScope, pk: int) -> HttpResponseBase:
    notice = get_in_scope(scope.notices(), pk=pk)
    if not notice.pdf:
        raise Http404("Esta notificação não tem PDF.")
    # Opening an electronic notice is its receipt: the proof of ciência (apps.enforcement.services.notices).
    notice_electronic_open(
        notice=notice, actor=request.user, opened_at=timezone.now(), ip=ratelimit.client_address(request)
    )
    return stored_file_response(
        request,
        row=notice,
        fieldfile=notice.pdf,
        sha256=notice.pdf_sha256,
        municipality=notice.case.municipality,
        content_type="application/pdf",
        filename=f"notificacao-{notice.pk}.pdf",
    )


@require_http_methods(["GET", "POST"])
@portal_view(holder_only=True)
def electronic_notice(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    """The holder's opt-in to the electronic notice: the regime's terms, accept or revoke (audited)."""
    if request.method == "POST":
        action = request.POST.get("acao")
        ip = ratelimit.client_address(request)
        try:
            if action == "aderir":
                if request.POST.get("aceito") != "sim":
                    raise ValidationError("Para aderir, marque que leu e aceita os termos.")
                services.portal_electronic_notice_accept(
                    account=scope.account, accepted_at=timezone.now(), ip=ip
                )
                messages.success(
                    request, "Adesão registrada: as próximas notificações chegarão por este portal."
                )
            elif action == "revogar":
                services.portal_electronic_notice_revoke(
                    account=scope.account, revoked_at=timezone.now(), ip=ip
                )
                messages.success(
                    request, "Adesão revogada: as próximas notificações irão pelos outros meios."
                )
            else:
                raise ValidationError("Escolha aderir ou revogar.")
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        return redirect("portal:electronic-notice")
    return _render(
        request,
        scope,
        "electronic_notice.html",
        terms=services.electronic_terms(scope.operator),
        consent=services.standing_electronic_consent(scope.operator),
        history=services.electronic_consents(scope.operator),
    )


# --- first access: claim by CPF and the invitation link (no login: the link is the credential) -------------


# Links one CPF may receive per hour, whoever asks: a stranger cannot flood someone's mailbox. Over it the page
# still gives the usual answer (a different one would tell that the CPF is registered).
CLAIM_MAILS_PER_CPF = ratelimit.Limit(requests=3, window_seconds=3600)
CLAIMS_LIMITED = (
    "Muitos pedidos em pouco tempo a partir desta conexão. Aguarde {seconds} segundos e tente de novo."
)


@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest) -> HttpResponse:
    """Someone registered as operator, driver or attendant asks for a login; the answer never says whether the
    CPF is registered (the same message, whatever happened). Each client may ask a few times per window."""
    form = PortalClaimForm(request.POST or None)
    if request.method == "POST":
        decision = ratelimit.count(
            "portal_claim", ratelimit.client_address(request), ratelimit.complaint_limit()
        )
        if not decision.allowed:
            message = CLAIMS_LIMITED.format(seconds=decision.retry_after)
            response = render(request, "portal/claim_limited.html", {"message": message}, status=429)
            response["Retry-After"] = str(decision.retry_after)
            return response
    if request.method == "POST" and form.is_valid():
        cpf = form.cleaned_data["cpf"]
        if ratelimit.count("portal_claim_cpf", cpf, CLAIM_MAILS_PER_CPF).allowed:
            services.portal_claim_request(
                municipality=form.cleaned_data["municipality"],
                cpf=cpf,
                email=form.cleaned_data["email"],
                base_url=request.build_absolute_uri("/"),
            )
        messages.info(request, services.CLAIM_ANSWER)
        return redirect("portal:login")
    return render(request, "portal/claim.html", {"form": form})


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    invitation = portal_invitation_for_token(token)
    if invitation is None or not invitation.is_usable(timezone.now()):
        unusable = {"message": services.PORTAL_INVITATION_UNUSABLE}
        return render(request, "portal/invitation_unusable.html", unusable, status=404)
    form = SetPasswordFromInvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username, password = form.cleaned_data["username"].strip(), form.cleaned_data["password"]
        try:
            services.portal_invitation_accept(token=token, username=username, password=password)
        except ValidationError as exc:
            attach_refusal(form, exc)
        else:
            user = authenticate(request, username=username, password=password)
            if user is None:
                messages.success(request, "Conta criada. Entre com o usuário e a senha que você escolheu.")
                return redirect("portal:login")
            login(request, user)
            messages.success(request, "Sua conta do portal está pronta.")
            return redirect("portal:home")
    context = {"invitation": invitation, "form": form, "password_rules": password_validators_help_texts()}
    return render(request, "portal/invitation_accept.html", context)


# --- notifications (avisos) -------------------------------------------------------------------------------


@require_GET
@portal_view()
def notifications(request: HttpRequest, scope: PortalScope) -> HttpResponse:
    """Newest first; the ones addressed to this login and still unread are highlighted, then marked read."""
    rows = list(portal_notifications(scope.account)[:NOTIFICATIONS_SHOWN])
    unread = [row for row in rows if row.read_at is None and is_addressed_to(scope.account, row)]
    notifications_mark_read(actor=request.user, notifications=unread)
    return _render(request, scope, "notifications.html", rows=rows, unread={row.pk for row in unread})


@require_GET
@portal_view()
def notification_open(request: HttpRequest, scope: PortalScope, pk: int) -> HttpResponse:
    """«Ver e agir»: the notification becomes read and the person lands on the page where they act."""
    row = get_in_scope(portal_notifications(scope.account), pk=pk)
    if is_addressed_to(scope.account, row):
        notifications_mark_read(actor=request.user, notifications=[row])
    return redirect(row.link)
