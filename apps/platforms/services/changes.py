"""The status-change feed platforms read to stop (or resume) dispatching: issue, suspension and its end,
revocation, expiry, and the law's document-driven irregularity and its end.

Two sources, captured into StatusChange idempotently (source_key is unique):
- the municipality's audit chain: every permit service (issue, suspend, reactivate, revoke, cancel, close as
  expired, and permit_standing_record for a lapsed or renewed document) writes an audit row in its own
  transaction, so reading the chain past a watermark misses nothing;
- the Permit table for expiries: a permit past its validity is expired for a platform even before the sweep
  runs.
A suspension that runs its course ends with the sweep's ``permit.reactivate`` event (one per permit), fed as
``lifted`` effective the day after its last day.
The watermark row is locked while capturing, so captures of one municipality are serialized and StatusChange
ids grow in commit order: a reader that saw id N will never later find a new row below N.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from apps.audit.models import AuditEvent
from apps.licensing.choices import PERMIT_IN_FORCE_STATES, PermitState
from apps.licensing.models import Permit
from apps.platforms.choices import ChangeKind
from apps.platforms.models import ChangeWatermark, StatusChange
from apps.tenancy.models import Municipality
from outorga.localdates import local_date

AUDIT_ACTIONS = {
    "permit.issue": ChangeKind.ISSUED,
    "permit.suspend": ChangeKind.SUSPENDED,
    f"permit.{PermitState.REVOKED}": ChangeKind.REVOKED,
    f"permit.{PermitState.CANCELLED}": ChangeKind.CANCELLED,
    f"permit.{PermitState.EXPIRED}": ChangeKind.EXPIRED,
    "permit.reactivate": ChangeKind.LIFTED,  # lifted early, or by the sweep the day after its last day
    "permit.standing": ChangeKind.IRREGULAR,  # or REGULARIZED, by the status recorded (_standing_kind)
}
PERMIT_COLUMNS = ("pk", "number", "state", "valid_until", "suspended_until", "closed_on", "vehicle__plate")


@transaction.atomic
def capture(municipality: Municipality, *, as_of: dt.date) -> int:
    """Bring the feed up to date for `as_of`; returns how many changes were added."""
    mark, _ = ChangeWatermark.objects.get_or_create(municipality=municipality)
    mark = ChangeWatermark.objects.select_for_update().get(pk=mark.pk)
    rows, last_id = _from_audit(municipality, mark.last_audit_id)
    rows += _expiries(municipality, as_of, {r.permit_id for r in rows if r.kind == ChangeKind.EXPIRED})
    StatusChange.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)
    if last_id != mark.last_audit_id:
        ChangeWatermark.objects.filter(pk=mark.pk).update(last_audit_id=last_id)
    return len(rows)


def _from_audit(municipality: Municipality, after_id: int) -> tuple[list[StatusChange], int]:
    events = AuditEvent.objects.filter(
        municipality=municipality, object_type="licensing.permit", action__in=AUDIT_ACTIONS, pk__gt=after_id
    ).order_by("pk")
    events_list = list(events.values("pk", "action", "object_id", "occurred_at", "before", "after"))
    permits = (
        Permit.objects.select_related("vehicle")
        .only(*PERMIT_COLUMNS)
        .in_bulk({int(e["object_id"]) for e in events_list})
    )
    rows = [_change_from_event(dict(e), permits[int(e["object_id"])], municipality) for e in events_list]
    return rows, (events_list[-1]["pk"] if events_list else after_id)


def _change_from_event(event: dict[str, Any], permit: Permit, municipality: Municipality) -> StatusChange:
    after = event["after"] or {}
    kind = _standing_kind(after) if event["action"] == "permit.standing" else AUDIT_ACTIONS[event["action"]]
    return StatusChange(
        municipality=municipality,
        permit=permit,
        kind=kind,
        permit_number=permit.number,
        plate=permit.vehicle.plate,
        valid_until=_date(after.get("valid_until")) or permit.valid_until,
        suspended_until=_date(after.get("suspended_until")) or _date(after.get("until")),
        reason=str(after.get("reason") or ""),
        effective_on=_effective_on(kind, event),
        source_key=f"audit:{event['pk']}",
    )


def _effective_on(kind: ChangeKind, event: dict[str, Any]) -> dt.date:
    """The day the change takes effect: a suspension ends the day after its last day (the sweep lifts it that
    night) or on the day it is lifted early; a lapse or its end on the day the law saw it; the rest on the day
    the act records (validity start, closing), else the day of the event."""
    before, after = event["before"] or {}, event["after"] or {}
    recorded: dt.date = local_date(event["occurred_at"])
    if kind == ChangeKind.LIFTED:
        last = _date(before.get("suspended_until"))
        return min(last + dt.timedelta(days=1), recorded) if last else recorded
    named: dict[str, str] = {
        ChangeKind.ISSUED: "valid_from",
        ChangeKind.IRREGULAR: "since",
        ChangeKind.REGULARIZED: "since",
    }
    return _date(after.get(named.get(kind, "closed_on"))) or recorded


def _standing_kind(after: dict[str, Any]) -> ChangeKind:
    """A recorded lapse (irregular, or suspended by the documents) or its end (regular again)."""
    return ChangeKind.REGULARIZED if after.get("status") == "regular" else ChangeKind.IRREGULAR


def _expiries(municipality: Municipality, as_of: dt.date, already: set[int]) -> list[StatusChange]:
    """Permits whose validity ended before `as_of` (swept or not) with no expiry in the feed yet."""
    recorded = StatusChange.objects.filter(municipality=municipality, kind=ChangeKind.EXPIRED).values(
        "permit_id"
    )
    lapsed = (
        Permit.objects.filter(municipality=municipality, valid_until__lt=as_of)
        .filter(state__in=[*PERMIT_IN_FORCE_STATES, PermitState.EXPIRED])
        .exclude(pk__in=recorded)
        .select_related("vehicle")
        .only(*PERMIT_COLUMNS)
    )
    rows = []
    for permit in lapsed.iterator(chunk_size=2000):
        assert permit.valid_until is not None  # filtered above
        if permit.pk not in already:
            rows.append(
                StatusChange(
                    municipality=municipality,
                    permit=permit,
                    kind=ChangeKind.EXPIRED,
                    permit_number=permit.number,
                    plate=permit.vehicle.plate,
                    valid_until=permit.valid_until,
                    effective_on=permit.valid_until + dt.timedelta(days=1),
                    source_key=f"expiry:{permit.pk}",
                )
            )
    return rows


def _date(value: Any) -> dt.date | None:
    return dt.date.fromisoformat(value[:10]) if isinstance(value, str) and value else None


def feed(municipality: Municipality, *, since: int, limit: int) -> list[StatusChange]:
    return list(StatusChange.objects.filter(municipality=municipality, pk__gt=since).order_by("pk")[:limit])


def change_to_dict(change: StatusChange) -> dict[str, Any]:
    return {
        "id": change.pk,
        "kind": change.kind,
        "effective_on": change.effective_on.isoformat(),
        "permit_number": change.permit_number,
        "plate": change.plate,
        "valid_until": change.valid_until.isoformat() if change.valid_until else None,
        "suspended_until": change.suspended_until.isoformat() if change.suspended_until else None,
        "reason": change.reason,
    }
