"""Each event told by its service, once, with the article the engine cited and the portal page to act on; the
e-mail through the outbox only when the change commits."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction

from apps.audit.models import AuditEvent
from apps.dueprocess.choices import Instance, Verdict
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.inspections import services as inspections
from apps.inspections.tests.conftest import all_items, patrocinio_fee_paid
from apps.jobs.models import OutboundMail
from apps.licensing import services as licensing
from apps.licensing.casebook import Case
from apps.notifications.choices import NotificationKind as K
from apps.notifications.events import notify_guide_issued
from apps.notifications.models import Notification
from apps.portal.tests.conftest import AS_OF

pytestmark = pytest.mark.django_db


def only(kind: str) -> Notification:
    [row] = Notification.objects.filter(kind=kind)
    return row


def test_a_guide_is_told_once_however_often_the_event_is_seen(
    alice_case: Case, alice_permit: Any, make_guide: Callable[..., Any]
) -> None:
    guide = make_guide(alice_case, alice_permit)
    with transaction.atomic():
        notify_guide_issued(guide)  # the same event again: nothing new
    row = only(K.GUIDE_ISSUED)
    assert row.operator == alice_case.operator and row.person is None
    assert row.article == guide.legal_basis and row.article
    assert row.link == f"/portal/pagamentos/{guide.pk}/" and row.due_on == guide.due_on
    assert "R$ 150,00" in row.body
    mails = OutboundMail.objects.filter(reason="notifications.notice")
    assert mails.count() == 1 and row.mail == mails.get()
    # The e-mail is read outside Outorga: its link is absolute, on the site's public address.
    assert f"{settings.SITE_URL}/portal/pagamentos/{guide.pk}/" in mails.get().body
    assert AuditEvent.objects.filter(action="notification.send", object_id=str(row.pk)).exists()


def test_the_email_is_queued_with_the_change_and_a_rollback_sends_nothing(
    alice_case: Case,
    alice_permit: Any,
    make_guide: Callable[..., Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    guide = make_guide(alice_case, alice_permit)
    Notification.objects.all().delete()
    OutboundMail.objects.all().delete()
    with pytest.raises(RuntimeError), transaction.atomic():
        notify_guide_issued(guide)
        assert OutboundMail.objects.count() == 1  # written in the change's transaction...
        raise RuntimeError("the change fails")
    assert not Notification.objects.exists() and not OutboundMail.objects.exists()  # ...and gone with it
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        notify_guide_issued(guide)
        assert not callbacks  # the worker is woken only once the change commits
    assert len(callbacks) == 1
    mail = OutboundMail.objects.get()
    holder = alice_case.operator.person
    assert holder is not None and mail.recipient == holder.email and mail.status == "pending"
    assert (
        f"Fundamento legal: {guide.legal_basis}." in mail.body
        and f"/portal/pagamentos/{guide.pk}/" in mail.body
    )


def test_a_notice_in_person_tells_the_defence_deadline_and_its_article(
    alice_case: Case, make_case: Callable[..., Any]
) -> None:
    auto = make_case(alice_case, AS_OF)
    row = only(K.NOTICE_ISSUED)
    assert row.key.endswith(":ciencia") and row.operator == alice_case.operator
    assert row.due_on is not None and row.due_on > AS_OF
    assert f"prazo até {row.due_on:%d/%m/%Y}" in row.body and auto.number in row.title
    assert "art." in row.article.lower()
    assert row.link == f"/portal/autos/{auto.pk}/"


def test_a_judgment_is_told_with_the_verdict(
    alice_case: Case, make_case: Callable[..., Any], judge_olimpia: Any
) -> None:
    auto = make_case(alice_case, AS_OF)
    defence = appeal_file(
        case=auto,
        instance=Instance.FIRST,
        filed_on=AS_OF,
        text="Não houve.",
        actor=judge_olimpia,
        as_of=AS_OF,
    )
    appeal_judge(
        appeal=defence,
        verdict=Verdict.GRANTED,
        reasoning="Prova de que não houve a infração.",
        decided_on=dt.date(2026, 3, 20),
        actor=judge_olimpia,
        as_of=dt.date(2026, 3, 20),
    )
    row = only(K.JUDGMENT)
    assert (
        "julgado em 20/03/2026: Recurso procedente — infração cancelada" in row.body
        and "art." in row.article.lower()
    )
    assert row.link == f"/portal/autos/{auto.pk}/"


def test_an_inspection_scheduled_and_failed_are_told_with_the_cure_window(
    patrocinio_case: Case, patrocinio: Any
) -> None:
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    row = inspections.inspection_schedule(
        actor=None, vehicle=patrocinio_case.vehicle, application=application, scheduled_for=AS_OF, as_of=AS_OF
    )
    scheduled = only(K.INSPECTION_SCHEDULED)
    assert "agendada para 10/03/2026" in scheduled.body and "art. 8º" in scheduled.article
    inspections.inspection_record_result(
        actor=None,
        inspection=row,
        performed_on=AS_OF,
        as_of=AS_OF,
        items=all_items(row, failing=("recent_maintenance",)),
    )
    failed = only(K.INSPECTION_FAILED)
    assert failed.due_on == dt.date(2026, 3, 25) and "até 25/03/2026" in failed.body
    assert "art. 9º, § 3º" in failed.article and failed.link == "/portal/veiculos/"
    assert Notification.objects.filter(kind=K.INSPECTION_SCHEDULED).count() == 1  # the re-inspection: no hook


def documents_requested(case: Case) -> Any:
    application = licensing.application_create(
        actor=None, operator=case.operator, kind="vehicle_permit", as_of=AS_OF, vehicle=case.vehicle
    )
    licensing.application_submit(application=application, actor=None, as_of=AS_OF)
    licensing.application_start_analysis(application=application, actor=None, as_of=AS_OF)
    application = licensing.application_evaluate(application=application, actor=None, as_of=AS_OF)
    return licensing.application_request_documents(
        application=application, actor=None, as_of=AS_OF, note="Envie o CRLV atualizado."
    )


def test_documents_requested_open_a_cure_window_told_with_its_last_day(
    patrocinio_case: Case, patrocinio: Any
) -> None:
    application = documents_requested(patrocinio_case)
    row = only(K.CURE_OPENED)
    assert row.due_on == application.cure_deadline == dt.date(2026, 3, 25)  # art. 7 parágrafo único: 15 days
    assert "Prazo para sanar até 25/03/2026" in row.body and "art. 7º" in row.article
    assert row.link == f"/portal/requerimentos/{application.pk}/"
