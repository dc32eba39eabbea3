"""Demo licensing data: per regime, applications in every state and permits active, suspended and expired,
all through the services (the audit chains and timelines are real). Built on apps.licensing.casebook.

Idempotent: a municipality whose first casebook person exists is skipped. Votuporanga's new permits need the
fleet cap its decree fixes (art. 4º-A): lawconfig's demo seeder (which runs first) sets it; a municipality
without that value gets only the states that need no decision on a new permit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.utils import timezone

import lawcode
from apps.finance.models import FeeSchedule
from apps.lawconfig.config import config_for
from apps.lawconfig.models import FiscalUnitValue
from apps.licensing import services
from apps.licensing.casebook import Case, extra_vehicle, pf_case, pj_case, upload_documents
from apps.licensing.models import Application, Permit
from apps.licensing.sweep import expire_permits
from apps.registry.models import Person
from apps.tenancy.demo import DemoLog, demo_cpf, register_demo_seeder
from apps.tenancy.models import Municipality
from lawcode.errors import MissingParameterError

# Numbers for the casebook identifiers, far apart per municipality (CPF 500 + n, plates and RENAVAM from n).
BASE = {"3533908": 1000, "3557105": 2000, "3148103": 3000, "3549904": 4000}
HOLDERS = {
    "3533908": (
        "Ana Beatriz Moura",
        "Carlos Eduardo Lima",
        "Helena Prado",
        "Rita de Cássia Alves",
        "Jorge Amaral",
    ),
    "3557105": (
        "Escolar Noroeste Transportes Ltda",
        "Juliana Castro",
        "Roberto Nunes",
        "Sônia Ribeiro",
        "Vânia Queiroz",
    ),
    "3148103": ("Marcelo Tavares", "Patrícia Gomes", "Ricardo Fonseca", "Luana Martins", "Diego Barros"),
    "3549904": (
        "Antônio Carlos Ribeiro",
        "Benedito Souza",
        "Cláudia Vieira",
        "Edson Moreira",
        "Fátima Nogueira",
    ),
}


@register_demo_seeder
def seed_licensing(log: DemoLog) -> None:
    today = timezone.localdate()
    for ibge, base in BASE.items():
        municipality = Municipality.objects.filter(ibge_code=ibge).first()
        if (
            municipality is None
            or Person.objects.filter(municipality=municipality, cpf=demo_cpf(500 + base + 1)).exists()
        ):
            continue
        _seed_municipality(municipality, base, today)
        log.created += Application.objects.filter(municipality=municipality).count()


def _case(municipality: Municipality, number: int, name: str, as_of: dt.date) -> Case:
    if municipality.ibge_code == "3557105" and name.endswith("Ltda"):
        return pj_case(municipality, number, name, "Fábio Motorista", as_of=as_of)
    case = pf_case(municipality, number, name, as_of=as_of)
    if municipality.regimes[0] == "patrocinio_mg_aplicativo":
        # The driver pays the inspection fee at the prefeitura's cashier and files the receipt (art. 8).
        upload_documents(
            case.vehicle, ("inspection_fee_receipt",), as_of=as_of, regime_id="patrocinio_mg_aplicativo"
        )
    return case


def _seed_municipality(municipality: Municipality, base: int, today: dt.date) -> None:
    names = HOLDERS[municipality.ibge_code]
    holder = _case(municipality, base + 1, names[0], today)
    _open_states(holder, base, today)
    if not _can_decide_new_permits(municipality, today):
        return
    _permits(municipality, base, names, today)
    _denied(municipality, base, today)


def _can_decide_new_permits(municipality: Municipality, today: dt.date) -> bool:
    """False while a value the law leaves to a decree (Votuporanga's fleet cap, art. 4º-A) is not configured."""
    regime = lawcode.get_regime(municipality.regimes[0])
    if "fleet_cap" not in regime.parameters or "fleet_cap" in config_for(municipality).parameters:
        return True
    try:
        regime.parameters["fleet_cap"].value_on(today, regime.id)
    except MissingParameterError:
        return False
    return True


def _new(case: Case, vehicle_number: int | None, today: dt.date, **fields: Any) -> Application:
    vehicle = extra_vehicle(case, vehicle_number, as_of=today) if vehicle_number else case.vehicle
    if case.operator.regime_id == "patrocinio_mg_aplicativo" and vehicle_number:
        upload_documents(
            vehicle, ("inspection_fee_receipt",), as_of=today, regime_id="patrocinio_mg_aplicativo"
        )
    return services.application_create(
        actor=None,
        operator=case.operator,
        kind="vehicle_permit",
        as_of=today,
        vehicle=vehicle,
        enrolled_students=9000,
        carries_children_under_4_or_pcd=False,
        **fields,
    )


def _step(application: Application, today: dt.date, *moves: Callable[..., Application]) -> Application:
    for move in moves:
        application = move(application=application, actor=None, as_of=today)
    return application


def _open_states(case: Case, base: int, today: dt.date) -> None:
    """Draft, submitted, in analysis, pending documents, awaiting fee/inspection and archived."""
    s = services
    _new(case, base + 11, today)
    _step(_new(case, base + 12, today), today, s.application_submit)
    _step(_new(case, base + 13, today), today, s.application_submit, s.application_start_analysis)
    pending = _step(_new(case, base + 14, today), today, s.application_submit, s.application_start_analysis)
    s.application_request_documents(
        application=pending,
        actor=None,
        as_of=today,
        note="Apresentar o CRLV-e do exercício e a apólice do seguro APP vigentes.",
    )
    inspection = _step(
        _new(case, base + 15, today), today, s.application_submit, s.application_start_analysis
    )
    s.application_require_inspection(application=inspection, actor=None, as_of=today)
    archived = _step(_new(case, base + 16, today), today, s.application_submit)
    s.application_archive(application=archived, actor=None, as_of=today, reason="Desistência do requerente.")
    fee = FeeSchedule.objects.filter(municipality=case.operator.municipality).first()
    if fee is not None and _fee_valuable(case.operator.municipality):
        awaiting = _step(
            _new(case, base + 17, today), today, s.application_submit, s.application_start_analysis
        )
        s.application_require_fee(application=awaiting, actor=None, as_of=today, fee_kind=fee.fee_kind)


def _fee_valuable(municipality: Municipality) -> bool:
    """A fee in UFM needs the UFM value the administrator enters (the demo does not make it up)."""
    return not FeeSchedule.objects.filter(municipality=municipality, unit="ufm").exists() or (
        FiscalUnitValue.objects.filter(municipality=municipality).exists()
    )


def _approve(application: Application, today: dt.date) -> Permit:
    s = services
    application = _step(
        application,
        today,
        s.application_submit,
        s.application_start_analysis,
        s.application_evaluate,
        s.application_require_inspection,
    )
    s.application_inspection_passed(application=application, performed_on=today, actor=None, as_of=today)
    s.application_approve(application=application, actor=None, as_of=today)
    return Permit.objects.get(application=application)


def _permits(municipality: Municipality, base: int, names: tuple[str, ...], today: dt.date) -> None:
    """Two active permits (other demos suspend one), a suspended one and one issued over a year ago, now expired."""
    _approve(_new(_case(municipality, base + 2, names[1], today), None, today), today)
    _approve(_new(_case(municipality, base + 6, names[4], today), None, today), today)
    suspended = _approve(_new(_case(municipality, base + 3, names[2], today), None, today), today)
    services.permit_suspend(
        permit=suspended,
        actor=None,
        as_of=today,
        until=today + dt.timedelta(days=15),
        reason="Suspensão por 15 dias por decisão definitiva em processo de demonstração.",
    )
    long_ago = today - dt.timedelta(days=380)
    if lawcode.get_regime(municipality.regimes[0]).in_force > long_ago:
        return  # the law is younger than a permit's validity: nothing can have expired under it yet
    _approve(_new(_case(municipality, base + 4, names[3], long_ago), None, long_ago), long_ago)
    expire_permits(today)


def _denied(municipality: Municipality, base: int, today: dt.date) -> None:
    """A vehicle far older than the law allows: evaluated, denied with the article."""
    case = pf_case(
        municipality, base + 5, "Otávio Veículo Antigo", as_of=today, manufacture_year=2001, model_year=2001
    )
    s = services
    application = _step(
        _new(case, None, today),
        today,
        s.application_submit,
        s.application_start_analysis,
        s.application_evaluate,
    )
    s.application_deny(application=application, actor=None, as_of=today, note="Idade do veículo.")
