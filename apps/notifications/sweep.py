"""The time-driven notifications: one daily sweep step (registered in apps.py) that reads what the other steps
and services stored and tells each holder or driver once.

- documents and permits about to expire: the licensing reminders recorded today (the reminder already
  e-mailed them, so the notification is the portal copy and points at that e-mail);
- cure windows, guides and calendar inspections whose day is near or passed, and suspensions starting or
  ending (the penalty effects dueprocess recorded, with the sanction's articles).

Each notification's key names the event and its date, so running the sweep twice (or a late run after a
missed day) tells nobody twice. ``SOON_DAYS`` is the nearest reminder threshold: a deadline closer than that
is told once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from itertools import islice

from django.db.models import Q
from django.urls import reverse

from apps.dueprocess.models import Effect
from apps.dueprocess.services.effects import RUNNING, SUSPENDING, catalog
from apps.finance.choices import GuideStatus
from apps.finance.models import PaymentGuide
from apps.inspections.models import MissedInspection
from apps.lawconfig.config import citation_text
from apps.licensing.choices import PERMIT_IN_FORCE_STATES, REMINDER_DAYS, ApplicationState, ReminderTarget
from apps.licensing.models import Application, Permit, Reminder
from apps.notifications import events
from apps.notifications.choices import NotificationKind as K
from apps.notifications.models import Notification
from apps.notifications.recipients import cited, to_holder, to_person
from apps.notifications.services import Message, Outgoing, notifications_send
from apps.registry.catalog import kind_labels
from apps.registry.models import Attendant, Document, Driver, Operator
from apps.tenancy.regimes import instrument_of

SOON_DAYS = min(REMINDER_DAYS)
BATCH = 1000
CURE_STATES = (ApplicationState.PENDING_DOCUMENTS, ApplicationState.AWAITING_INSPECTION)


def notify_deadlines(as_of: dt.date) -> int:
    """Every time-driven family, in the sweep step's transaction; the number of notifications created."""
    families = (
        _reminded_permits,
        _reminded_documents,
        _cure_ending,
        _guides_due,
        _inspections_overdue,
        _missed_inspections,
        _suspensions_started,
        _suspensions_ended,
    )
    return sum(_send_in_batches(family(as_of)) for family in families)


def _send_in_batches(outgoing: Iterator[Outgoing]) -> int:
    total = 0
    while batch := list(islice(outgoing, BATCH)):
        total += len(notifications_send(outgoing=batch))
    return total


def _soon(as_of: dt.date) -> tuple[dt.date, dt.date]:
    return as_of, as_of + dt.timedelta(days=SOON_DAYS)


# --- the reminders' portal copy ----------------------------------------------------------------------------


def _reminder_key(reminder: Reminder) -> str:
    return f"reminder:{reminder.pk}"


def _untold_reminders(target: str, as_of: dt.date) -> Iterator[list[Reminder]]:
    """Reminders of the last days (a missed sweep day is caught up) whose object has not expired yet and that
    no notification copies yet, a batch at a time: a second run the same day loads no permit or document."""
    since = as_of - dt.timedelta(days=SOON_DAYS)
    rows = Reminder.objects.filter(
        target=target, sent_on__gte=since, sent_on__lte=as_of, expires_on__gte=as_of
    ).order_by("pk")
    iterator = rows.iterator(chunk_size=BATCH)
    while batch := list(islice(iterator, BATCH)):
        keys = [_reminder_key(reminder) for reminder in batch]
        told = set(Notification.objects.filter(key__in=keys).values_list("key", flat=True))
        if fresh := [reminder for reminder in batch if _reminder_key(reminder) not in told]:
            yield fresh


def _reminder_message(
    reminder: Reminder, kind: str, title: str, body: str, article: str, link: str
) -> Message:
    return Message(kind, _reminder_key(reminder), title, body, article, link, reminder.expires_on)


def _with_reminder(item: Outgoing, reminder: Reminder) -> Outgoing:
    return Outgoing(
        item.municipality_id, item.operator_id, item.person_id, reminder.recipient, item.message, True
    )


def _reminded_permits(as_of: dt.date) -> Iterator[Outgoing]:
    for batch in _untold_reminders(ReminderTarget.PERMIT, as_of):
        permits = Permit.objects.select_related("operator__person", "operator__company", "vehicle").in_bulk(
            [reminder.target_id for reminder in batch]
        )
        for reminder in batch:
            permit = permits[reminder.target_id]
            body = (
                f"{instrument_of(permit.regime_id).the(permit.number, capital=True)} do veículo "
                f"{permit.vehicle.plate_display} vence em "
                f"{reminder.expires_on:%d/%m/%Y}. Peça a renovação pelo portal antes do vencimento."
            )
            link = reverse("portal:application-new")
            title = f"{instrument_of(permit.regime_id).title} {permit.number} vence em {reminder.expires_on:%d/%m/%Y}"
            message = _reminder_message(
                reminder, K.PERMIT_EXPIRING, title, body, cited(permit.decision), link
            )
            yield _with_reminder(to_holder(permit.operator, message), reminder)


