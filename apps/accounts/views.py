"""Sign-in screens: password, second factor (verification and enrolment), re-authentication, the account's
security page, password change and reset by e-mail."""

from __future__ import annotations

from base64 import b32encode
from typing import Any
from urllib.parse import urlencode

import segno
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST
from django_otp import login as otp_login
from django_otp import verify_token
from django_otp.models import Device
from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.accounts import selectors, services
from apps.accounts.decorators import recent_authentication_required
from apps.accounts.forms import (
    EnrolForm,
    LoginForm,
    OwnPasswordChangeForm,
    ReauthenticationForm,
    ResetRequestForm,
    ResetSetPasswordForm,
    SecondFactorForm,
)
from apps.accounts.models import RecoveryCodeDevice, User
from apps.accounts.receivers import client_ip
from apps.accounts.session import mark_authentication_confirmed, second_factor_step

LOGGED_OUT_MESSAGE = "Você saiu do Outorga. Até logo!"
WRONG_CODE_MESSAGE = (
    "Código incorreto ou vencido. Confira o aplicativo (o código muda a cada 30 segundos) e tente de novo."
)
THROTTLED_MESSAGE = "Muitos códigos errados seguidos. Aguarde alguns segundos antes de tentar de novo."


def _safe_next(request: HttpRequest, default: str = "") -> str:
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return default or reverse(settings.LOGIN_REDIRECT_URL)


def _with_next(url: str, next_url: str) -> str:
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def get_success_url(self) -> str:
        """Straight on to the second factor when one is owed (the middleware would send the user there anyway)."""
        destination = super().get_success_url()
        step = second_factor_step(self.request.user)
        if step is None:
            mark_authentication_confirmed(self.request)
            return destination
        page = "second_factor_verify" if step == "verify" else "second_factor_enrol"
        return _with_next(reverse(page), destination)


