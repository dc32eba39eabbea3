"""Writes of notifications: send (idempotent by the event's key, e-mail through the outbox) and mark read.

``notifications_send`` runs inside the transaction of the change that causes the events: the rows, their e-mails
(jobs outbox, delivered after commit and retried) and their audit events commit or roll back with that change.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from apps.accounts.actors import Actor
from apps.audit.services import AuditEntry, audit_record, audit_record_batch
from apps.jobs.models import OutboundMail
from apps.jobs.services import MailDraft, mail_queue_rows
from apps.notifications.models import Notification
from apps.tenancy.models import Municipality

MAIL_REASON = "notifications.notice"


@dataclass(frozen=True)
class Message:
    """What to tell: the event's family and unique key, the text, the article the engine cited, where to act."""

    kind: str
    key: str
    title: str
    body: str
    article: str
    link: str
    due_on: dt.date | None = None


@dataclass(frozen=True)
class Outgoing:
    """One message to one holder (``person_id`` empty) or one of its people, at ``recipient`` (may be empty).
    ``with_reminder``: the e-mail already left with the licensing reminder, so none is queued here."""

    municipality_id: int
    operator_id: int
    person_id: int | None
    recipient: str
    message: Message
    with_reminder: bool = False


def mail_text(message: Message) -> str:
    """The e-mail: the message, the article and the portal page where the person can act."""
    lines = [message.body]
    if message.article:
        lines.append(f"Fundamento legal: {message.article}.")
    lines.append(f"Veja e aja no Portal do autorizatário: {settings.SITE_URL}{message.link}")
    lines.append(f"Todos os seus avisos: {settings.SITE_URL}{reverse('portal:notifications')}")
    return "\n\n".join(lines)


def notifications_send(*, outgoing: Sequence[Outgoing]) -> list[Notification]:
    """Store the notifications whose key is new (a key already stored — the same event seen again — is skipped),
    queue their e-mails and audit them, in the caller's transaction. Returns the ones created."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("notifications_send must run inside the transaction of the event it tells")
    fresh = _new_keys_only(outgoing)
    if not fresh:
        return []
    mailed = [item for item in fresh if item.recipient and not item.with_reminder]
    drafts = (
        MailDraft(i.recipient, i.message.title, mail_text(i.message), i.municipality_id) for i in mailed
    )
    mails = dict(
        zip((id(item) for item in mailed), mail_queue_rows(drafts=drafts, reason=MAIL_REASON), strict=True)
    )
    rows = Notification.objects.bulk_create(_row(item, mails.get(id(item))) for item in fresh)
    _audit(rows)
    return rows


def notification_send(*, outgoing: Outgoing) -> Notification | None:
    """One event (the hooks in other apps' services): the new notification, or None if already sent."""
    rows = notifications_send(outgoing=[outgoing])
    return rows[0] if rows else None


def _new_keys_only(outgoing: Sequence[Outgoing]) -> list[Outgoing]:
    keys = {item.message.key for item in outgoing}
    seen = set(Notification.objects.filter(key__in=keys).values_list("key", flat=True))
    fresh = []
    for item in outgoing:
        if item.message.key not in seen:
            seen.add(item.message.key)
            fresh.append(item)
    return fresh


def _row(item: Outgoing, mail: OutboundMail | None) -> Notification:
    message = item.message
    return Notification(
        municipality_id=item.municipality_id,
        operator_id=item.operator_id,
        person_id=item.person_id,
        kind=message.kind,
        key=message.key,
        title=message.title[:200],
        body=message.body,
        article=message.article[:500],
        link=message.link,
        due_on=message.due_on,
        recipient=item.recipient,
        mail=mail,
        with_reminder=item.with_reminder,
    )


def _audit(rows: Iterable[Notification]) -> None:
    by_municipality: dict[int, list[Notification]] = defaultdict(list)
    for row in rows:
        by_municipality[row.municipality_id].append(row)
    municipalities = Municipality.objects.in_bulk(list(by_municipality))
    for municipality_id in sorted(by_municipality):
        entries = (
            AuditEntry(
                "notification.send",
                "notifications.notification",
                str(row.pk),
                None,
                {"kind": row.kind, "key": row.key, "operator_id": row.operator_id, "mail_id": row.mail_id},
            )
            for row in by_municipality[municipality_id]
        )
        audit_record_batch(actor=None, municipality=municipalities[municipality_id], entries=entries)


@transaction.atomic
def notifications_mark_read(*, actor: Actor, notifications: Iterable[Notification]) -> int:
    """The person opened their list: the unread ones addressed to them become read, with one audit event."""
    rows = [row for row in notifications if row.read_at is None]
    if not rows:
        return 0
    changed = Notification.objects.filter(pk__in=[row.pk for row in rows], read_at__isnull=True).update(
        read_at=timezone.now()
    )
    audit_record(
        actor=actor,
        municipality=rows[0].municipality,
        action="notification.read",
        object_type="notifications.notification",
        object_id=",".join(str(row.pk) for row in rows)[:64],
        after={"ids": [row.pk for row in rows]},
    )
    return changed
