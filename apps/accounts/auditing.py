"""The audit trail as the apps below audit write to it: accounts, tenancy and web.

audit sits above them (its events are scoped by tenancy's gate, its trail pages are drawn with web's cards, menu
and exports: docs/architecture.md, "Layers"), so they cannot import apps.audit.services. audit installs its
writers here from AuditConfig.ready(), and each function below hands its call to them unchanged: the event is
minimized, signed and chained in the caller's transaction exactly as for any other app. An act recorded with no
writer installed is refused (ImproperlyConfigured), never left out of the trail. The apps above audit call
apps.audit.services directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ImproperlyConfigured
from django.db import models

from apps.accounts.actors import Actor

# The municipality is tenancy's, a layer above accounts: the writers see it as the model it is.
Municipality = models.Model


class Record(Protocol):
    def __call__(
        self,
        *,
        actor: Actor,
        municipality: Any,
        action: str,
        obj: models.Model | None = ...,
        object_type: str = ...,
        object_id: str = ...,
        before: dict[str, Any] | None = ...,
        after: dict[str, Any] | None = ...,
        request_id: str | None = ...,
    ) -> object: ...


class PersonalDataRead(Protocol):
    def __call__(
        self,
        *,
        actor: AbstractBaseUser | AnonymousUser,
        municipality: Any,
        obj: models.Model,
        fields: Iterable[str],
        request_id: str,
    ) -> object: ...


class ListExport(Protocol):
    def __call__(
        self,
        *,
        actor: AbstractBaseUser | AnonymousUser,
        municipality: Any,
        list_name: str,
        fields: Iterable[str],
        filters: dict[str, str],
        fmt: str,
        request_id: str,
        title: str = "",
    ) -> object: ...


@dataclass(frozen=True)
class AuditWriters:
    """apps.audit.services' audit_record, audit_personal_data_read and audit_list_export."""

    record: Record
    personal_data_read: PersonalDataRead
    list_export: ListExport


_installed: list[AuditWriters] = []


def install_audit_writers(writers: AuditWriters) -> None:
    """Called once by AuditConfig.ready(); installing again (a re-run ready) replaces the writers."""
    _installed[:] = [writers]


def _writers() -> AuditWriters:
    if not _installed:
        raise ImproperlyConfigured("accounts.auditing: no audit writers installed (is apps.audit installed?)")
    return _installed[0]


def audit_record(
    *,
    actor: Actor,
    municipality: Municipality | None,
    action: str,
    obj: models.Model | None = None,
    object_type: str = "",
    object_id: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    request_id: str | None = None,
) -> None:
    """apps.audit.services.audit_record: one event on the municipality's chain, in the caller's transaction."""
    _writers().record(
        actor=actor,
        municipality=municipality,
        action=action,
        obj=obj,
        object_type=object_type,
        object_id=object_id,
        before=before,
        after=after,
        request_id=request_id,
    )


def audit_personal_data_read(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    municipality: Municipality | None,
    obj: models.Model,
    fields: Iterable[str],
    request_id: str,
) -> None:
    """apps.audit.services.audit_personal_data_read: a staff member was shown personal data of `obj`."""
    _writers().personal_data_read(
        actor=actor, municipality=municipality, obj=obj, fields=fields, request_id=request_id
    )


def audit_list_export(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    municipality: Municipality | None,
    list_name: str,
    fields: Iterable[str],
    filters: dict[str, str],
    fmt: str,
    request_id: str,
    title: str = "",
) -> None:
    """apps.audit.services.audit_list_export: a staff member downloaded a list with personal columns."""
    _writers().list_export(
        actor=actor,
        municipality=municipality,
        list_name=list_name,
        fields=fields,
        filters=filters,
        fmt=fmt,
        request_id=request_id,
        title=title,
    )
