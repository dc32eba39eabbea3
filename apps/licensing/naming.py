"""What a permit is called, as its regime's law names it (labels.yaml): the instrument for a vehicle, or the
application kind's name for a provisional vehicle or an emergency driver. Used by the PDF, the public lookup and
the screens, so no law's name is written in the apps."""

from __future__ import annotations

from apps.licensing.choices import ApplicationKind, PermitKind
from apps.licensing.models import Permit
from apps.tenancy.regimes import labels_of

# The application kind whose approval issues each kind of permit (its declared label names the permit).
ISSUED_BY = {
    PermitKind.TEMPORARY: ApplicationKind.TEMPORARY_VEHICLE,
    PermitKind.EMERGENCY: ApplicationKind.EMERGENCY_DRIVER,
}


def permit_title(permit: Permit) -> str:
    """The instrument's name, or the declared name of the kind that issued a provisional one."""
    labels = labels_of(permit.regime_id)
    kind = ISSUED_BY.get(PermitKind(permit.kind))
    if kind is not None and kind.value in labels.application_kinds:
        return labels.application_kinds[kind.value].label
    return labels.instrument.name
