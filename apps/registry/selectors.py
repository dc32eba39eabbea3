"""Reads of the registry for screens and the API; every one starts from .for_user(user, action)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from apps.registry import identifiers as ids
from apps.registry.choices import DocumentStatus
from apps.registry.models import Document, Driver, Operator, OperatorQuerySet, Vehicle


def _count_of(queryset: Any) -> Coalesce:
    """A correlated COUNT subquery: one query for the whole page, no join multiplying rows."""
    counted = queryset.order_by().values("operator").annotate(total=Count("pk")).values("total")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def operator_list(queryset: OperatorQuerySet) -> OperatorQuerySet:
    """Operators with holder and counts of active drivers and vehicles, in a constant number of queries."""
    return queryset.with_holder().annotate(
        driver_count=_count_of(Driver.objects.filter(operator=OuterRef("pk"), active=True)),
        vehicle_count=_count_of(Vehicle.objects.filter(operator=OuterRef("pk"))),
    )


def operator_search(queryset: OperatorQuerySet, text: str) -> OperatorQuerySet:
    """Search by holder name, CPF, CNPJ (with or without punctuation) or plate (old or Mercosul form)."""
    text = text.strip()
    if not text:
        return queryset
    raw = ids.normalize_cnpj(text)
    match = Q(person__name__icontains=text) | Q(company__legal_name__icontains=text)
    match |= Q(company__trade_name__icontains=text)
    if raw:
        match |= Q(person__cpf=ids.normalize_cpf(text)) | Q(company__cnpj=raw)
    if ids.plate_format(raw):
        plates = {raw, ids.to_mercosul(raw)}
        match |= Q(Exists(Vehicle.objects.filter(operator=OuterRef("pk"), plate__in=plates)))
    return queryset.filter(match)


def operator_documents(operator: Operator) -> Any:
    """Every document bearing on the operator: its own, its holder's, its vehicles', its people's."""
    people = list(operator.drivers.filter(active=True).values_list("person_id", flat=True))
    people += list(operator.attendants.filter(active=True).values_list("person_id", flat=True))
    if operator.person_id:
        people.append(operator.person_id)
    owners = Q(operator=operator) | Q(vehicle__operator=operator) | Q(person_id__in=people)
    if operator.company_id:
        owners |= Q(company_id=operator.company_id)
    return (
        Document.objects.filter(owners, municipality=operator.municipality)
        # the municipality names each kind (its regimes' documents.yaml): fetched with the rows, not per row
        .select_related("person", "company", "vehicle", "municipality")
        .order_by("valid_until", "kind")
    )


def next_to_expire(documents: Any, as_of: dt.date) -> Document | None:
    """The valid document whose validity ends first on or after ``as_of``."""
    upcoming = documents.filter(status=DocumentStatus.VALID, valid_until__gte=as_of)
    return upcoming.order_by("valid_until").first()  # type: ignore[no-any-return]


def decision_reason(decision: dict[str, Any]) -> str:
    """The law's reason stored with a document: the engine's findings and the articles they cite."""
    if "declared_validity" in decision:
        return str(decision["declared_validity"].get("text", ""))
    if "not_governed" in decision:  # stored before the regimes declared their document kinds
        return str(decision["not_governed"])
    parts = []
    for finding in decision.get("findings", []):
        cites = ", ".join(c.get("text", "") for c in finding.get("citations", []))
        parts.append(f"{finding.get('message', '')} ({cites})" if cites else str(finding.get("message", "")))
    return "; ".join(parts)


# --- the vehicle, driver and document lists ---------------------------------------------------------------

CPF_AND_CNH_DIGITS = 11


def _plates(text: str) -> set[str]:
    raw = ids.normalize_plate(text)
    return {raw, ids.to_mercosul(raw)} if ids.plate_format(raw) else set()


def _holder_named(prefix: str, text: str) -> Q:
    return (
        Q(**{f"{prefix}person__name__icontains": text})
        | Q(**{f"{prefix}company__legal_name__icontains": text})
        | Q(**{f"{prefix}company__trade_name__icontains": text})
    )


def vehicle_rows(queryset: Any, text: str, filters: dict[str, Any]) -> Any:
    """Vehicles with their operator's holder, searched by plate, make, model or holder name."""
    rows = queryset.select_related("operator__person", "operator__company")
    if text := text.strip():
        match = Q(make__icontains=text) | Q(model__icontains=text) | _holder_named("operator__", text)
        if plates := _plates(text):
            match |= Q(plate__in=plates)
        rows = rows.filter(match)
    if filters.get("regime"):
        rows = rows.filter(operator__regime_id=filters["regime"])
    if filters.get("category"):
        rows = rows.filter(category=filters["category"])
    if filters.get("made_until"):
        rows = rows.filter(manufacture_year__lte=filters["made_until"])
    return rows


def driver_rows(queryset: Any, text: str, filters: dict[str, Any]) -> Any:
    """Drivers with person, operator and vehicle, searched by name, CPF or CNH number."""
    rows = queryset.select_related("person", "operator__person", "operator__company", "vehicle")
    if text := text.strip():
        match = Q(person__name__icontains=text)
        digits = ids.normalize_cpf(text)
        if len(digits) == CPF_AND_CNH_DIGITS:
            match |= Q(person__cpf=digits) | Q(cnh_number=digits)
        rows = rows.filter(match)
    if filters.get("regime"):
        rows = rows.filter(operator__regime_id=filters["regime"])
    if filters.get("role"):
        rows = rows.filter(role=filters["role"])
    if filters.get("active"):
        rows = rows.filter(active=filters["active"] == "sim")
    if filters.get("cnh_until"):
        rows = rows.filter(cnh_expiry__lte=filters["cnh_until"])
    return rows


def document_rows(queryset: Any, text: str, filters: dict[str, Any]) -> Any:
    """Documents with their owner, searched by the owner's name (person, company, operator) or plate."""
    rows = queryset.select_related(
        "municipality", "person", "company", "vehicle", "operator__person", "operator__company"
    )
    if text := text.strip():
        match = Q(person__name__icontains=text) | Q(company__legal_name__icontains=text)
        match |= Q(company__trade_name__icontains=text) | _holder_named("operator__", text)
        if plates := _plates(text):
            match |= Q(vehicle__plate__in=plates)
        rows = rows.filter(match)
    for name in ("kind", "status"):
        if filters.get(name):
            rows = rows.filter(**{name: filters[name]})
    if filters.get("valid_until"):
        rows = rows.filter(valid_until__lte=filters["valid_until"])
    return rows
