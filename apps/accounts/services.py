"""Writes for accounts, each in one transaction with its audit event (global chain: users are not municipal).

Sign-in events (login, failure, lockout, logout, second factor) are written here too, so every
account-security fact lands in the audit trail the same way. No event ever carries a password, a
one-time code or a recovery code.
"""

from __future__ import annotations

import secrets
from base64 import b32encode
from collections.abc import Callable
from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django_otp.models import Device
from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.accounts.auditing import audit_record
from apps.accounts.choices import UserKind
from apps.accounts.models import RecoveryCode, RecoveryCodeDevice, User, recovery_code_digests
from apps.accounts.notifications import send_password_changed_mail, send_second_factor_reset_mail
from apps.accounts.outbox import mail_enqueue
from apps.accounts.selectors import second_factor_mandatory
from apps.accounts.stepup import require_recent_authentication, sensitive_service

RECOVERY_CODE_COUNT = 10
# 16 base32 characters = 80 random bits per code (django-otp's default of 8 would be 40).
RECOVERY_CODE_LENGTH = 16
TOTP_DEVICE_NAME = "Aplicativo autenticador"
RECOVERY_DEVICE_NAME = "Códigos de recuperação"


def _snapshot(user: User) -> dict[str, Any]:
    # Personal data (CPF, phone, e-mail) stays out of the log: the log is kept forever, and
    # LGPD art. 16 would have us erase it some day. Only which fields changed is recorded.
    return {
        "username": user.username,
        "full_name": user.full_name,
        "kind": user.kind,
        "is_active": user.is_active,
    }


def password_check(*, password: str, user: User) -> None:
    """Django's validators (length, common passwords, all digits, similar to the user's data), under `password`."""
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from exc


@transaction.atomic
def user_create(
    *,
    actor: User | None,
    username: str,
    password: str | None,
    full_name: str,
    kind: str = UserKind.STAFF,
    email: str = "",
    cpf: str = "",
    phone: str = "",
) -> User:
    """`password` None: an account that signs in only through gov.br (no password until the owner sets one by
    "Esqueci minha senha")."""
    user = User(username=username, full_name=full_name, kind=kind, email=email, cpf=cpf, phone=phone)
    checks: tuple[Callable[[], None], ...] = (user.full_clean,)
    if password is None:
        user.set_unusable_password()
    else:
        user.set_password(password)  # hashed now so full_clean sees a password; saved only if all is valid
        checks = (lambda: password_check(password=password, user=user), *checks)
    errors: dict[str, list[str]] = {}
    for check in checks:
        try:
            check()
        except ValidationError as exc:
            errors.update(exc.message_dict)
    if errors:  # every problem at once, each under its field
        raise ValidationError(errors)
    user.save()
    audit_record(actor=actor, municipality=None, action="user.create", obj=user, after=_snapshot(user))
    return user


@transaction.atomic
def user_set_password(*, actor: User | None, user: User, password: str, reason: str = "set") -> None:
    """Set a new password (validated). `reason` says how: "set" by an administrator, "change" by the user
    knowing the old one, "reset" through an e-mailed link. The owner is told by e-mail after commit."""
    password_check(password=password, user=user)
    user.set_password(password)
    user.save(update_fields=["password"])
    audit_record(actor=actor, municipality=None, action=f"user.password_{reason}", obj=user)
    if user.email:
        transaction.on_commit(lambda: send_password_changed_mail(user))


@transaction.atomic
def password_reset_mail_queue(*, user: User, recipient: str, subject: str, body: str) -> None:
    """Record that a reset link was requested for `user` and put the mail in the outbox, in one transaction:
    the worker sends it (and retries), never the request."""
    audit_record(actor=None, municipality=None, action="user.password_reset_request", obj=user)
    mail_enqueue(recipient=recipient, subject=subject, body=body, reason="user.password_reset_request")


