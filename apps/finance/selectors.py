"""Reads for finance used by services and by other apps (licensing shows an application's guides)."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError

from apps.finance.choices import FeeKind
from apps.finance.models import FeeSchedule, PaymentGuide
from apps.tenancy.models import Municipality


def fee_in_force(*, municipality: Municipality, regime_id: str, fee_kind: str, on: dt.date) -> FeeSchedule:
    """The fee schedule row in force on ``on`` (latest valid_from ≤ on); ValidationError if none."""
    fee = (
        FeeSchedule.objects.filter(
            municipality=municipality, regime_id=regime_id, fee_kind=fee_kind, valid_from__lte=on
        )
        .order_by("-valid_from")
        .first()
    )
    if fee is None:
        label = FeeKind(fee_kind).label if fee_kind in FeeKind.values else fee_kind
        raise ValidationError(
            {"fee_kind": f"{label}: {municipality.name} não tem esta taxa configurada em {on:%d/%m/%Y}."}
        )
    return fee


def guide_for_update(guide_id: int) -> PaymentGuide:
    """The guide row-locked (PostgreSQL), so two payments or a payment and a cancellation queue up."""
    return PaymentGuide.objects.select_for_update().select_related("municipality").get(pk=guide_id)
