"""Writes for accounts, each in one transaction with its audit event (global chain: users are not municipal)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from apps.accounts.choices import UserKind
from apps.accounts.models import User
from apps.audit.services import audit_record


def _snapshot(user: User) -> dict[str, Any]:
    # Personal data (CPF, phone, e-mail) stays out of the log: the log is kept forever, and
    # LGPD art. 16 would have us erase it some day. Only which fields changed is recorded.
    return {
        "username": user.username,
        "full_name": user.full_name,
        "kind": user.kind,
        "is_active": user.is_active,
    }


@transaction.atomic
def user_create(
    *,
    actor: User | None,
    username: str,
    password: str,
    full_name: str,
    kind: str = UserKind.STAFF,
    email: str = "",
    cpf: str = "",
    phone: str = "",
) -> User:
    user = User(username=username, full_name=full_name, kind=kind, email=email, cpf=cpf, phone=phone)
    user.set_password(password)
    user.full_clean()
    user.save()
    audit_record(actor=actor, municipality=None, action="user.create", obj=user, after=_snapshot(user))
    return user


@transaction.atomic
def user_set_password(*, actor: User | None, user: User, password: str) -> None:
    user.set_password(password)
    user.save(update_fields=["password"])
    audit_record(actor=actor, municipality=None, action="user.set_password", obj=user)
