from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
)
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest
from django.template import loader
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from apps.accounts import services
from apps.accounts.models import User

CODE_HELP = "Os 6 números que o aplicativo autenticador mostra agora."


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


def normalize_code(raw: str) -> str:
    """Codes are typed with spaces or dashes (recovery codes are shown in groups); the devices want them bare."""
    return "".join(raw.split()).replace("-", "").lower()


class CodeField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", "Código")
        kwargs.setdefault("max_length", 32)
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {
                "autocomplete": "one-time-code",
                "inputmode": "text",
                "spellcheck": "false",
                "autocapitalize": "off",
            }
        )

    def clean(self, value: Any) -> str:
        return normalize_code(super().clean(value))


class SecondFactorForm(forms.Form):
    """The code after the password: from the authenticator app, or one of the recovery codes."""

    code = CodeField(
        help_text="Os 6 números do aplicativo autenticador ou um dos seus códigos de recuperação."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["code"].widget.attrs["autofocus"] = True


class EnrolForm(forms.Form):
    code = CodeField(label="Código mostrado no aplicativo", help_text=CODE_HELP)


class ReauthenticationForm(forms.Form):
    """Password again, plus the second factor when the user has one."""

    password = forms.CharField(label="Senha", strip=False, widget=forms.PasswordInput)

    def __init__(self, *args: Any, request: HttpRequest, with_code: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        self.fields["password"].widget.attrs.update({"autocomplete": "current-password", "autofocus": True})
        if with_code:
            self.fields["code"] = CodeField(
                help_text="Os 6 números do aplicativo autenticador ou um dos seus códigos de recuperação."
            )

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        user = self.request.user
        # Through authenticate(), so django-axes counts a wrong password here like one at the login page.
        confirmed = authenticate(self.request, username=user.get_username(), password=password)
        if confirmed is None or confirmed.pk != user.pk:
            raise forms.ValidationError("Senha incorreta.", code="invalid_password")
        return password


class PasswordFieldsMixin:
    """Portuguese labels; the new password goes through services.user_set_password (validated, audited)."""

    password_reason = "change"
    fields: dict[str, forms.Field]
    user: User
    cleaned_data: dict[str, Any]

    def _label_fields(self) -> None:
        self.fields["new_password1"].label = "Nova senha"
        self.fields["new_password1"].help_text = (
            "Pelo menos 12 caracteres. Uma frase com palavras que só você associa é fácil de lembrar e difícil de "
            "adivinhar. Não use seu nome, usuário, e-mail nem senhas comuns."
        )
        self.fields["new_password2"].label = "Repita a nova senha"
        self.fields["new_password2"].help_text = ""

    def save(self, commit: bool = True) -> User:
        services.user_set_password(
            actor=self.user,
            user=self.user,
            password=self.cleaned_data["new_password1"],
            reason=self.password_reason,
        )
        return self.user


class OwnPasswordChangeForm(PasswordFieldsMixin, PasswordChangeForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["old_password"].label = "Senha atual"
        self._label_fields()


class ResetSetPasswordForm(PasswordFieldsMixin, SetPasswordForm):  # type: ignore[type-arg]  # generic only in stubs
    password_reason = "reset"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._label_fields()


class ResetRequestForm(PasswordResetForm):
    """Same answer, and the same work, whether or not the address has an account (no account discovery): the
    message is built in every case, and queued in the outbox (apps.jobs, through apps.accounts.outbox) only for
    an account; the worker sends it, never the request, so the time to answer says nothing."""

    email = forms.EmailField(
        label="E-mail cadastrado", max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )

    def save(self, *args: Any, **kwargs: Any) -> None:
        email = self.cleaned_data["email"]
        if any(True for _ in self.get_users(email)):
            super().save(*args, **kwargs)
            return
        # Nobody: build the same message for a stand-in and drop it.
        stand_in = User(email=email, username=email, password=make_password(None), last_login=None)
        context = {
            "email": email,
            "domain": kwargs.get("domain_override") or get_current_site(kwargs.get("request")).domain,
            "site_name": "",
            "uid": urlsafe_base64_encode(force_bytes(0)),
            "user": stand_in,
            "token": default_token_generator.make_token(stand_in),
            "protocol": "https" if kwargs.get("use_https") else "http",
            **(kwargs.get("extra_email_context") or {}),
        }
        self._render(
            kwargs.get("subject_template_name", "registration/password_reset_subject.txt"),
            kwargs.get("email_template_name", "registration/password_reset_email.html"),
            context,
        )

    @staticmethod
    def _render(
        subject_template_name: str, email_template_name: str, context: dict[str, Any]
    ) -> tuple[str, str]:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        return subject, loader.render_to_string(email_template_name, context)

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject, body = self._render(subject_template_name, email_template_name, context)
        services.password_reset_mail_queue(
            user=context["user"], recipient=to_email, subject=subject, body=body
        )
