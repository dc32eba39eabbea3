"""Collect the tax system's incremental feed (docs/tax-feed.md): fines that became dívida ativa, and what
happened to them afterwards (payment, cancellation, refund). Appending only; each guide once per kind."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict
from typing import Any

from django.db import transaction

from apps.audit.services import audit_record
from apps.dueprocess import active_debt
from apps.finance.choices import GuideStatus, TaxFeedKind
from apps.finance.models import Payment, PaymentGuide, TaxFeedEvent
from apps.tenancy.models import Municipality


def _json(values: dict[str, Any]) -> dict[str, Any]:
    return {key: None if value is None else active_debt._text(value) for key, value in values.items()}


@transaction.atomic
def tax_feed_collect(*, municipality: Municipality, as_of: dt.date) -> int:
    """Append the events not fed yet; returns how many. Safe to run at any time, as often as wanted."""
    Municipality.objects.select_for_update().get(
        pk=municipality.pk
    )  # one collector at a time per municipality
    fed = set(TaxFeedEvent.objects.filter(municipality=municipality).values_list("guide_id", "kind"))
    events = _inscriptions(municipality, as_of, fed) + _outcomes(municipality, fed)
    TaxFeedEvent.objects.bulk_create(events)
    if events:
        audit_record(
            actor=None,
            municipality=municipality,
            action="tax_feed.collect",
            object_type="finance.taxfeedevent",
            after={"events": len(events), "kinds": sorted({event.kind for event in events})},
        )
    return len(events)


def _inscriptions(
    municipality: Municipality, as_of: dt.date, fed: set[tuple[int, str]]
) -> list[TaxFeedEvent]:
    rows = active_debt.unpaid_final_fines(municipality, as_of)
    guides = dict(
        PaymentGuide.objects.filter(
            municipality=municipality, number__in=[row.guide_number for row in rows]
        ).values_list("number", "pk")
    )
    events = []
    for row in rows:
        guide_id = guides[row.guide_number]
        if (guide_id, TaxFeedKind.INSCRIPTION) in fed:
            continue
        payload = _json({k: v for k, v in asdict(row).items() if k != "days_overdue"})
        events.append(
            TaxFeedEvent(
                municipality=municipality,
                guide_id=guide_id,
                kind=TaxFeedKind.INSCRIPTION,
                occurred_on=as_of,
                payload=payload,
            )
        )
    return events


def _outcomes(municipality: Municipality, fed: set[tuple[int, str]]) -> list[TaxFeedEvent]:
    inscribed = {guide_id for guide_id, kind in fed if kind == TaxFeedKind.INSCRIPTION}
    events = []
    guides = PaymentGuide.objects.filter(pk__in=inscribed).exclude(status=GuideStatus.OPEN).order_by("pk")
    for guide in guides:
        for kind, occurred_on, payload in _what_happened(guide):
            if (guide.pk, kind) not in fed:
                events.append(
                    TaxFeedEvent(
                        municipality=municipality,
                        guide=guide,
                        kind=kind,
                        occurred_on=occurred_on,
                        payload=_json(payload),
                    )
                )
    return events


def _what_happened(guide: PaymentGuide) -> list[tuple[str, dt.date, dict[str, Any]]]:
    if guide.status == GuideStatus.CANCELLED and guide.cancelled_on is not None:
        return [(TaxFeedKind.CANCELLATION, guide.cancelled_on, {"reason": guide.cancel_reason})]
    payment = Payment.objects.filter(guide=guide).first()
    if payment is None:
        return []
    happened: list[tuple[str, dt.date, dict[str, Any]]] = [
        (
            TaxFeedKind.PAYMENT,
            payment.paid_on,
            {
                "paid_on": payment.paid_on,
                "amount_brl": payment.amount_brl,
                "method": payment.method,
                "reference": payment.reference,
            },
        )
    ]
    if guide.status == GuideStatus.REFUNDED:
        refunds = payment.refunds.filter(paid_on__isnull=False).order_by("-paid_on")
        last = refunds.first()
        if last is not None and last.paid_on is not None:
            total = sum((refund.amount_brl for refund in refunds), payment.amount_brl * 0)
            happened.append(
                (TaxFeedKind.REFUND, last.paid_on, {"refunded_brl": total, "paid_on": last.paid_on})
            )
    return happened
