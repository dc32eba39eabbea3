"""Demo rows: a ride-hailing platform in every town whose law has art. 11-A, with one substitution notice
waiting in the secretariat's queue. Its token is not kept (tokens are shown once): issue one with
`manage.py platform_credential_issue --cnpj 11.222.333/0001-81 --municipality <IBGE>`. Idempotent."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from apps.licensing.choices import PermitState
from apps.licensing.models import Permit
from apps.platforms.models import Platform, PlatformCredential, SubstitutionReport
from apps.platforms.services import (
    credential_issue,
    platform_create,
    substitution_allowed,
    substitution_report,
)
from apps.tenancy.demo import DemoLog, register_demo_seeder
from apps.tenancy.models import Municipality

DEMO_CNPJ = "11222333000181"


@register_demo_seeder
def seed_platforms(log: DemoLog) -> None:
    today = timezone.localdate()
    for municipality in Municipality.objects.order_by("name"):
        if (
            substitution_allowed(municipality)
            and not SubstitutionReport.objects.filter(municipality=municipality).exists()
        ):
            _seed_town(municipality, today, log)


@transaction.atomic
def _seed_town(municipality: Municipality, today: dt.date, log: DemoLog) -> None:
    permit = (
        Permit.objects.filter(
            municipality=municipality, state=PermitState.ACTIVE, operator__person__isnull=False
        )
        .filter(valid_from__lte=today, valid_until__gte=today)
        .select_related("operator__person")
        .first()
    )
    if permit is None or permit.operator.person is None:
        return
    platform = Platform.objects.filter(cnpj=DEMO_CNPJ).first() or platform_create(
        actor=None, name="Roda Já Mobilidade (demonstração)", cnpj=DEMO_CNPJ
    )
    credential = PlatformCredential.objects.filter(platform=platform, municipality=municipality).first()
    credential = (
        credential
        or credential_issue(
            actor=None, platform=platform, municipality=municipality, label="demonstração"
        ).credential
    )
    substitution_report(
        credential=credential,
        as_of=today,
        driver_cpf=permit.operator.person.cpf,
        substitute_plate="LOC2A26",
        substitute_make_model="Chevrolet Onix (locado)",
        rental_company="Locadora Cerrado Ltda.",
        reason="Veículo cadastrado em oficina (troca de embreagem).",
        starts_on=today,
        expected_end_on=today + dt.timedelta(days=7),
    )
    log.created += 1
