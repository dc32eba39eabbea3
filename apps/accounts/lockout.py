"""The page django-axes shows when an account or a client is locked out (settings.AXES_LOCKOUT_CALLABLE)."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from apps.accounts.forms import LoginForm

LOCKOUT_STATUS = 429


def lockout_message(request: HttpRequest) -> str:
    """When to try again. Every refused attempt restarts the wait (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT),
    so the lock lifts one cool-off after this very attempt."""
    cool_off = get_cool_off(request)
    if cool_off is None:
        return (
            "Acesso bloqueado por excesso de tentativas sem sucesso. "
            "Procure o administrador do sistema na prefeitura para desbloquear."
        )
    until = timezone.localtime() + cool_off
    minutes = max(1, round(cool_off.total_seconds() / 60))
    when = date_format(until, "H:i")
    if until.date() != timezone.localdate():
        when = date_format(until, "d/m/Y \\à\\s H:i")
    return (
        f"Acesso bloqueado por excesso de tentativas sem sucesso. Tente novamente a partir das {when} "
        f"(daqui a {minutes} minutos). Cada nova tentativa antes disso reinicia a espera. "
        "Se esqueceu a senha, use “Esqueci minha senha”."
    )


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The login page the user came from, with the lockout message in place of the form's error."""
    form = LoginForm(request, initial={"username": (credentials or {}).get("username", "")})
    form.cleaned_data = {}  # an unbound form has none; add_error needs it
    form.add_error(None, lockout_message(request))
    portal = request.path.startswith(reverse("portal:login"))
    template = "portal/login.html" if portal else "registration/login.html"
    context = {"form": form, "next": request.POST.get("next", ""), "locked_out": True}
    response = render(request, template, context, status=LOCKOUT_STATUS)
    cool_off = get_cool_off(request)
    if cool_off is not None:
        response["Retry-After"] = str(int(cool_off.total_seconds()))
    return response
