"""The status-change feed platforms read to stop (or resume) dispatching: issue, suspension and its end,
revocation, expiry, and the law's document-driven irregularity and its end.

Three sources, captured into StatusChange idempotently (source_key is unique):
- the municipality's audit chain: every permit service (issue, suspend, reactivate, revoke, cancel, close as
  expired, and permit_standing_record for a lapsed or renewed document) writes an audit row in its own
  transaction, so reading the chain past a watermark misses nothing;
- the Permit table for expiries: the nightly sweep expires permits set-based without a row per permit in the
  audit chain, and a permit past its validity is expired for a platform even before the sweep runs;
- the feed itself for suspensions that ran to their last day: the day after it, the suspension is over (the
  sweep lifts it set-based), unless the permit was suspended again or closed meanwhile.
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

AUDIT_ACTIONS = {
    "permit.issue": ChangeKind.ISSUED,
    "permit.suspend": ChangeKind.SUSPENDED,
    f"permit.{PermitState.REVOKED}": ChangeKind.REVOKED,
    f"permit.{PermitState.CANCELLED}": ChangeKind.CANCELLED,
    f"permit.{PermitState.EXPIRED}": ChangeKind.EXPIRED,
    "permit.reactivate": ChangeKind.LIFTED,
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
    lifts = _lifts(municipality, as_of)  # reads the suspensions just captured too
    StatusChange.objects.bulk_create(lifts, batch_size=1000, ignore_conflicts=True)
    rows += lifts
    if last_id != mark.last_audit_id:
        ChangeWatermark.objects.filter(pk=mark.pk).update(last_audit_id=last_id)
    return len(rows)


def _from_audit(municipality: Municipality, after_id: int) -> tuple[list[StatusChange], int]:
    events = AuditEvent.objects.filter(
        municipality=municipality, object_type="licensing.permit", action__in=AUDIT_ACTIONS, pk__gt=after_id
    ).order_by("pk")
    events_list = list(events.values("pk", "action", "object_id", "occurred_at", "after"))
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
    effective: Any = {
        ChangeKind.ISSUED: after.get("valid_from"),
        ChangeKind.IRREGULAR: after.get("since"),
        ChangeKind.REGULARIZED: after.get("since"),
        ChangeKind.LIFTED: None,
    }.get(kind, after.get("closed_on"))
    return StatusChange(
        municipality=municipality,
        permit=permit,
        kind=kind,
        permit_number=permit.number,
        plate=permit.vehicle.plate,
        valid_until=_date(after.get("valid_until")) or permit.valid_until,
        suspended_until=_date(after.get("suspended_until")) or _date(after.get("until")),
        reason=str(after.get("reason") or ""),
        effective_on=_date(effective) or event["occurred_at"].date(),
        source_key=f"audit:{event['pk']}",
    )


def _standing_kind(after: dict[str, Any]) -> ChangeKind:
    """A recorded lapse (irregular, or suspended by the documents) or its end (regular again)."""
    return ChangeKind.REGULARIZED if after.get("status") == "regular" else ChangeKind.IRREGULAR


def _lifts(municipality: Municipality, as_of: dt.date) -> list[StatusChange]:
    """Suspensions in the feed whose last day is past, not yet followed by their end, a new suspension or a
    closing: the day after the last day, platforms may dispatch the permit again."""
    ran = StatusChange.objects.filter(
        municipality=municipality, kind=ChangeKind.SUSPENDED, suspended_until__lt=as_of
    ).select_related("permit")
    later = _later_changes(municipality, {c.permit_id for c in ran})
    rows = []
    for change in ran:
        assert change.suspended_until is not None  # filtered above
        ended = change.suspended_until + dt.timedelta(days=1)
        if any(c.pk > change.pk for c in later.get(change.permit_id, [])):
            continue  # lifted early, suspended again or closed: that change says what followed
        rows.append(
            StatusChange(
                municipality=municipality,
                permit=change.permit,
                kind=ChangeKind.LIFTED,
                permit_number=change.permit_number,
                plate=change.plate,
                valid_until=change.valid_until,
                effective_on=ended,
                source_key=f"lifted:{change.pk}",
            )
        )
    return rows


def _later_changes(municipality: Municipality, permit_ids: set[int]) -> dict[int, list[StatusChange]]:
    kinds = (
        ChangeKind.LIFTED,
        ChangeKind.SUSPENDED,
        ChangeKind.REVOKED,
        ChangeKind.CANCELLED,
        ChangeKind.EXPIRED,
    )
    found: dict[int, list[StatusChange]] = {}
    rows = StatusChange.objects.filter(municipality=municipality, permit_id__in=permit_ids, kind__in=kinds)
    for change in rows.only("pk", "permit_id", "kind"):
        found.setdefault(change.permit_id, []).append(change)
    return found


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
            rows.append(StatusChange(
                municipality=municipality, permit=permit, kind=ChangeKind.EXPIRED, permit_number=permit.number,
                plate=permit.vehicle.plate, valid_until=permit.valid_until,
                effective_on=permit.valid_until + dt.timedelta(days=1), source_key=f"expiry:{permit.pk}",
            ))  # fmt: skip
    return rows


def _date(value: Any) -> dt.date | None:
    return dt.date.fromisoformat(value[:10]) if isinstance(value, str) and value else None


def feed(municipality: Municipality, *, since: int, limit: int) -> list[StatusChange]:
    return list(StatusChange.objects.filter(municipality=municipality, pk__gt=since).order_by("pk")[:limit])


def change_to_dict(change: StatusChange) -> dict[str, Any]:
    return {
        "id": change.pk, "kind": change.kind, "effective_on": change.effective_on.isoformat(),
        "permit_number": change.permit_number, "plate": change.plate,
        "valid_until": change.valid_until.isoformat() if change.valid_until else None,
        "suspended_until": change.suspended_until.isoformat() if change.suspended_until else None,
        "reason": change.reason,
    }  # fmt: skip