class LogoutView(auth_views.LogoutView):
    """POST only (Django 5): a link cannot log someone out behind their back."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        # After logout() flushed the session, so the message survives into the login page.
        messages.info(request, LOGGED_OUT_MESSAGE)
        return response


def _verify_code(request: HttpRequest, user: User, code: str, purpose: str) -> Device | None:
    """Try the code on the user's devices and audit the outcome. Digits go to the authenticators, anything else to
    the recovery codes: a recovery code tried on an authenticator would count as a wrong code and throttle it."""
    device = _matching_device(user, code)
    if device is None:
        services.second_factor_failure_record(user=user, client_ip=client_ip(request))
        return None
    services.second_factor_success_record(
        user=user, device=device, client_ip=client_ip(request), purpose=purpose
    )
    return device


def _matching_device(user: User, code: str) -> Device | None:
    kind: type[Device] = TOTPDevice if code.isdigit() else RecoveryCodeDevice
    for candidate in kind.objects.filter(user=user, confirmed=True):
        device = verify_token(user, candidate.persistent_id, code)
        if device is not None:
            return device
    return None


def _throttled(request: HttpRequest, user: User, purpose: str) -> bool:
    """Whether the user's authenticator is in its wait after wrong codes; an attempt refused so is audited
    (`auth.second_factor_locked_out`), like every wrong code (`auth.second_factor_failed`)."""
    locked = [
        device
        for device in TOTPDevice.objects.filter(user=user, confirmed=True)
        if not device.verify_is_allowed()[0]
    ]
    if locked:
        services.second_factor_lockout_record(user=user, client_ip=client_ip(request), purpose=purpose)
    return bool(locked)


@login_required
@require_http_methods(["GET", "POST"])
def second_factor_verify(request: HttpRequest) -> HttpResponse:
    """The step after the password for anyone with an authenticator."""
    next_url = _safe_next(request)
    if second_factor_step(request.user) != "verify":
        return redirect(next_url)
    form = SecondFactorForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user: User = request.user  # type: ignore[assignment]
        if _throttled(request, user, "login"):
            form.add_error("code", THROTTLED_MESSAGE)
        elif (device := _verify_code(request, user, form.cleaned_data["code"], "login")) is None:
            form.add_error("code", WRONG_CODE_MESSAGE)
        else:
            otp_login(request, device)
            mark_authentication_confirmed(request)
            _warn_about_recovery_codes(request, user, device)
            return redirect(next_url)
    return render(request, "accounts/second_factor_verify.html", {"form": form, "next": next_url})


def _warn_about_recovery_codes(request: HttpRequest, user: User, device: Device) -> None:
    if isinstance(device, TOTPDevice):
        return
    left = selectors.recovery_codes_left(user)
    messages.warning(
        request,
        f"Você entrou com um código de recuperação; restam {left}. Se perdeu o aplicativo autenticador, "
        "cadastre outro em “Minha conta” e gere códigos novos.",
    )


def _enrolment_context(device: TOTPDevice) -> dict[str, Any]:
    qr = segno.make(device.config_url, error="m")
    key = b32encode(device.bin_key).decode().rstrip("=")
    return {
        "qr_svg": qr.svg_inline(scale=5, title="QR code para cadastrar o Outorga no aplicativo autenticador"),
        "manual_key": " ".join(key[i : i + 4] for i in range(0, len(key), 4)),
        "account_label": device.user.get_username(),
        "issuer": settings.OTP_TOTP_ISSUER,
    }


@login_required
@require_http_methods(["GET", "POST"])
def second_factor_enrol(request: HttpRequest) -> HttpResponse:
    """Add an authenticator app: scan the QR code (or type the key), confirm with a first code, get recovery
    codes. A user who already has one must be verified and have re-authenticated recently to add another."""
    user: User = request.user  # type: ignore[assignment]
    next_url = _safe_next(request, default=reverse("account_security"))
    if second_factor_step(user) == "verify":
        return redirect(_with_next(reverse("second_factor_verify"), request.get_full_path()))
    if selectors.has_authenticator(user):
        return _enrol_another(request)
    return _enrol(request, user, next_url)


@recent_authentication_required
def _enrol_another(request: HttpRequest) -> HttpResponse:
    return _enrol(request, request.user, _safe_next(request, default=reverse("account_security")))  # type: ignore[arg-type]


def _enrol(request: HttpRequest, user: User, next_url: str) -> HttpResponse:
    device = services.totp_device_pending(user=user)
    form = EnrolForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not device.verify_is_allowed()[0]:
            form.add_error("code", THROTTLED_MESSAGE)
            return render(
                request, "accounts/second_factor_enrol.html", _enrol_page(form, next_url, user, device)
            )
        codes = services.totp_device_confirm(actor=user, device=device, token=form.cleaned_data["code"])
        if codes is None:
            form.add_error("code", WRONG_CODE_MESSAGE)
        else:
            device.refresh_from_db()
            otp_login(request, device)
            mark_authentication_confirmed(request)
            context = {"codes": _grouped(codes), "next": next_url, "just_enrolled": True}
            return render(request, "accounts/recovery_codes.html", context)
    return render(request, "accounts/second_factor_enrol.html", _enrol_page(form, next_url, user, device))


def _enrol_page(form: EnrolForm, next_url: str, user: User, device: TOTPDevice) -> dict[str, Any]:
    context = {"form": form, "next": next_url, "mandatory": selectors.second_factor_mandatory(user)}
    return context | _enrolment_context(device)


def _grouped(codes: list[str]) -> list[str]:
    return ["-".join(code[i : i + 4] for i in range(0, len(code), 4)) for code in codes]


@login_required
@require_http_methods(["GET", "POST"])
def reauthenticate(request: HttpRequest) -> HttpResponse:
    """Password and second factor again before a sensitive action, then back to it."""
    user: User = request.user  # type: ignore[assignment]
    next_url = _safe_next(request)
    with_code = selectors.has_authenticator(user)
    form = ReauthenticationForm(request.POST or None, request=request, with_code=with_code)
    if request.method == "POST" and form.is_valid():
        if with_code and _throttled(request, user, "reauthentication"):
            form.add_error("code", THROTTLED_MESSAGE)
        elif (
            with_code
            and (device := _verify_code(request, user, form.cleaned_data["code"], "reauthentication")) is None
        ):
            form.add_error("code", WRONG_CODE_MESSAGE)
        else:
            if with_code:
                otp_login(request, device)
            mark_authentication_confirmed(request)
            services.reauthentication_record(user=user, client_ip=client_ip(request), next_path=next_url)
            messages.success(request, "Identidade confirmada. Pode continuar.")
            return redirect(next_url)
    minutes = settings.REAUTHENTICATION_MINUTES
    return render(
        request, "accounts/reauthenticate.html", {"form": form, "next": next_url, "minutes": minutes}
    )


# --- the account's own security page ----------------------------------------------------------------------


@login_required
def account_security(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    context = {
        "authenticators": selectors.authenticators(user),
        "recovery_codes_left": selectors.recovery_codes_left(user),
        "mandatory": selectors.second_factor_mandatory(user),
    }
    return render(request, "accounts/security.html", context)


@login_required
@recent_authentication_required
@require_POST
def authenticator_remove(request: HttpRequest, pk: int) -> HttpResponse:
    device = get_object_or_404(TOTPDevice, pk=pk, user=request.user, confirmed=True)
    try:
        services.totp_device_remove(actor=request.user, device=device)  # type: ignore[arg-type]
    except ValidationError as exc:
        for text in exc.messages:
            messages.error(request, text)
    else:
        messages.success(request, "Aplicativo autenticador removido.")
    return redirect("account_security")


@login_required
@recent_authentication_required
@require_POST
def recovery_codes_regenerate(request: HttpRequest) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    if not selectors.has_authenticator(user):
        raise Http404("Cadastre um aplicativo autenticador antes.")
    codes = services.recovery_codes_generate(actor=user, user=user)
    context = {"codes": _grouped(codes), "next": reverse("account_security")}
    return render(request, "accounts/recovery_codes.html", context)


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    form_class = OwnPasswordChangeForm
    success_url = reverse_lazy("account_security")

    def form_valid(self, form: OwnPasswordChangeForm) -> HttpResponse:
        response = super().form_valid(form)  # keeps this session signed in; every other one is signed out
        messages.success(
            self.request, "Senha alterada. As outras sessões abertas com a senha antiga foram encerradas."
        )
        return response


# --- password reset by e-mail (anonymous) -----------------------------------------------------------------


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset_form.html"
    form_class = ResetRequestForm
    success_url = reverse_lazy("password_reset_done")

    def get_extra_email_context(self) -> dict[str, Any]:
        return {"valid_minutes": settings.PASSWORD_RESET_TIMEOUT // 60}

    def form_valid(self, form: ResetRequestForm) -> HttpResponse:
        self.extra_email_context = self.get_extra_email_context()
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    form_class = ResetSetPasswordForm
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form: ResetSetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        # Whoever proved they own the e-mail gets their account back now rather than after the lockout.
        AxesProxyHandler.reset_attempts(username=form.user.get_username())
        return response


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"
