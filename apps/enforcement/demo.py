"""Demo enforcement data: per regime, autos in every state enforcement owns — drafted with art. 30 omissions,
notified in person, AR awaiting return, AR returned, notified by edital, clandestine transport and (Olímpia)
a fact already punished as a traffic infraction — drawn up by the demo agent through the services.
Later states (defence, judgment, final) are due process's and come from its own seeder.

Idempotent: a municipality that already has autos is skipped.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils import timezone

from apps.accounts.models import User
from apps.enforcement import catalog, services
from apps.enforcement.choices import NoticeChannel, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.enforcement.services import notices
from apps.licensing.models import Permit
from apps.registry.models import Vehicle
from apps.tenancy.demo import DemoLog, register_demo_seeder
from apps.tenancy.models import Municipality

AGENTS = {"3533908": "olimpia.agente", "3557105": "votuporanga.agente", "3148103": "patrocinio.agente"}
# An ordinary infraction of each catalog, searched by words as the agent would.
ORDINARY = {
    "olimpia_sp_escolar": "higiene",
    "votuporanga_sp_escolar": "traje",
    "patrocinio_mg_aplicativo": "logomarca",
}
CLANDESTINE_PLATES = {"3533908": "QQA1B11", "3557105": "QQB2C22", "3148103": "QQC3D33"}


@register_demo_seeder
def seed_enforcement(log: DemoLog) -> None:
    now = timezone.now()
    for ibge, username in AGENTS.items():
        municipality = Municipality.objects.filter(ibge_code=ibge).first()
        agent = User.objects.filter(username=username).first()
        if (
            municipality is None
            or agent is None
            or InfractionCase.objects.filter(municipality=municipality).exists()
        ):
            continue
        _seed_municipality(municipality, agent, now)
        log.created += InfractionCase.objects.filter(municipality=municipality).count()


PLACE = "Rua Sete de Setembro, 450 — em frente à escola municipal"
DESCRIPTION = "Constatado durante a fiscalização de rotina na saída dos alunos."


def _open(
    municipality: Municipality,
    agent: User,
    now: dt.datetime,
    days_ago: int,
    plate: str,
    code: str,
    *,
    complete: bool = True,
    offender_name: str = "",
) -> InfractionCase:
    """An auto drawn up ``days_ago``; an incomplete one omits place, description and registration (art. 30)."""
    recorded_at = now - dt.timedelta(days=days_ago)
    details = services.AutoDetails(
        infraction_code=code,
        plate=plate,
        occurred_at=recorded_at - dt.timedelta(hours=2),
        place=PLACE if complete else "",
        description=DESCRIPTION if complete else "",
        agent_registration="FISC-0042" if complete else "",
        offender_name=offender_name,
    )
    return services.case_open(
        municipality=municipality, actor=agent, details=details, recorded_at=recorded_at
    )


def _seed_municipality(municipality: Municipality, agent: User, now: dt.datetime) -> None:
    regime = municipality.regimes[0]
    today = timezone.localdate()
    code = catalog.search(regime, ORDINARY[regime], today)[0].code
    plate = _registered_plate(municipality)
    _open(municipality, agent, now, 1, plate, code, complete=False)
    in_person = _open(municipality, agent, now, 12, plate, code)
    _notify(
        in_person, agent, NoticeChannel.IN_PERSON, today - dt.timedelta(days=12), signature_name="Condutor"
    )
    _notify(
        _open(municipality, agent, now, 6, plate, code), agent, NoticeChannel.AR, today - dt.timedelta(days=5)
    )
    returned = _open(municipality, agent, now, 30, plate, code)
    _returned(returned, agent, today - dt.timedelta(days=29), today - dt.timedelta(days=22))
    clandestine_code = catalog.clandestine_infraction(regime, today)
    _open(
        municipality,
        agent,
        now,
        3,
        CLANDESTINE_PLATES[municipality.ibge_code],
        clandestine_code.code if clandestine_code else code,
        offender_name="Motorista não identificado",
    )
    if regime == "olimpia_sp_escolar":
        traffic = _open(municipality, agent, now, 4, plate, code)
        services.case_mark_traffic_only(case=traffic, actor=agent, reference="AIT 2026/118822", as_of=today)


def _registered_plate(municipality: Municipality) -> str:
    """A licensed vehicle's plate (licensing's demo permits); any registered vehicle where there is none.

    The newest permit: due process's demo takes the oldest for its own cases (one ends in cassação)."""
    permit = Permit.objects.filter(municipality=municipality, state="active").order_by("-pk").first()
    if permit is not None:
        return permit.vehicle.plate
    vehicle = Vehicle.objects.filter(municipality=municipality).order_by("pk").first()
    return vehicle.plate if vehicle else "RRA1B11"


def _notify(
    case: InfractionCase, agent: User, channel: str, sent_on: dt.date, signature_name: str = ""
) -> None:
    notices.notice_send(
        case=case,
        actor=agent,
        purpose=NoticePurpose.INFRACTION,
        channel=channel,
        sent_on=sent_on,
        as_of=timezone.localdate(),
        signature_name=signature_name,
    )


def _returned(case: InfractionCase, agent: User, sent_on: dt.date, returned_on: dt.date) -> None:
    """An AR letter returned for «other» reasons reaches nobody: the offender is notified by edital where the law
    allows it (Olímpia, Patrocínio); Votuporanga's law provides no edital, so the case waits for a new notice."""
    today = timezone.localdate()
    notice = notices.notice_send(
        case=case,
        actor=agent,
        purpose=NoticePurpose.INFRACTION,
        channel=NoticeChannel.AR,
        sent_on=sent_on,
        as_of=today,
    )
    notices.notice_record_receipt(
        notice=notice, actor=agent, as_of=today, received_on=returned_on, returned_reason="other"
    )
    if case in notices.unreached_cases(case.municipality, NoticePurpose.INFRACTION):
        try:
            notices.edital_publish(
                municipality=case.municipality,
                actor=agent,
                purpose=NoticePurpose.INFRACTION,
                cases=[case],
                published_on=returned_on + dt.timedelta(days=2),
                as_of=today,
                publication_ref="Diário Oficial do Município — edição de demonstração",
            )
        except ValidationError:
            return  # the regime gives no ciência by edital: the case waits for a new notice
