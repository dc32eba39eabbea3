"""Which active permits the daily standings step must evaluate: those whose document-driven status can have
changed since the last recorded check.

Every check (``record_check``) leaves an audit event with the day it judged and the moment it started. On the
next day ``D`` after a check of day ``L`` that started at ``T``, a permit's ``document_standing`` can differ from
the one stored only if

- a mandatory document of its holder, vehicle or driver crosses a day boundary in ``(L, D]``: its validity
  (or, for a kind a regime may tolerate, its tolerance — CTB art. 162 V) ends, or a copy's issue date arrives;
  the same for a driver's CNH expiry;
- a document, driver, operator or the permit itself changed since ``T`` (every write goes through a service
  that audits it), or was created after the check (its id above the check's high-water mark: a bulk import
  that writes no event per row is caught too), or the municipality's law configuration changed (an
  interpretation read differently, a parameter) — then all the municipality's permits;
- its validity starts in ``(L, D]``.

Anything else is the same evaluation of the same facts, and the law is deterministic: after each check every
active permit stores the decision of day ``L`` (the candidates were just evaluated, the others' facts and dates
did not move), and that holds for a stored lapse too — only a renewal, which is a change above, lifts it. With
no earlier check, or a check of a later day (a replay of the past), every active permit is evaluated. ``T`` is
taken a margin early so a change committed by a transaction that started just before the check is not missed.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Max, Q, QuerySet

import lawcode
from apps.audit.models import AuditEvent
from apps.audit.services import audit_record
from apps.licensing.choices import PermitState
from apps.licensing.models import Permit
from apps.registry.models import Document, Driver

CHECK_ACTION = "licensing.standings_checked"
MARGIN = dt.timedelta(hours=1)
OWNER_COLUMNS = ("person_id", "company_id", "vehicle_id", "operator_id")
# Audited changes that never move a standing: a recorded standing is a consequence (what moved it is audited on
# its own, or is the sweep's check of that day); a document marked expired keeps its validity date, which is
# what the standing reads (its lapse is a day boundary); an overdue inspection or a reminder e-mail is not a
# document.
INERT_ACTIONS = (
    "permit.standing",
    "document.expired",
    "permit.inspection_overdue",
    "permit.reminder",
    "document.reminder",
)


HIGH_WATER: dict[str, type[Permit] | type[Document] | type[Driver]] = {
    "permit": Permit,
    "document": Document,
    "driver": Driver,
}


@dataclass(frozen=True)
class LastCheck:
    as_of: dt.date
    started: dt.datetime
    high_water: dict[str, int]  # the largest id of each table when the check started


def high_water() -> dict[str, int]:
    return {name: model.objects.aggregate(top=Max("pk"))["top"] or 0 for name, model in HIGH_WATER.items()}


def last_check() -> LastCheck | None:
    event = AuditEvent.objects.filter(action=CHECK_ACTION).order_by("-occurred_at", "-pk").first()
    if event is None or not event.after or "high_water" not in event.after:
        return None
    after = event.after
    return LastCheck(
        dt.date.fromisoformat(after["as_of"]),
        dt.datetime.fromisoformat(after["started"]),
        after["high_water"],
    )


def record_check(
    *, as_of: dt.date, started: dt.datetime, marks: dict[str, int], evaluated: int, changed: int
) -> None:
    """The anchor of the next day's pre-filter, in the step's transaction (no anchor if the step fails)."""
    audit_record(
        actor=None,
        municipality=None,
        action=CHECK_ACTION,
        object_type="licensing.sweep",
        object_id=as_of.isoformat(),
        after={
            "as_of": as_of.isoformat(),
            "started": started.isoformat(),
            "high_water": marks,
            "evaluated": evaluated,
            "changed": changed,
        },
    )


def permits_to_check(as_of: dt.date, previous: LastCheck | None) -> QuerySet[Permit]:
    """The active permits whose standing may have changed since ``previous`` (all of them without one)."""
    active = Permit.objects.filter(state=PermitState.ACTIVE)
    if previous is None or previous.as_of > as_of:
        return active
    return active.filter(pk__in=candidate_ids(as_of, previous))


def candidate_ids(as_of: dt.date, previous: LastCheck) -> set[int]:
    since = previous.started - MARGIN
    changed = _audited_since(since)
    marks = previous.high_water
    owners = _owners_of(
        _documents_near(as_of, previous.as_of, marks["document"], changed["registry.document"])
    )
    drivers = _drivers_near(as_of, previous.as_of, marks["driver"], changed["registry.driver"])
    operators = owners["operator_id"] | {d.operator_id for d in drivers} | changed["registry.operator"]
    people = owners["person_id"] | {d.person_id for d in drivers}
    touched = (
        Q(pk__in=changed["licensing.permit"])
        | Q(pk__gt=marks["permit"])
        | Q(valid_from__gt=previous.as_of, valid_from__lte=as_of)
        | Q(vehicle_id__in=owners["vehicle_id"])
        | Q(operator_id__in=operators)
        | Q(operator__person_id__in=people)
        | Q(operator__company_id__in=owners["company_id"])
        | Q(driver__person_id__in=people)
        | Q(municipality_id__in=_reconfigured_since(since))
    )
    return set(Permit.objects.filter(state=PermitState.ACTIVE).filter(touched).values_list("pk", flat=True))


def _audited_since(since: dt.datetime) -> defaultdict[str, set[int]]:
    types = ("registry.document", "registry.driver", "registry.operator", "licensing.permit")
    events = AuditEvent.objects.filter(occurred_at__gte=since, object_type__in=types)
    rows = events.exclude(action__in=INERT_ACTIONS).values_list("object_type", "object_id")
    found: defaultdict[str, set[int]] = defaultdict(set)
    for object_type, object_id in rows:
        if object_id.isdigit():
            found[object_type].add(int(object_id))
    return found


def _reconfigured_since(since: dt.datetime) -> QuerySet[AuditEvent, int | None]:
    """Municipalities whose law configuration (an interpretation, a parameter…) changed since ``since``."""
    return AuditEvent.objects.filter(
        occurred_at__gte=since, object_type__startswith="lawconfig."
    ).values_list("municipality_id", flat=True)


def _tolerances() -> dict[int, set[str]]:
    """Days of tolerance → the kinds that may have it (under a reading the municipality may choose)."""
    found: dict[int, set[str]] = defaultdict(set)
    for regime_id in lawcode.regime_ids():
        standing = lawcode.get_regime(regime_id).standing
        for item in standing.mandatory if standing is not None else ():
            if item.tolerance is not None:
                found[item.tolerance.days].add(item.kind)
    return found


def _lapsing(column: str, last: dt.date, as_of: dt.date, grace: int) -> Q:
    """``column`` (a last valid day) whose lapse — the day after it, or after ``grace`` days of tolerance —
    falls in (last, as_of]."""
    shift = dt.timedelta(days=grace)
    return Q(**{f"{column}__gte": last - shift, f"{column}__lt": as_of - shift})


def _boundary(last: dt.date, as_of: dt.date) -> Q:
    near = _lapsing("valid_until", last, as_of, 0)
    for grace, kinds in _tolerances().items():
        near |= _lapsing("valid_until", last, as_of, grace) & Q(kind__in=kinds)
    return near


def _mandatory_kinds() -> set[str]:
    return {
        kind
        for regime_id in lawcode.regime_ids()
        if (standing := lawcode.get_regime(regime_id).standing) is not None
        for kind in standing.kinds()
    }


def _documents_near(as_of: dt.date, last: dt.date, mark: int, changed: set[int]) -> list[QuerySet[Document]]:
    """The mandatory documents near a boundary or new, and those audited since: two plain queries (one OR
    over a long id list makes PostgreSQL scan the table)."""
    kinds = _mandatory_kinds()
    near = _boundary(last, as_of) | Q(issue_date__gt=last, issue_date__lte=as_of) | Q(pk__gt=mark)
    return [
        Document.objects.filter(near, kind__in=kinds),
        Document.objects.filter(pk__in=changed, kind__in=kinds),
    ]


def _owners_of(queries: list[QuerySet[Document]]) -> dict[str, set[int]]:
    owners: dict[str, set[int]] = {column: set() for column in OWNER_COLUMNS}
    for documents in queries:
        for row in documents.values_list(*OWNER_COLUMNS):
            for column, value in zip(OWNER_COLUMNS, row, strict=True):
                if value is not None:
                    owners[column].add(value)
    return owners


def _drivers_near(as_of: dt.date, last: dt.date, mark: int, changed: set[int]) -> Iterable[Driver]:
    expiring = _lapsing("cnh_expiry", last, as_of, 0)
    for grace in _tolerances():  # the CNH on the driver's record may be tolerated too
        expiring |= _lapsing("cnh_expiry", last, as_of, grace)
    rows = Driver.objects.filter(expiring | Q(pk__gt=mark) | Q(pk__in=changed))
    return rows.only("pk", "operator_id", "person_id")
