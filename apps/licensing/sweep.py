"""The daily sweep: set-based steps, each one UPDATE or INSERT … over the rows its WHERE selects.

Idempotent by construction: every step's WHERE excludes what a previous run already changed (a permit already
expired is not "in force"; a reminder already in the Reminder table is not sent again). No step loads model
instances to loop over them; the only rows read into Python are the ids and audited columns of what changed, a
batch at a time (locked, then updated by id).

Every row a step changes gets its own audit event in the step's transaction (update_audited, audit_rows: one
batched append per municipality's chain under its lock), so a failed step leaves neither the change nor its
record, and the trail says what happened to each permit, document and application. E-mails go to the outbox in
the same transaction and leave only after it commits.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import islice
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connection, transaction
from django.db.models import Exists, F, OuterRef, QuerySet, Value
from django.db.models.functions import Coalesce, NullIf
from django.utils import timezone

from apps.accounts.actors import SYSTEM_ACTOR_NAME
from apps.audit.services import AuditEntry, audit_record, audit_record_batch
from apps.jobs.services import MailDraft, mail_queue
from apps.licensing import standing_candidates
from apps.licensing.choices import (
    PERMIT_IN_FORCE_STATES,
    REMINDER_DAYS,
    ApplicationState,
    EventKind,
    PermitState,
    ReminderTarget,
)
from apps.licensing.models import Application, ApplicationEvent, Permit, Reminder
from apps.licensing.reminders import reminders_insert
from apps.licensing.services import permit_standing_record
from apps.registry.catalog import kind_labels
from apps.registry.choices import DocumentStatus
from apps.registry.models import Document
from apps.tenancy.models import Municipality
from apps.tenancy.regimes import instrument_for
from apps.tenancy.services import municipality_regimes_sync

BATCH = 5000
DENIAL_AFTER_INSPECTION = (
    "Prazo para sanar as falhas da vistoria encerrado sem nova vistoria aprovada: requerimento indeferido."
)
ARCHIVE_REASON = "Prazo para sanar encerrado sem regularização: pedido arquivado, taxas recolhidas perdidas."


def _batches(rows: Iterator[Any], size: int = BATCH) -> Iterator[list[Any]]:
    while chunk := list(islice(rows, size)):
        yield chunk


# --- the WHERE of each step (shared with the benchmark's bare counts) ------------------------------------


def suspensions_ending(as_of: dt.date) -> QuerySet[Permit]:
    return Permit.objects.filter(state=PermitState.SUSPENDED, suspended_until__lt=as_of)


def permits_past_validity(as_of: dt.date) -> QuerySet[Permit]:
    return Permit.objects.filter(state__in=PERMIT_IN_FORCE_STATES, valid_until__lt=as_of)


def documents_past_validity(as_of: dt.date) -> QuerySet[Document]:
    return Document.objects.filter(status=DocumentStatus.VALID, valid_until__lt=as_of)


def inspections_newly_overdue(as_of: dt.date) -> QuerySet[Permit]:
    return Permit.objects.filter(
        state__in=PERMIT_IN_FORCE_STATES, inspection_due_on__lt=as_of, inspection_overdue=False
    )


def applications_past_cure(as_of: dt.date) -> QuerySet[Application]:
    return Application.objects.filter(state=ApplicationState.PENDING_DOCUMENTS, cure_deadline__lt=as_of)


def applications_failed_past_cure(as_of: dt.date) -> QuerySet[Application]:
    """Awaiting an inspection the vehicle failed, the cure window over (only a failure sets cure_deadline here)."""
    return Application.objects.filter(state=ApplicationState.AWAITING_INSPECTION, cure_deadline__lt=as_of)


def reminder_windows(as_of: dt.date) -> list[tuple[int, dt.date, dt.date]]:
    """(threshold, first day, last day): 60 → 31..60 days ahead, 30 → 8..30, 7 → 0..7 (a late first run
    sends only the nearest reminder, never three at once)."""
    limits = sorted(REMINDER_DAYS)
    windows = []
    for index, days in enumerate(limits):
        lower = limits[index - 1] + 1 if index else 0
        windows.append((days, as_of + dt.timedelta(days=lower), as_of + dt.timedelta(days=days)))
    return windows


def _already_reminded(target: str, days: int) -> Exists:
    return Exists(
        Reminder.objects.filter(
            target=target, target_id=OuterRef("pk"), days_before=days, expires_on=OuterRef("valid_until")
        )
    )


def permits_to_remind(days: int, first: dt.date, last: dt.date) -> QuerySet[Permit]:
    return Permit.objects.filter(
        state=PermitState.ACTIVE, valid_until__gte=first, valid_until__lte=last
    ).filter(~_already_reminded(ReminderTarget.PERMIT, days))


def documents_to_remind(days: int, first: dt.date, last: dt.date) -> QuerySet[Document]:
    return Document.objects.filter(
        status=DocumentStatus.VALID, valid_until__gte=first, valid_until__lte=last
    ).filter(~_already_reminded(ReminderTarget.DOCUMENT, days))


# --- steps --------------------------------------------------------------------------------------------------


PERMIT_AUDITED = ("number", "state", "valid_until", "suspended_until", "closed_on")
DOCUMENT_AUDITED = ("kind", "status", "valid_until")
APPLICATION_AUDITED = ("number", "kind", "state")


def audit_rows(
    rows: Iterable[Mapping[str, Any]],
    *,
    action: str,
    object_type: str,
    before: Callable[[Mapping[str, Any]], dict[str, Any]],
    after: Callable[[Mapping[str, Any]], dict[str, Any]],
    municipalities: Mapping[int, Municipality] | None = None,
) -> int:
    """One audit event per row (each row a dict with ``pk`` and ``municipality_id``), appended to each
    municipality's chain in one batch under its lock, in the caller's transaction. Chains are taken in
    municipality order so two sweeps never lock them in opposite orders. ``municipalities`` (by pk) spares
    the query when the caller has read them already."""
    by_municipality: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        by_municipality[row["municipality_id"]].append(row)
    if municipalities is None:
        municipalities = Municipality.objects.in_bulk(list(by_municipality))
    total = 0
    for municipality_id in sorted(by_municipality):
        entries = (
            AuditEntry(action, object_type, str(row["pk"]), before(row), after(row))
            for row in by_municipality[municipality_id]
        )
        total += audit_record_batch(actor=None, municipality=municipalities[municipality_id], entries=entries)
    return total


def _plain(value: Any) -> Any:
    """A value as the audit trail stores it (what apps.audit.hashing.to_json_safe would make of it): a payload
    of plain values is copied as it is by the chain, instead of walked value by value for every event."""
    if type(value) is dt.date:
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    return value


def _plain_dict(values: Mapping[str, Any]) -> dict[str, Any]:
    return {key: _plain(value) for key, value in values.items()}


def _public(row: Mapping[str, Any]) -> dict[str, Any]:
    return {key: _plain(value) for key, value in row.items() if key not in ("pk", "municipality_id")}


def update_audited(
    rows: QuerySet[Any], *, action: str, changes: dict[str, Any], audited: tuple[str, ...]
) -> int:
    """UPDATE the rows the step's WHERE selects, locked, each with its audit event (before: the audited columns
    as they were; after: the same with the changes) in the same transaction."""
    changed = locked_update(rows, ("pk", "municipality_id", *audited, *changes), changes)
    changed_to = _plain_dict(changes)
    for batch in _batches(iter(changed)):  # a bounded batch of events in memory at a time
        befores = {row["pk"]: _public(row) for row in batch}
        audit_rows(
            batch,
            action=action,
            object_type=rows.model._meta.label_lower,
            before=lambda row, was=befores: was[row["pk"]],  # type: ignore[misc]
            after=lambda row, was=befores: {**was[row["pk"]], **changed_to},  # type: ignore[misc]
        )
    return len(changed)


def locked_update(
    rows: QuerySet[Any], columns: tuple[str, ...], changes: dict[str, Any]
) -> list[dict[str, Any]]:
    """Lock and update what `rows` selects; each changed row's `columns` as they were before, in pk order.

    PostgreSQL: one UPDATE … FROM (the step's SELECT … FOR UPDATE, in pk order so two runs lock alike)
    RETURNING the locked values — no id list goes to the database and back. SQLite (one writer at a time, and
    its RETURNING cannot read the FROM) reads the rows first, then updates them by id a batch at a time."""
    columns = tuple(dict.fromkeys(columns))
    if connection.vendor != "postgresql":
        selected = list(rows.order_by("pk").values(*columns))
        for batch in _batches(iter(selected)):
            rows.model.objects.filter(pk__in=[row["pk"] for row in batch]).update(**changes)
        return selected
    try:
        sql, params = _update_returning(rows, columns, changes)
    except EmptyResultSet:  # a WHERE that can match nothing (an empty id list): nothing to update
        return []
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        changed = [dict(zip(columns, values, strict=True)) for values in cursor.fetchall()]
    return sorted(changed, key=lambda row: row["pk"])


def _update_returning(
    rows: QuerySet[Any], columns: tuple[str, ...], changes: dict[str, Any]
) -> tuple[str, list[Any]]:
    model, quote = rows.model, connection.ops.quote_name
    aliases = {f"was_{name}": F(name) for name in columns}  # the subquery's own names, whatever the ORM's
    locked = rows.select_for_update(of=("self",)).order_by("pk").annotate(**aliases).values(*aliases)
    select, select_params = locked.query.sql_with_params()
    fields = [model._meta.get_field(name) for name in changes]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    values = [field.get_db_prep_save(changes[field.name], connection) for field in fields]
    table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
    returning = ", ".join(f"was.{quote(alias)}" for alias in aliases)
    where, where_params = _own_where(rows)
    sql = (
        f"UPDATE {table} SET {assignments} FROM ({select}) was "
        f"WHERE {table}.{pk} = was.{quote('was_pk')}{where} RETURNING {returning}"
    )
    return sql, [*values, *select_params, *where_params]


def _own_where(rows: QuerySet[Any]) -> tuple[str, list[Any]]:
    """The step's WHERE again, on the updated table itself (`AND (…)`), when it reads that table alone.

    Without it PostgreSQL joins the locked rows to the whole table (a hash join over a sequential scan: every
    document, to change the few hundred that expired); with it, the table is read through the step's own
    index. It changes no row: the locked subquery re-checked the same WHERE on each row's newest version, and
    the lock keeps that version current until the UPDATE."""
    query = rows.query
    if sum(1 for count in query.alias_refcount.values() if count) != 1:
        return "", []  # a WHERE over joined tables: left to the locked subquery alone
    where, params = query.get_compiler(connection=connection).compile(query.where)
    return (f" AND ({where})", list(params)) if where else ("", [])


def lift_suspensions(as_of: dt.date) -> int:
    # The same action as an early end of a suspension (services.permit_reactivate): the permit operates again.
    return update_audited(
        suspensions_ending(as_of),
        action="permit.reactivate",
        audited=PERMIT_AUDITED,
        changes={"state": PermitState.ACTIVE, "suspended_until": None},
    )


def expire_permits(as_of: dt.date) -> int:
    changes = {"state": PermitState.EXPIRED, "closed_on": as_of, "closed_reason": "Validade encerrada."}
    return update_audited(
        permits_past_validity(as_of), action="permit.validity_ended", audited=PERMIT_AUDITED, changes=changes
    )


def expire_documents(as_of: dt.date) -> int:
    return update_audited(
        documents_past_validity(as_of),
        action="document.expired",
        audited=DOCUMENT_AUDITED,
        changes={"status": DocumentStatus.EXPIRED},
    )


def record_standings(as_of: dt.date, *, full: bool = False) -> int:
    """After documents expire: each active permit whose document-driven status changed today gets it recorded
    and audited (permit_standing_record), so the public page, the platforms' check and their feed agree.

    Only the permits whose standing can have changed since the last check are evaluated
    (apps.licensing.standing_candidates explains why that is sound); ``full`` evaluates them all (after a
    deploy that changes a regime's law code, say)."""
    started, marks = timezone.now(), standing_candidates.high_water()
    previous = None if full else standing_candidates.last_check()
    permits = standing_candidates.permits_to_check(as_of, previous)
    evaluated = changed = 0
    for batch in _batches(
        permits.select_related("municipality").order_by("pk").iterator(chunk_size=BATCH), 500
    ):
        evaluated += len(batch)
        changed += permit_standing_record(permits=batch, actor=None, as_of=as_of)
    standing_candidates.record_check(
        as_of=as_of, started=started, marks=marks, evaluated=evaluated, changed=changed
    )
    return changed


def flag_overdue_inspections(as_of: dt.date) -> int:
    return update_audited(
        inspections_newly_overdue(as_of),
        action="permit.inspection_overdue",
        audited=(*PERMIT_AUDITED, "inspection_due_on"),
        changes={"inspection_overdue": True},
    )


def _close_applications(
    rows: QuerySet[Application],
    *,
    as_of: dt.date,
    kind: str,
    note: str,
    changes: dict[str, Any],
    data: Callable[[dict[str, Any]], dict[str, Any]],
) -> int:
    """Close what the WHERE selects: the locked UPDATE, then a timeline line and an audit event each."""
    closed = locked_update(rows, ("pk", "municipality_id", "cure_deadline", *APPLICATION_AUDITED), changes)
    ApplicationEvent.objects.bulk_create(
        (
            ApplicationEvent(
                application_id=row["pk"],
                on=as_of,
                kind=kind,
                actor_name=SYSTEM_ACTOR_NAME,
                state_from=row["state"],
                state_to=changes["state"],
                note=note,
                data=data(row),
            )
            for row in closed
        ),
        batch_size=BATCH,
    )
    changed_to = {**_plain_dict(changes), "note": note}
    audit_rows(
        closed,
        action=f"application.{kind}",
        object_type="licensing.application",
        before=_public,
        after=lambda row: {**_public(row), **changed_to},
    )
    return len(closed)


def archive_past_cure(as_of: dt.date) -> int:
    """Archive what passed its cure deadline (fees forfeited, Patrocínio art. 7), with a timeline line each."""
    changes = {
        "state": ApplicationState.ARCHIVED,
        "archived_reason": ARCHIVE_REASON,
        "fees_forfeited": True,
        "decided_on": as_of,
    }
    return _close_applications(
        applications_past_cure(as_of),
        as_of=as_of,
        kind=EventKind.ARCHIVED,
        note=ARCHIVE_REASON,
        changes=changes,
        data=lambda row: {"fees_forfeited": True},
    )


def deny_failed_inspection_past_cure(as_of: dt.date) -> int:
    """Deny what still failed its inspection when the cure window closed (Patrocínio art. 9 § 3), each with a
    timeline line citing the window the failed inspection opened."""
    changes = {"state": ApplicationState.DENIED, "decided_on": as_of}
    return _close_applications(
        applications_failed_past_cure(as_of),
        as_of=as_of,
        kind=EventKind.DENIED,
        note=DENIAL_AFTER_INSPECTION,
        changes=changes,
        data=lambda row: {"cure_deadline": row["cure_deadline"].isoformat()},
    )


def _email(*paths: str) -> Coalesce:
    return Coalesce(*(NullIf(path, Value("")) for path in paths), Value(""))


PERMIT_EMAIL = ("operator__person__email", "operator__company__email")
DOCUMENT_EMAIL = (
    "person__email",
    "company__email",
    "operator__person__email",
    "operator__company__email",
    "vehicle__operator__person__email",
    "vehicle__operator__company__email",
)


def remind_permits(as_of: dt.date) -> int:
    due = {
        days: permits_to_remind(days, first, last).annotate(recipient=_email(*PERMIT_EMAIL))
        for days, first, last in reminder_windows(as_of)
    }
    sent = _remind(ReminderTarget.PERMIT, due, as_of, _permit_message)
    _refresh_reminder_statistics(sent)
    return sent


def remind_documents(as_of: dt.date) -> int:
    due = {
        days: documents_to_remind(days, first, last).annotate(recipient=_email(*DOCUMENT_EMAIL))
        for days, first, last in reminder_windows(as_of)
    }
    sent = _remind(ReminderTarget.DOCUMENT, due, as_of, _document_messages())
    _refresh_reminder_statistics(sent)
    return sent


def _refresh_reminder_statistics(inserted: int) -> None:
    """After a large insert, PostgreSQL's statistics still describe the small Reminder table of before, and the
    next run's anti-join ("not reminded yet") is planned as a nested loop over it. Refresh them at once."""
    if inserted >= BATCH and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {Reminder._meta.db_table}")


@lru_cache(maxsize=4096)
def _br_date(day: dt.date) -> str:
    """A date as the e-mails write it; a step's thousands of reminders share a few hundred expiry dates."""
    return f"{day:%d/%m/%Y}"


def _permit_message(row: dict[str, Any], days: int) -> tuple[str, str]:
    until = _br_date(row["valid_until"])
    instrument = instrument_for(row["regimes"])
    subject = f"{instrument.title} {row['number']} vence em {until}"
    body = (
        f"{instrument.the(row['number'], capital=True)} do veículo {row['plate']} vence em {until} "
        f"(em {days} dias ou menos). Peça a renovação na Prefeitura antes do vencimento."
    )
    return subject, body


def _document_text(label: str, valid_until: dt.date, days: int) -> tuple[str, str]:
    until = _br_date(valid_until)
    subject = f"{label}: vence em {until}"
    body = (
        f"O documento «{label}» cadastrado na Prefeitura vale até {until} (em {days} dias "
        "ou menos). Envie o documento atualizado antes do vencimento."
    )
    return subject, body


def _document_messages() -> Callable[[dict[str, Any], int], tuple[str, str]]:
    """A step's document e-mails. The text depends only on the kind's label, the expiry date and the window,
    which thousands of reminders share: each text is built once per step, each regime set's labels read once."""
    labels: dict[tuple[str, ...], dict[str, str]] = {}
    texts: dict[tuple[str, dt.date, int], tuple[str, str]] = {}

    def message(row: dict[str, Any], days: int) -> tuple[str, str]:
        regimes = tuple(row["regimes"] or ())
        named = labels.get(regimes)
        if named is None:
            named = labels[regimes] = kind_labels(regimes)
        key = (named.get(row["kind"], row["kind"]), row["valid_until"], days)
        text = texts.get(key)
        if text is None:
            text = texts[key] = _document_text(*key)
        return text

    return message


REMINDED_TYPES: dict[str, str] = {
    ReminderTarget.PERMIT: "licensing.permit",
    ReminderTarget.DOCUMENT: "registry.document",
}


def _nothing(row: Mapping[str, Any]) -> dict[str, Any]:
    return {}


def _remind(
    target: str,
    due: dict[int, QuerySet[Any]],
    as_of: dt.date,
    message: Callable[[dict[str, Any], int], tuple[str, str]],
) -> int:
    """Record the reminders of every window (days before expiry → what is due; unique key: object, threshold,
    expiry date) in one statement, and queue e-mails for those with an address; the outbox (apps.jobs) sends
    them after this step's transaction commits, and retries failures. Each batch of what the INSERT returned
    gets its e-mails and its audit events."""
    municipalities = Municipality.objects.in_bulk()  # their regimes name the documents; their chains log
    total = 0
    for batch in _batches(reminders_insert(target=target, due=due, as_of=as_of)):
        for row in batch:
            row["regimes"] = municipalities[row["municipality_id"]].regimes
        drafts = (
            MailDraft(r["recipient"], *message(r, r["days"]), municipality_id=r["municipality_id"])
            for r in batch
        )
        mail_queue(drafts=drafts, reason=f"licensing.reminder.{target}")
        audit_rows(
            batch,
            action=f"{target}.reminder",
            object_type=REMINDED_TYPES[ReminderTarget(target)],
            before=_nothing,
            after=lambda row: {
                "days_before": row["days"],
                "expires_on": row["valid_until"].isoformat(),
                "mail_queued": bool(row["recipient"]),
            },
            municipalities=municipalities,
        )
        total += len(batch)
    return total


@dataclass(frozen=True)
class Step:
    key: str
    label: str
    run: Callable[[dt.date], int]


# The whole nightly order, by name, in one place: other apps register their steps by name (from their
# AppConfig.ready(), so licensing never imports them) and take the place this list gives them.
SWEEP_ORDER: tuple[str, ...] = (
    "regimes_in_force",  # first: every later step reads the municipality's regimes of the day
    "electronic_ciencia",  # ciência by lapse of electronic notices: the deadlines below may start from it
    "cases_voided",  # a case voided for a lost limit (nullity) must not become final the same night
    "cases_finalized",
    "conditional_cassations",
    "suspensions_held",  # a suspension awaiting its inspection is held before ended ones are lifted
    "suspensions_lifted",
    "permits_expired",
    "documents_expired",
    "standings_recorded",  # after documents expire, so the standing reads today's documents
    "inspections_overdue",
    "missed_inspections",
    "applications_archived",
    "applications_denied_after_inspection",
    "permit_reminders",
    "document_reminders",
    "waiting_guides_issued",  # a guide that waited for a value is issued before people are told of the night
    "notifications",  # last: it tells people of what every step above changed or reminded
)

STEPS: tuple[Step, ...] = (
    Step("regimes_in_force", "Regimes que entram ou saem de vigor", municipality_regimes_sync),
    Step("suspensions_lifted", "Suspensões encerradas", lift_suspensions),
    Step("permits_expired", "Autorizações vencidas", expire_permits),
    Step("documents_expired", "Documentos vencidos", expire_documents),
    Step("standings_recorded", "Situação documental das autorizações", record_standings),
    Step("inspections_overdue", "Vistorias atrasadas", flag_overdue_inspections),
    Step("applications_archived", "Requerimentos arquivados", archive_past_cure),
    Step(
        "applications_denied_after_inspection",
        "Requerimentos indeferidos após vistoria reprovada",
        deny_failed_inspection_past_cure,
    ),
    Step("permit_reminders", "Lembretes de autorizações", remind_permits),
    Step("document_reminders", "Lembretes de documentos", remind_documents),
)
_REGISTERED: dict[str, Step] = {}


def register_sweep_step(name: str, fn: Callable[[dt.date], int], *, label: str) -> None:
    """Let another app add a step; its place is its name's in SWEEP_ORDER. Registering a name again replaces it."""
    if any(step.key == name for step in STEPS):
        raise ValueError(f"sweep step {name!r} is one of licensing's own")
    if name not in SWEEP_ORDER:
        raise ValueError(f"sweep step {name!r} has no place in SWEEP_ORDER; add it there")
    _REGISTERED[name] = Step(name, label, fn)


def sweep_steps() -> tuple[Step, ...]:
    """Every step of the daily sweep, licensing's and the registered ones, in SWEEP_ORDER.

    A name in the order with no step is an error: a step silently missing would skip an effect every night."""
    steps = {step.key: step for step in (*STEPS, *_REGISTERED.values())}
    missing = [name for name in SWEEP_ORDER if name not in steps]
    if missing:
        raise LookupError(f"sweep steps named in SWEEP_ORDER but never registered: {', '.join(missing)}")
    return tuple(steps[name] for name in SWEEP_ORDER)


def run_sweep(
    as_of: dt.date, *, steps: Iterable[Step] | None = None, on_step: Callable[[Step], None] | None = None
) -> dict[str, int]:
    """Run every step in its own transaction (its row changes and their audit events commit together; a failure
    rolls that step back whole and stops the run, keeping the earlier steps), then record the run's totals
    (the metrics' "last sweep"; the per-row events are the record of what changed)."""
    counts: dict[str, int] = {}
    for step in sweep_steps() if steps is None else steps:
        if on_step is not None:
            on_step(step)
        with transaction.atomic():
            counts[step.key] = step.run(as_of)
    with transaction.atomic():
        audit_record(
            actor=None,
            municipality=None,
            action="licensing.daily_sweep",
            object_type="licensing.sweep",
            object_id=as_of.isoformat(),
            after=counts,
        )
    return counts
