"""The staff daily digest: each person gets the deadlines their role acts on, once a day, through the outbox."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from apps.accounts.models import User
from apps.dueprocess.models import Appeal
from apps.inspections.choices import InspectionKind
from apps.inspections.models import Inspection
from apps.jobs.models import OutboundMail
from apps.jobs.schedule import job_named
from apps.reports.models import StaffDigest
from apps.reports.services.digest import REASON, staff_digest_send
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
BASE = "https://outorga.olimpia.sp.gov.br"


@pytest.fixture
def staff(
    pending_defence: Appeal,
    olimpia: Municipality,
    olimpia_licensed: Any,
    judge_olimpia: User,
    admin_olimpia: User,
    finance_olimpia: User,
    make_staff: Any,
) -> dict[str, User]:
    """A pending judgment and a re-inspection due on the same day; a judge, an inspector, finance, an admin."""
    due = _due(pending_defence)
    Inspection.objects.create(
        municipality=olimpia,
        regime_id="olimpia_sp_escolar",
        vehicle=olimpia_licensed[1].vehicle,
        kind=InspectionKind.REINSPECTION,
        checklist_kind=InspectionKind.REINSPECTION,
        scheduled_for=due,
        deadline=due,
        deadline_basis="Lei 5.171/2025 (Olímpia), art. 9º",
    )
    people = {
        "judge": judge_olimpia,
        "inspector": make_staff("ivo.vistoriador", (olimpia, Role.INSPECTOR)),
        "board": make_staff("jari.membro", (olimpia, Role.APPEAL_BOARD)),
        "finance": finance_olimpia,
        "admin": admin_olimpia,
    }
    for key, user in people.items():
        User.objects.filter(pk=user.pk).update(email=f"{key}@olimpia.sp.gov.br")
    return people


def _due(appeal: Appeal) -> dt.date:
    assert appeal.judgment_deadline is not None  # the regime fixes the judgment deadline
    return appeal.judgment_deadline


def _mails() -> dict[str, str]:
    return {mail.recipient.split("@")[0]: mail.body for mail in OutboundMail.objects.filter(reason=REASON)}


def test_each_role_gets_the_deadlines_it_acts_on_once_a_day(
    staff: dict[str, User], pending_defence: Appeal, olimpia: Municipality
) -> None:
    as_of = _due(pending_defence) - dt.timedelta(days=2)
    outcome = staff_digest_send(as_of=as_of, base_url=BASE)
    mails = _mails()
    assert set(mails) == {"judge", "inspector", "admin"}  # the JARI and finance have nothing at risk
    assert outcome.sent == 3 and outcome.nothing_at_risk == 2
    judge_url = BASE + reverse("dueprocess:judge", args=[olimpia.ibge_code, pending_defence.pk])
    assert "Julgar o recurso do auto" in mails["judge"] and judge_url in mails["judge"]
    assert (
        "vence em 2 dia(s)" in mails["judge"]
        and "Fundamento: Lei 5.171/2025 (Olímpia), art." in mails["judge"]
    )
    assert "Vistoria" not in mails["judge"]
    assert "art. 9º" in mails["inspector"] and "Julgar" not in mails["inspector"]
    # Only the judging authority judges (the matrix): the administrator gets the inspection, not the judgment.
    assert "Julgar" not in mails["admin"] and "art. 9º" in mails["admin"]
    # Run again the same day (a second scheduler, a retry): nothing more is queued.
    again = staff_digest_send(as_of=as_of, base_url=BASE)
    assert again.sent == 0 and again.already_sent == 3
    assert OutboundMail.objects.filter(reason=REASON).count() == 3
    assert StaffDigest.objects.filter(day=as_of).count() == 3
    # The next day is a new digest.
    assert staff_digest_send(as_of=as_of + dt.timedelta(days=1), base_url=BASE).sent == 3


def test_nothing_is_sent_when_nothing_is_at_risk(staff: dict[str, User], pending_defence: Appeal) -> None:
    far = _due(pending_defence) - dt.timedelta(days=30)
    assert staff_digest_send(as_of=far, base_url=BASE).sent == 0
    assert not OutboundMail.objects.filter(reason=REASON).exists()


def test_the_scheduled_job_runs_the_command(
    staff: dict[str, User], pending_defence: Appeal, settings: Any
) -> None:
    settings.SITE_URL = BASE
    job = job_named("staff_digest")
    call_command(*job.command, "--as-of", _due(pending_defence).isoformat())
    assert OutboundMail.objects.filter(reason=REASON, body__contains=BASE).count() == 3
