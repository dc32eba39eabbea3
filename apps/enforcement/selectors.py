"""Reads of enforcement: the plate lookup the agent's form runs, and the lists the screens share."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Q

from apps.licensing.choices import PERMIT_IN_FORCE_STATES
from apps.licensing.models import Permit
from apps.registry.identifiers import normalize_plate, plate_format
from apps.registry.models import Driver, Operator, Vehicle
from apps.tenancy.models import Municipality

_LETTER_TO_DIGIT = {letter: str(digit) for digit, letter in enumerate("ABCDEFGHIJ")}


@dataclass
class PlateLookup:
    """What the registry knows about a plate: vehicle, permit in force, operator and its drivers."""

    plate: str
    vehicle: Vehicle | None = None
    permit: Permit | None = None
    operator: Operator | None = None
    drivers: list[Driver] = field(default_factory=list)

    @property
    def clandestine(self) -> bool:
        """No permit in force for this plate: transport without authorization."""
        return self.permit is None


def plate_variants(plate: str) -> set[str]:
    """The plate and its other form: an old plate and its Mercosul conversion identify the same vehicle."""
    plate = normalize_plate(plate)
    variants = {plate}
    if plate_format(plate) == "old":
        variants.add(plate[:4] + "ABCDEFGHIJ"[int(plate[4])] + plate[5:])
    elif plate_format(plate) == "mercosul" and plate[4] in _LETTER_TO_DIGIT:
        variants.add(plate[:4] + _LETTER_TO_DIGIT[plate[4]] + plate[5:])
    return variants


def lookup_plate(municipality: Municipality, plate: str, regime_id: str | None = None) -> PlateLookup:
    """The vehicle with this plate in the municipality, its permit in force (if any), operator and drivers."""
    found = PlateLookup(plate=normalize_plate(plate))
    found.vehicle = (
        Vehicle.objects.filter(municipality=municipality, plate__in=plate_variants(plate))
        .select_related("operator__person", "operator__company")
        .first()
    )
    if found.vehicle is None:
        return found
    permits = Permit.objects.filter(vehicle=found.vehicle, state__in=PERMIT_IN_FORCE_STATES)
    if regime_id:
        permits = permits.filter(regime_id=regime_id)
    found.permit = permits.select_related("operator").order_by("-valid_from").first()
    found.operator = found.permit.operator if found.permit else found.vehicle.operator
    if found.operator is not None:
        found.drivers = _drivers(found.operator, found.vehicle)
    return found


def _drivers(operator: Operator, vehicle: Vehicle) -> list[Driver]:
    """The operator's active drivers, the ones assigned to this vehicle first."""
    rows = Driver.objects.filter(operator=operator, active=True).select_related("person")
    return sorted(
        rows.filter(Q(vehicle=vehicle) | Q(vehicle__isnull=True)), key=lambda d: d.vehicle_id is None
    )


def notice_limit_passed(notice_limit: dt.date | None, as_of: dt.date) -> bool:
    return notice_limit is not None and as_of > notice_limit