DOCUMENT_OWNERS = (
    "municipality",
    "person",
    "operator__person",
    "operator__company",
    "vehicle__operator__person",
    "vehicle__operator__company",
)


def _reminded_documents(as_of: dt.date) -> Iterator[Outgoing]:
    for batch in _untold_reminders(ReminderTarget.DOCUMENT, as_of):
        documents = Document.objects.select_related(*DOCUMENT_OWNERS).in_bulk([r.target_id for r in batch])
        people = _operators_by_person({d.person_id for d in documents.values() if d.person_id is not None})
        for reminder in batch:
            document = documents[reminder.target_id]
            message = _document_message(reminder, document)
            for item in _document_recipients(document, message, people):
                yield _with_reminder(item, reminder)


def _document_message(reminder: Reminder, document: Document) -> Message:
    label = kind_labels(tuple(document.municipality.regimes or ())).get(document.kind, "Documento")
    body = (
        f"O documento «{label}» vale até {reminder.expires_on:%d/%m/%Y}. Envie o documento atualizado pelo "
        "portal antes do vencimento."
    )
    article = cited(document.decision) or document.decision.get("declared_validity", {}).get("text", "")
    title = f"{label}: vence em {reminder.expires_on:%d/%m/%Y}"
    return _reminder_message(reminder, K.DOCUMENT_EXPIRING, title, body, article, reverse("portal:documents"))


def _document_recipients(
    document: Document, message: Message, people: dict[int, list[Operator]]
) -> Iterator[Outgoing]:
    """The holder of an operator's or vehicle's document; the person of a personal one, as the holder of the
    operator they hold or else at the first operator they drive or work for (one notification per reminder:
    the person's portal shows their own notifications whichever operator it came through)."""
    owner = document.operator or (document.vehicle.operator if document.vehicle else None)
    if owner is not None:
        yield to_holder(owner, message)
    elif document.person is not None:
        person = document.person
        yield from (to_person(operator, person, message) for operator in people.get(person.pk, [])[:1])
    elif document.company_id is not None:
        for operator in Operator.objects.filter(company_id=document.company_id).select_related("company"):
            yield to_holder(operator, message)


def _operators_by_person(person_ids: set[int]) -> dict[int, list[Operator]]:
    """Each person's operators: the one they hold, and those they drive or work for (active links)."""
    found: dict[int, list[Operator]] = {}
    holders = Operator.objects.filter(person_id__in=person_ids).select_related("person").order_by("pk")
    links = [
        *Driver.objects.filter(person_id__in=person_ids, active=True).select_related("operator__person"),
        *Attendant.objects.filter(person_id__in=person_ids, active=True).select_related("operator__person"),
    ]
    pairs = [(operator.person_id, operator) for operator in holders] + [
        (link.person_id, link.operator) for link in links
    ]
    for person_id, operator in pairs:
        if person_id is not None and operator not in found.setdefault(person_id, []):
            found[person_id].append(operator)
    return found


# --- other dated deadlines ---------------------------------------------------------------------------------


def _cure_ending(as_of: dt.date) -> Iterator[Outgoing]:
    rows = Application.objects.filter(state__in=CURE_STATES, cure_deadline__range=_soon(as_of))
    for application in rows.select_related("operator__person", "operator__company").order_by("pk"):
        message = Message(
            K.CURE_ENDING,
            f"application:{application.pk}:cure_ending:{application.cure_deadline}",
            f"Requerimento {application.number}: prazo para sanar termina em {application.cure_deadline:%d/%m/%Y}",
            (
                f"O prazo para sanar as pendências do requerimento {application.number} termina em "
                f"{application.cure_deadline:%d/%m/%Y}. Depois dele o pedido é encerrado."
            ),
            cited(application.last_decision),
            reverse("portal:application", args=[application.pk]),
            application.cure_deadline,
        )
        yield to_holder(application.operator, message)


def _guides_due(as_of: dt.date) -> Iterator[Outgoing]:
    rows = PaymentGuide.objects.filter(status=GuideStatus.OPEN, due_on__range=_soon(as_of)).order_by("pk")
    for guide in rows.iterator(chunk_size=BATCH):
        operator = events.guide_operator(guide)
        if operator is None:
            continue
        key = f"guide:{guide.pk}:due:{guide.due_on}"
        title = f"Guia {guide.number} vence em {guide.due_on:%d/%m/%Y}"
        yield to_holder(operator, events.guide_message(guide, K.GUIDE_DUE, key, title))


