"""Reads of licensing rows: the tenancy gate (for_user) plus the filters the screens and the sweep share."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from django.db import models
from django.db.models import Q

from apps.licensing.choices import OPEN_STATES, PERMIT_IN_FORCE_STATES, PermitState
from apps.registry.identifiers import normalize_plate
from apps.tenancy.querysets import MunicipalityScopedQuerySet

if TYPE_CHECKING:
    from apps.licensing.models import Application, Permit  # noqa: F401  (string annotations below)

_M = TypeVar("_M", bound=models.Model)


class ScopedQuerySet(MunicipalityScopedQuerySet[_M]):
    pass


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def holder_search(prefix: str, text: str) -> Q:
    """Name, CPF/CNPJ (with or without punctuation) or plate of the operator or the vehicle."""
    text = text.strip()
    if not text:
        return Q()
    found = Q(**{f"{prefix}operator__person__name__icontains": text})
    found |= Q(**{f"{prefix}operator__company__legal_name__icontains": text})
    digits = _digits(text)
    if len(digits) >= 3:
        found |= Q(**{f"{prefix}operator__person__cpf__startswith": digits})
        found |= Q(**{f"{prefix}operator__company__cnpj__startswith": digits})
    plate = normalize_plate(text)
    if 3 <= len(plate) <= 7 and plate.isalnum():
        found |= Q(**{f"{prefix}vehicle__plate__startswith": plate})
    return found


class ApplicationQuerySet(MunicipalityScopedQuerySet["Application"]):
    def open(self) -> ApplicationQuerySet:
        return self.filter(state__in=OPEN_STATES)

    def search(self, text: str) -> ApplicationQuerySet:
        return self.filter(holder_search("", text))

    def for_list(self) -> ApplicationQuerySet:
        """Everything a list row shows, fetched in the same query (constant queries per page)."""
        return self.select_related(
            "municipality", "operator__person", "operator__company", "vehicle", "driver__person"
        )


class PermitQuerySet(MunicipalityScopedQuerySet["Permit"]):
    def in_force(self) -> PermitQuerySet:
        return self.filter(state__in=PERMIT_IN_FORCE_STATES)

    def active(self) -> PermitQuerySet:
        return self.filter(state=PermitState.ACTIVE)

    def search(self, text: str) -> PermitQuerySet:
        found = holder_search("", text)
        number = text.strip()
        return self.filter(found | Q(number__startswith=number)) if number else self

    def for_list(self) -> PermitQuerySet:
        return self.select_related("municipality", "operator__person", "operator__company", "vehicle")
