from __future__ import annotations

from django.contrib.auth import views as auth_views

from apps.accounts.forms import LoginForm


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """POST only (Django 5): a link cannot log someone out behind their back."""
