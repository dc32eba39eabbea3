"""Reads about accounts and their second factor."""

from __future__ import annotations

from typing import Any

from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.accounts.choices import UserKind
from apps.accounts.models import RecoveryCode


def second_factor_mandatory(user: Any) -> bool:
    """Staff (and any superuser) cannot work without a second factor; portal users choose."""
    return bool(user.is_superuser or user.is_staff or getattr(user, "kind", "") == UserKind.STAFF)


def has_authenticator(user: Any) -> bool:
    """An enrolled (confirmed) authenticator app. Recovery codes only back one up, so they do not count."""
    return bool(TOTPDevice.objects.filter(user=user, confirmed=True).exists())


def authenticators(user: Any) -> list[TOTPDevice]:
    return list(TOTPDevice.objects.filter(user=user, confirmed=True).order_by("pk"))


def recovery_codes_left(user: Any) -> int:
    return RecoveryCode.objects.filter(device__user=user, device__confirmed=True).count()