def _inspections_overdue(as_of: dt.date) -> Iterator[Outgoing]:
    # Flagged the day after the due date; the last days only, so the step reads what is new, not every
    # permit still overdue (a missed sweep day is caught up).
    since = as_of - dt.timedelta(days=SOON_DAYS + 1)
    rows = Permit.objects.filter(
        state__in=PERMIT_IN_FORCE_STATES, inspection_overdue=True, inspection_due_on__gte=since
    )
    for permit in rows.select_related("operator__person", "operator__company", "vehicle").order_by("pk"):
        message = Message(
            K.INSPECTION_OVERDUE,
            f"permit:{permit.pk}:inspection_overdue:{permit.inspection_due_on}",
            f"Vistoria atrasada do veículo {permit.vehicle.plate_display}",
            (
                f"A vistoria do veículo {permit.vehicle.plate_display} "
                f"({instrument_of(permit.regime_id).short} {permit.number}) deveria ter sido "
                f"feita até {permit.inspection_due_on:%d/%m/%Y}. Procure a Prefeitura para agendá-la."
            ),
            cited(permit.decision),
            reverse("portal:vehicles"),
            permit.inspection_due_on,
        )
        yield to_holder(permit.operator, message)


def _missed_inspections(as_of: dt.date) -> Iterator[Outgoing]:
    """Calendar inspections the engine found missed (inspections' sweep step), with the article they break."""
    since = as_of - dt.timedelta(days=SOON_DAYS)
    rows = MissedInspection.objects.filter(found_on__range=(since, as_of)).select_related(
        "vehicle", "permit__operator__person", "permit__operator__company"
    )
    for missed in rows.order_by("pk"):
        message = Message(
            K.INSPECTION_OVERDUE,
            f"missed_inspection:{missed.pk}",
            f"Vistoria do calendário não realizada — veículo {missed.vehicle.plate_display}",
            f"{missed.message}. Penalidade prevista: {missed.penalty}. Procure a Prefeitura para regularizar.",
            missed.basis,
            reverse("portal:vehicles"),
        )
        yield to_holder(missed.permit.operator, message)


# Suspensions of a permit, whichever regime's penalty declared them (dueprocess's effect mechanisms).
SUSPENSIONS = Q(mechanism__in=SUSPENDING, permit__isnull=False)


def _effect_article(effect: Effect) -> str:
    """The sanction's articles; for a penalty the law applies at the auto (no sanction yet), the ones its
    declaration in the regime's penalties cites."""
    if effect.sanction is not None:
        return cited(effect.sanction.decision)
    case = effect.case
    kind = catalog(case.regime_id).kinds.get(effect.penalty_key)
    on = effect.starts_on or case.drawn_on
    refs = kind.cites if kind is not None else ()
    return "; ".join(citation_text(case.municipality, case.regime_id, ref, on) for ref in refs)


def _suspension_message(effect: Effect, kind: str, stage: str, title: str, body: str) -> Message:
    return Message(
        kind,
        f"effect:{effect.pk}:{stage}",
        title,
        body,
        _effect_article(effect),
        reverse("portal:vehicles"),
        effect.ends_on,
    )


def _suspensions_started(as_of: dt.date) -> Iterator[Outgoing]:
    since = as_of - dt.timedelta(days=SOON_DAYS)
    rows = Effect.objects.filter(SUSPENSIONS, state__in=RUNNING, starts_on__range=(since, as_of))
    rows = rows.filter(Q(ends_on__isnull=True) | Q(ends_on__gte=as_of))
    for effect in rows.select_related(
        "case__municipality", "sanction", "permit__operator__person", "permit__operator__company"
    ):
        until = f" até {effect.ends_on:%d/%m/%Y}" if effect.ends_on else ""
        body = (
            f"{effect.label}: {instrument_of(effect.permit.regime_id).the(effect.permit.number)}{until} "
            f"(auto {effect.case.number}): o veículo "
            f"não pode operar neste período. {effect.note}"
        )
        title = f"{instrument_of(effect.permit.regime_id).title} {effect.permit.number}: suspensão{until}"
        message = _suspension_message(effect, K.SUSPENSION_STARTED, "started", title, body)
        yield to_holder(effect.permit.operator, message)


def _suspensions_ended(as_of: dt.date) -> Iterator[Outgoing]:
    """Suspensions whose last day has passed, or lifted early (ended_on), in the last days."""
    since = as_of - dt.timedelta(days=SOON_DAYS)
    ended = Q(ends_on__range=(since, as_of - dt.timedelta(days=1))) | Q(ended_on__range=(since, as_of))
    rows = Effect.objects.filter(SUSPENSIONS, ended).select_related(
        "case__municipality", "sanction", "permit__operator__person", "permit__operator__company"
    )
    for effect in rows:
        last = effect.ended_on or effect.ends_on
        body = (
            f"A suspensão {instrument_of(effect.permit.regime_id).the(effect.permit.number, prep='de')} "
            f"(auto {effect.case.number}) terminou em "
            f"{last:%d/%m/%Y}. Confira no portal a situação antes de voltar a operar."
        )
        title = f"{instrument_of(effect.permit.regime_id).title} {effect.permit.number}: suspensão encerrada"
        message = _suspension_message(effect, K.SUSPENSION_ENDED, "ended", title, body)
        yield to_holder(effect.permit.operator, message)
