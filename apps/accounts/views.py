from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse

from apps.accounts.forms import LoginForm

LOGGED_OUT_MESSAGE = "Você saiu do Outorga. Até logo!"


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """POST only (Django 5): a link cannot log someone out behind their back."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        # After logout() flushed the session, so the message survives into the login page.
        messages.info(request, LOGGED_OUT_MESSAGE)
        return response
