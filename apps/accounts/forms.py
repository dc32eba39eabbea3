from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm


class LoginForm(AuthenticationForm):
    """Django's login form with our own Portuguese wording (same message for any wrong field)."""

    username = forms.CharField(label="Usuário", max_length=150)
    password = forms.CharField(label="Senha", strip=False, widget=forms.PasswordInput)

    error_messages = {
        "invalid_login": "Usuário ou senha incorretos. Confira os dados e tente novamente.",
        "inactive": "Esta conta está desativada. Procure o administrador do sistema na prefeitura.",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autofocus": True})
        self.fields["password"].widget.attrs.update({"autocomplete": "current-password"})
