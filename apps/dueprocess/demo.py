"""Demo due process: per regime, cases in every state due process owns — defence pending, a late appeal
flagged, judged in first instance (Olímpia: fine already due, art. 33), in second instance / JARI, final for
lack of appeal with an overdue fine (it shows in the dívida ativa export), final with the permit suspended,
final after the last instance, and cancelled (Olímpia: after payment, with the refund of art. 35).
Everything goes through the services, dated back from today, by the demo judges, board and finance logins.

Idempotent: a municipality that already has appeals or sanctions is skipped.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from apps.accounts.models import User
from apps.dueprocess.choices import Instance, Verdict
from apps.dueprocess.models import Appeal, Sanction
from apps.dueprocess.procedure import proceeding
from apps.dueprocess.services import appeal_file, appeal_judge, judgment_choices
from apps.dueprocess.services.finality import case_finalize_unappealed
from apps.dueprocess.services.fines import fine_issue
from apps.enforcement.choices import NoticeChannel, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.enforcement.services import AutoDetails, case_open
from apps.enforcement.services.notices import notice_send
from apps.finance.models import PaymentGuide
from apps.finance.services import payment_register
from apps.licensing.models import Permit
from apps.tenancy.demo import DEMO_MUNICIPALITIES, DemoLog, DemoMunicipality, register_demo_seeder
from apps.tenancy.models import Municipality

# An ordinary infraction with a municipal penalty, and one that suspends the permit the first time.
ORDINARY = {
    "olimpia_sp_escolar": "OLI-23-I",
    "votuporanga_sp_escolar": "VOT-9-I",
    "patrocinio_mg_aplicativo": "PAT-3",
    "sao_jose_dos_campos_sp_taxi": "SJC-23-IV",
}
SUSPENDING = {"olimpia_sp_escolar": "OLI-25-IV"}


@dataclass(frozen=True)
class Staff:
    agent: User
    judge: User
    board: User
    finance: User


@register_demo_seeder
def seed_dueprocess(log: DemoLog) -> None:
    for demo in DEMO_MUNICIPALITIES:
        municipality = Municipality.objects.filter(ibge_code=demo.ibge_code).first()
        staff = _staff(demo)
        permit = _permit(municipality) if municipality else None
        if municipality is None or staff is None or permit is None or _seeded(municipality):
            continue
        _seed(municipality, staff, permit, demo.regime, timezone.localdate())
        log.created += Appeal.objects.filter(case__municipality=municipality).count()


def _staff(demo: DemoMunicipality) -> Staff | None:
    words = ("agente", "julgador", "jari", "financeiro")
    users = [User.objects.filter(username=f"{demo.short}.{word}").first() for word in words]
    return Staff(*users) if all(users) else None  # type: ignore[arg-type]


def _permit(municipality: Municipality) -> Permit | None:
    return Permit.objects.filter(municipality=municipality, state="active").order_by("pk").first()


def _seeded(municipality: Municipality) -> bool:
    return (
        Appeal.objects.filter(case__municipality=municipality).exists()
        or Sanction.objects.filter(case__municipality=municipality).exists()
    )


def _case(municipality: Municipality, staff: Staff, plate: str, code: str, drawn: dt.date) -> InfractionCase:
    occurred = dt.datetime.combine(drawn, dt.time(7, 10), tzinfo=timezone.get_current_timezone())
    details = AutoDetails(
        infraction_code=code,
        plate=plate,
        occurred_at=occurred,
        place="Av. das Escolas, 200",
        description="Constatado na fiscalização de rotina.",
        agent_registration="FISC-0042",
    )
    return case_open(
        municipality=municipality,
        actor=staff.agent,
        details=details,
        recorded_at=occurred + dt.timedelta(hours=1),
    )


def _notify(case: InfractionCase, staff: Staff, on: dt.date, purpose: str, today: dt.date) -> None:
    notice_send(
        case=case,
        actor=staff.agent,
        purpose=purpose,
        channel=NoticeChannel.IN_PERSON,
        sent_on=on,
        as_of=today,
        signature_name="Autuado (demonstração)",
    )


def _file(case: InfractionCase, staff: Staff, instance: str, on: dt.date, today: dt.date) -> Appeal:
    text = "Razões de demonstração: o autuado contesta a autuação."
    return appeal_file(case=case, instance=instance, filed_on=on, text=text, actor=staff.judge, as_of=today)


def _judge(appeal: Appeal, staff: Staff, verdict: str, on: dt.date, today: dt.date) -> None:
    """Judge as the authority would; where the law lets it fix a quantity within a range (penalties.yaml
    ``judgment``), the demonstration picks the legal minimum."""
    actor = staff.judge if appeal.instance == Instance.FIRST else staff.board
    chosen = {choice.key: str(choice.minimum) for choice in judgment_choices(appeal.case, today)}
    appeal_judge(
        appeal=appeal,
        verdict=verdict,
        reasoning="Fundamentação de demonstração.",
        decided_on=on,
        actor=actor,
        as_of=today,
        chosen=chosen,
    )


def _seed(municipality: Municipality, staff: Staff, permit: Permit, regime: str, today: dt.date) -> None:
    plate, code = permit.vehicle.plate, ORDINARY[regime]
    first = _opened(municipality, staff, plate, code, _ago(today, 150), today)
    case_finalize_unappealed(case=first, actor=staff.judge, as_of=today)
    _charge_overdue(first, staff, _ago(today, 100), today)
    pending = _opened(municipality, staff, plate, code, _ago(today, 20), today)
    _file(pending, staff, Instance.FIRST, _ago(today, 15), today)
    late = _opened(municipality, staff, plate, code, _ago(today, 60), today)
    _file(late, staff, Instance.FIRST, _ago(today, 5), today)
    granted = _opened(municipality, staff, plate, code, _ago(today, 70), today)
    _judge(
        _file(granted, staff, Instance.FIRST, _ago(today, 66), today),
        staff,
        Verdict.GRANTED,
        _ago(today, 50),
        today,
    )
    if proceeding(regime).has(Instance.SECOND):
        _second_instance_states(municipality, staff, plate, code, today)
    else:
        upheld = _opened(municipality, staff, plate, code, _ago(today, 45), today)
        _judge(
            _file(upheld, staff, Instance.FIRST, _ago(today, 40), today),
            staff,
            Verdict.UPHELD,
            _ago(today, 30),
            today,
        )
    if regime in SUSPENDING:
        suspended = _opened(municipality, staff, plate, SUSPENDING[regime], _ago(today, 25), today)
        case_finalize_unappealed(case=suspended, actor=staff.judge, as_of=today)


def _ago(today: dt.date, days: int) -> dt.date:
    return today - dt.timedelta(days=days)


def _opened(
    municipality: Municipality, staff: Staff, plate: str, code: str, drawn: dt.date, today: dt.date
) -> Any:
    case = _case(municipality, staff, plate, code, drawn)
    _notify(case, staff, drawn + dt.timedelta(days=1), NoticePurpose.INFRACTION, today)
    return case


def _charge_overdue(case: InfractionCase, staff: Staff, notified: dt.date, today: dt.date) -> None:
    """Notified of the final decision long ago and never paid: overdue, ready for dívida ativa."""
    sanction = Sanction.objects.get(case=case)
    if not sanction.has_fine:
        return
    _notify(case, staff, notified, NoticePurpose.FINAL_DECISION, today)
    fine_issue(sanction=sanction, actor=staff.finance, as_of=today)


def _second_instance_states(
    municipality: Municipality, staff: Staff, plate: str, code: str, today: dt.date
) -> None:
    judged = _opened(municipality, staff, plate, code, _ago(today, 80), today)
    _judge(
        _file(judged, staff, Instance.FIRST, _ago(today, 76), today),
        staff,
        Verdict.UPHELD,
        _ago(today, 60),
        today,
    )
    _notify(judged, staff, _ago(today, 59), NoticePurpose.FIRST_DECISION, today)
    in_appeal = _opened(municipality, staff, plate, code, _ago(today, 90), today)
    _judge(
        _file(in_appeal, staff, Instance.FIRST, _ago(today, 86), today),
        staff,
        Verdict.UPHELD,
        _ago(today, 70),
        today,
    )
    _notify(in_appeal, staff, _ago(today, 69), NoticePurpose.FIRST_DECISION, today)
    _file(in_appeal, staff, Instance.SECOND, _ago(today, 62), today)
    refunded = _opened(municipality, staff, plate, code, _ago(today, 100), today)
    _judge(
        _file(refunded, staff, Instance.FIRST, _ago(today, 96), today),
        staff,
        Verdict.UPHELD,
        _ago(today, 80),
        today,
    )
    _notify(refunded, staff, _ago(today, 79), NoticePurpose.FIRST_DECISION, today)
    _pay_if_charged(refunded, staff, _ago(today, 75), today)
    second = _file(refunded, staff, Instance.SECOND, _ago(today, 72), today)
    _judge(second, staff, Verdict.GRANTED, _ago(today, 40), today)


def _pay_if_charged(case: InfractionCase, staff: Staff, paid_on: dt.date, today: dt.date) -> None:
    """Where the fine is due after the first condemnation (Olímpia art. 33), it is charged and paid."""
    sanction = Sanction.objects.filter(case=case).first()
    if sanction is None or not sanction.has_fine:
        return
    guide = fine_issue(sanction=sanction, actor=staff.finance, as_of=paid_on)
    if not isinstance(guide, PaymentGuide):
        return  # the value the law needs is not entered yet (a new year's UFESP): the guide waits, unpaid
    payment_register(
        actor=staff.finance,
        guide=guide,
        paid_on=paid_on,
        amount_brl=guide.amount_brl,
        method="pix",
        reference="DEMO-PIX",
        as_of=today,
    )
