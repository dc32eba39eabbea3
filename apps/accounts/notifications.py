"""E-mails about the account itself. Callers schedule them with transaction.on_commit."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import timezone

from apps.accounts.models import User


def send_password_changed_mail(user: User) -> None:
    """Tell the owner their password changed, so a change they did not make is noticed (ASVS 6.3.7)."""
    context = {"user": user, "when": timezone.localtime()}
    send_mail(
        subject="Outorga: sua senha foi alterada",
        message=render_to_string("accounts/mail/password_changed.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[user.email],
    )


def send_second_factor_reset_mail(user: User, actor: User | None) -> None:
    """Tell the owner an administrator cleared their second factor (ASVS 6.3.7), so a reset they did not ask for
    is noticed."""
    context = {"user": user, "actor": actor, "when": timezone.localtime()}
    send_mail(
        subject="Outorga: o segundo fator da sua conta foi zerado",
        message=render_to_string("accounts/mail/second_factor_reset.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[user.email],
    )