# --- sign-in events ----------------------------------------------------------------------------------------


@transaction.atomic
def login_success_record(*, user: User, client_ip: str, path: str) -> None:
    audit_record(
        actor=user, municipality=None, action="auth.login", obj=user, after={"ip": client_ip, "path": path}
    )


@transaction.atomic
def login_failure_record(*, username: str, client_ip: str, path: str) -> None:
    """A wrong password (or a refused locked-out attempt). The typed name is kept only when it is an account's:
    people type their password into the username field, and that must never reach a permanent log."""
    user = User.objects.filter(username=username).first() if username else None
    after = {"ip": client_ip, "path": path, "known_account": user is not None}
    if user is not None:
        audit_record(actor=None, municipality=None, action="auth.login_failed", obj=user, after=after)
    else:
        audit_record(
            actor=None,
            municipality=None,
            action="auth.login_failed",
            object_type="accounts.user",
            object_id="?",
            after=after,
        )


@transaction.atomic
def lockout_record(*, username: str, client_ip: str, path: str) -> None:
    user = User.objects.filter(username=username).first() if username else None
    after = {"ip": client_ip, "path": path, "known_account": user is not None}
    object_id = str(user.pk) if user is not None else "?"
    audit_record(
        actor=None,
        municipality=None,
        action="auth.locked_out",
        object_type="accounts.user",
        object_id=object_id,
        after=after,
    )


@transaction.atomic
def logout_record(*, user: User, client_ip: str, reason: str) -> None:
    audit_record(
        actor=user,
        municipality=None,
        action="auth.logout",
        obj=user,
        after={"ip": client_ip, "reason": reason},
    )


@transaction.atomic
def second_factor_failure_record(*, user: User, client_ip: str) -> None:
    audit_record(
        actor=user, municipality=None, action="auth.second_factor_failed", obj=user, after={"ip": client_ip}
    )


@transaction.atomic
def second_factor_lockout_record(*, user: User, client_ip: str, purpose: str) -> None:
    """A code refused unread because the authenticator is in its wait after wrong codes (each such attempt is
    one row, so a burst against a locked authenticator shows in the audit log)."""
    audit_record(
        actor=user,
        municipality=None,
        action="auth.second_factor_locked_out",
        obj=user,
        after={"ip": client_ip, "purpose": purpose},
    )


@transaction.atomic
def second_factor_success_record(*, user: User, device: Device, client_ip: str, purpose: str) -> None:
    """`purpose` is "login" or "reauthentication". A recovery code is single-use: say how many remain."""
    after: dict[str, Any] = {"ip": client_ip, "purpose": purpose, "device": device.persistent_id}
    action = "auth.second_factor_verified"
    if isinstance(device, RecoveryCodeDevice):
        action = "auth.recovery_code_used"
        after["recovery_codes_left"] = device.codes.count()
    audit_record(actor=user, municipality=None, action=action, obj=user, after=after)


@transaction.atomic
def reauthentication_record(*, user: User, client_ip: str, next_path: str) -> None:
    audit_record(
        actor=user,
        municipality=None,
        action="auth.reauthenticated",
        obj=user,
        after={"ip": client_ip, "next": next_path},
    )


# --- second-factor devices ---------------------------------------------------------------------------------


