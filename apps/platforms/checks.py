"""Batch check: is this CPF / plate authorized today, and until when — from permits and the registry only.

Answers carry the minimum a platform needs to keep or stop dispatching: authorized yes/no, status, valid_until
and the permit number. Never a name, an address or another person's data. Bulk queries: a batch of 1,000
items costs a handful of SELECTs, not one per item.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import F

from apps.licensing.choices import PermitKind
from apps.licensing.models import Permit
from apps.licensing.standing import Standing, standings
from apps.public.choices import VerificationStatus
from apps.registry.identifiers import normalize_plate, to_mercosul, validate_cpf, validate_plate
from apps.registry.models import Driver
from apps.tenancy.models import Municipality

MAX_BATCH = 1000
PERMIT_COLUMNS = (
    "pk",
    "number",
    "state",
    "kind",
    "valid_from",
    "valid_until",
    "suspended_until",
    "closed_on",
    "closed_reason",
    "regime_id",
    "municipality",
    "operator",
    "vehicle",
    "driver",
)
# Preference when a person or car has several permits: the one that lets them work, then the most recent.
STATUS_RANK = {
    VerificationStatus.REGULAR: 0,
    VerificationStatus.IRREGULAR: 1,
    VerificationStatus.SUSPENDED: 2,
    VerificationStatus.NOT_YET_VALID: 3,
}


@dataclass(frozen=True)
class CheckAnswer:
    key: str
    value: str
    status: str
    permit: Permit | None = None
    error_code: str = ""
    error_message: str = ""
    standing: Standing | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.error_code:
            return {self.key: self.value, "error": {"code": self.error_code, "message": self.error_message}}
        permit = self.permit
        return {
            self.key: self.value,
            "authorized": self.status == VerificationStatus.REGULAR,
            "status": self.status,
            "valid_until": permit.valid_until.isoformat() if permit and permit.valid_until else None,
            "suspended_until": permit.suspended_until.isoformat()
            if permit and permit.suspended_until
            else None,
            "permit_number": permit.number if permit else None,
            "reason": self.standing.reason if self.standing else "",
            "articles": list(self.standing.articles) if self.standing else [],
        }


def check_drivers(municipality: Municipality, cpfs: Iterable[str], *, as_of: dt.date) -> list[CheckAnswer]:
    """A person may drive when a permit they drive under is regular — their own documents (CNH…) included."""
    parsed = [_parse(raw, validate_cpf) for raw in cpfs]
    valid = {value for value, error in parsed if not error}
    permits = _driver_permits(municipality, valid)
    links = _driver_links(municipality, valid)
    pairs = {
        (cpf, p.pk): (p, links.get((cpf, p.operator_id))) for cpf, found in permits.items() for p in found
    }
    judged = dict(zip(pairs, standings(pairs.values(), as_of=as_of), strict=True))
    return [
        _answer("cpf", value, error, [(p, judged[(value, p.pk)]) for p in permits.get(value, [])])
        for value, error in parsed
    ]


def check_vehicles(municipality: Municipality, plates: Iterable[str], *, as_of: dt.date) -> list[CheckAnswer]:
    parsed = [_parse(raw, validate_plate) for raw in plates]
    forms = {value: _plate_forms(value) for value, error in parsed if not error}
    by_form = _vehicle_permits(municipality, {form for both in forms.values() for form in both})
    every = {p.pk: p for found in by_form.values() for p in found}
    judged = dict(zip(every, standings([(p, None) for p in every.values()], as_of=as_of), strict=True))
    answers = []
    for value, error in parsed:
        found = [p for form in forms.get(value, ()) for p in by_form.get(form, [])]
        answers.append(_answer("plate", value, error, [(p, judged[p.pk]) for p in found]))
    return answers


def _parse(raw: Any, validate: Callable[[str], str]) -> tuple[str, tuple[str, str] | None]:
    """(normalized value, None) or (what was sent, trimmed — echoed so the platform can match it —, error)."""
    text = str(raw) if isinstance(raw, str | int) else ""
    try:
        return validate(text), None
    except ValidationError as exc:
        return normalize_plate(text)[:32], (str(exc.code), " ".join(exc.messages))


def _answer(
    key: str, value: str, error: tuple[str, str] | None, judged: list[tuple[Permit, Standing]]
) -> CheckAnswer:
    if error is not None:
        return CheckAnswer(key, value, "", error_code=error[0], error_message=error[1])
    if not judged:
        return CheckAnswer(key, value, VerificationStatus.UNKNOWN)
    best, standing = min(judged, key=_preference)
    return CheckAnswer(key, value, standing.status, best, standing=standing)


def _preference(item: tuple[Permit, Standing]) -> tuple[int, int, int]:
    permit, standing = item
    until = permit.valid_until.toordinal() if permit.valid_until else dt.date.max.toordinal()
    return STATUS_RANK.get(VerificationStatus(standing.status), 9), -until, -permit.pk


def _driver_links(municipality: Municipality, cpfs: set[str]) -> dict[tuple[str, int], Driver]:
    """(CPF, operator) → the person's active driver link, whose CNH and documents the law checks."""
    if not cpfs:
        return {}
    rows = Driver.objects.filter(municipality=municipality, person__cpf__in=cpfs, active=True).annotate(
        cpf=F("person__cpf")
    )
    return {(row.cpf, row.operator_id): row for row in rows}  # type: ignore[attr-defined]


def _plate_forms(plate: str) -> tuple[str, ...]:
    """A car re-plated to Mercosul is the same car: look it up under both forms."""
    mercosul = to_mercosul(plate)
    return (plate,) if mercosul == plate else (plate, mercosul)


def _driver_permits(municipality: Municipality, cpfs: set[str]) -> dict[str, list[Permit]]:
    """Permits a person may drive under: as the holder, as a linked active driver, or as emergency driver."""
    if not cpfs:
        return {}
    base = Permit.objects.filter(municipality=municipality)
    paths = {
        "operator__person__cpf": base.filter(operator__person__cpf__in=cpfs),
        "operator__drivers__person__cpf": base.filter(
            operator__drivers__person__cpf__in=cpfs, operator__drivers__active=True
        ).exclude(kind=PermitKind.EMERGENCY),
        "driver__person__cpf": base.filter(driver__person__cpf__in=cpfs),
    }
    found: dict[str, dict[int, Permit]] = defaultdict(dict)
    for cpf_path, rows in paths.items():
        for permit in rows.annotate(matched=F(cpf_path)).only(*PERMIT_COLUMNS):
            found[permit.matched][permit.pk] = permit  # type: ignore[attr-defined]
    return {cpf: list(by_pk.values()) for cpf, by_pk in found.items()}


def _vehicle_permits(municipality: Municipality, plates: set[str]) -> dict[str, list[Permit]]:
    if not plates:
        return {}
    rows = (
        Permit.objects.filter(municipality=municipality, vehicle__plate__in=plates)
        .exclude(kind=PermitKind.EMERGENCY)
        .annotate(matched=F("vehicle__plate"))
        .only(*PERMIT_COLUMNS)
    )
    found: dict[str, list[Permit]] = defaultdict(list)
    for permit in rows:
        found[permit.matched].append(permit)  # type: ignore[attr-defined]
    return found
