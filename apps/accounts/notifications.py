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
