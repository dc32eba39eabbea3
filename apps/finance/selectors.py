"""Reads for finance used by services and by other apps (licensing shows an application's guides)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from apps.finance.choices import FeeKind, OriginType, WaitingState
from apps.finance.models import FeeSchedule, FineValuation, PaymentGuide, WaitingGuide
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


def fine_valuation_current(*, origin_type: str, origin_id: int) -> FineValuation | None:
    """The valuation a fine's guide charges now: the latest (a re-valuation replaces the one before it)."""
    return FineValuation.objects.filter(origin_type=origin_type, origin_id=origin_id).order_by("-id").first()


def fine_valuations(*, origin_type: str, origin_id: int) -> QuerySet[FineValuation]:
    """Every valuation of a fine, first to last (the first, then each re-valuation with its reason)."""
    return FineValuation.objects.filter(origin_type=origin_type, origin_id=origin_id).order_by("id")


def waiting_guide(*, origin_type: str, origin_id: int) -> WaitingGuide | None:
    """The origin's guide waiting for a value, if one waits."""
    return WaitingGuide.objects.filter(
        origin_type=origin_type, origin_id=origin_id, state=WaitingState.WAITING
    ).first()


def waiting_guides(municipality: Municipality) -> QuerySet[WaitingGuide]:
    """The municipality's queue of guides waiting for a value, oldest first."""
    return WaitingGuide.objects.filter(municipality=municipality, state=WaitingState.WAITING).order_by(
        "requested_on", "id"
    )


@dataclass(frozen=True)
class FineCharge:
    """What reaches a fine's guide, read in one place for every screen (the case page, the portal, finance):
    the valuation the guide charges, every valuation before it with its reason, and the guide waiting for a
    value, if one waits."""

    valuation: FineValuation | None
    history: tuple[FineValuation, ...]
    waiting: WaitingGuide | None

    @property
    def revalued(self) -> bool:
        return len(self.history) > 1


def fine_charge(*, origin_id: int) -> FineCharge:
    """The fine's charge as every screen shows it (``origin_id``: the sanction)."""
    history = tuple(fine_valuations(origin_type=OriginType.FINE, origin_id=origin_id))
    return FineCharge(
        valuation=history[-1] if history else None,
        history=history,
        waiting=waiting_guide(origin_type=OriginType.FINE, origin_id=origin_id),
    )