def totp_device_pending(*, user: User) -> TOTPDevice:
    """The not-yet-confirmed authenticator being enrolled (a fresh secret the first time)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=TOTP_DEVICE_NAME, confirmed=False)
    return device


@transaction.atomic
def totp_device_confirm(*, actor: User, device: TOTPDevice, token: str) -> list[str] | None:
    """Confirm an enrolment with a first code from the app. Returns fresh recovery codes, or None if the code
    is wrong (nothing changes then). The codes are shown once; only the owner ever sees them."""
    device = TOTPDevice.objects.select_for_update().get(pk=device.pk, user=actor, confirmed=False)
    if TOTPDevice.objects.filter(user=actor, confirmed=True).exists():
        require_recent_authentication()  # another authenticator: a sensitive action (apps.accounts.stepup)
    if not device.verify_token(token):
        return None
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    audit_record(
        actor=actor,
        municipality=None,
        action="mfa.device_add",
        obj=actor,
        after={"device": device.persistent_id, "kind": "totp"},
    )
    return _recovery_codes_replace(actor=actor, user=actor)


@sensitive_service
def recovery_codes_generate(*, actor: User, user: User) -> list[str]:
    """Replace the user's recovery codes with new ones (old ones stop working). The codes are returned to be shown
    once; only their keyed hashes are stored. A sensitive action (apps.accounts.stepup)."""
    return _recovery_codes_replace(actor=actor, user=user)


@transaction.atomic
def _recovery_codes_replace(*, actor: User, user: User) -> list[str]:
    RecoveryCodeDevice.objects.filter(user=user).delete()
    device = RecoveryCodeDevice.objects.create(user=user, name=RECOVERY_DEVICE_NAME, confirmed=True)
    codes = [_random_recovery_code() for _ in range(RECOVERY_CODE_COUNT)]
    RecoveryCode.objects.bulk_create(
        RecoveryCode(device=device, digest=recovery_code_digests(code)[0]) for code in codes
    )
    audit_record(
        actor=actor,
        municipality=None,
        action="mfa.recovery_codes_generate",
        obj=user,
        after={"device": device.persistent_id, "count": len(codes)},
    )
    return codes


def _random_recovery_code() -> str:
    # Lowercase base32 without padding: what people type back (normalize_code lowercases and drops dashes).
    return b32encode(secrets.token_bytes(RECOVERY_CODE_LENGTH * 5 // 8)).decode().lower()


@sensitive_service
@transaction.atomic
def totp_device_remove(*, actor: User, device: TOTPDevice) -> None:
    """Remove one authenticator. Staff must keep at least one (the second factor is mandatory for them)."""
    user = device.user
    others = TOTPDevice.objects.filter(user=user, confirmed=True).exclude(pk=device.pk)
    if second_factor_mandatory(user) and not others.exists():
        raise ValidationError(
            "Servidores da prefeitura precisam de um aplicativo autenticador: cadastre outro antes de remover este."
        )
    persistent_id = device.persistent_id
    device.delete()
    if not others.exists():
        RecoveryCodeDevice.objects.filter(user=user).delete()
    audit_record(
        actor=actor, municipality=None, action="mfa.device_remove", obj=user, after={"device": persistent_id}
    )


@sensitive_service
@transaction.atomic
def second_factor_reset(*, actor: User | None, user: User, municipality_ibge: str = "") -> None:
    """An administrator clears a user's lost second factor; a staff member enrols again at the next login (and
    any session of theirs verified with the removed app must verify again). The owner is told by e-mail.

    From the team screen (`municipality_ibge` says which), an administrator may not clear their own second factor
    nor a superuser's unless they are one: those go through `manage.py second_factor_reset`.
    """
    if actor is not None and actor.pk == user.pk:
        raise ValidationError("Para trocar o seu próprio aplicativo autenticador, use “Minha conta”.")
    if actor is not None and user.is_superuser and not actor.is_superuser:
        raise ValidationError("O segundo fator de um superusuário só pode ser zerado por outro superusuário.")
    removed = [device.persistent_id for device in TOTPDevice.objects.filter(user=user)]
    TOTPDevice.objects.filter(user=user).delete()
    RecoveryCodeDevice.objects.filter(user=user).delete()
    after: dict[str, Any] = {"devices": removed}
    if municipality_ibge:
        after["municipality"] = municipality_ibge
    audit_record(actor=actor, municipality=None, action="mfa.reset", obj=user, after=after)
    if user.email:
        transaction.on_commit(lambda: send_second_factor_reset_mail(user, actor))
