"""Demo data for finance: each demo municipality's PIX receiver, and Patrocínio's inspection fee (art. 8).

Patrocínio's UFM value is unknown (docs/domain/facts.md §1.2), so the demo leaves it unconfigured: issuing the
inspection fee guide fails with a message telling the administrator to add the UFM, which is the behaviour the
demo should show. Olímpia and Votuporanga fix no fee in their laws; none is invented here.
Idempotent: existing rows are kept as they are.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from apps.finance.choices import FeeKind
from apps.finance.models import FeeSchedule, FinanceSettings
from apps.finance.services import fee_schedule_create, finance_settings_save
from apps.tenancy.demo import DEMO_MUNICIPALITIES, DemoLog, register_demo_seeder
from apps.tenancy.models import Municipality

# Fictitious random keys (EVP): a demo guide must never send money to a real account.
DEMO_PIX = {
    "olimpia": ("3f1c2b7a-0d4e-4c1a-9b8e-6a5d4c3b2a10", "PREFEITURA DE OLIMPIA", "OLIMPIA"),
    "votuporanga": ("7a9e4d21-5b3c-4f6e-8a1d-2c3b4a5d6e70", "PREF MUN VOTUPORANGA", "VOTUPORANGA"),
    "patrocinio": ("c4b3a2d1-9e8f-4a7b-8c6d-5e4f3a2b1c00", "PREF MUN PATROCINIO", "PATROCINIO"),
    "saojose": ("5d2e8f10-3a4b-4c5d-9e6f-7a8b9c0d1e20", "PREF MUN SAO JOSE CAMPOS", "S JOSE CAMPOS"),
}
PATROCINIO_FEE_FROM = dt.date(2025, 12, 22)  # the law's entry into force (publication + 90 days, art. 26)


@register_demo_seeder
def seed_finance(log: DemoLog) -> None:
    for demo in DEMO_MUNICIPALITIES:
        municipality = Municipality.objects.filter(ibge_code=demo.ibge_code).first()
        if municipality is None:
            continue
        _ensure_settings(log, municipality, demo.short)
        if demo.short == "patrocinio":
            _ensure_patrocinio_fee(log, municipality)


def _ensure_settings(log: DemoLog, municipality: Municipality, short: str) -> None:
    if FinanceSettings.objects.filter(municipality=municipality).exists():
        return
    key, name, city = DEMO_PIX[short]
    finance_settings_save(
        actor=None,
        municipality=municipality,
        pix_key=key,
        receiver_name=name,
        receiver_city=city,
        guide_due_days=10,
    )
    log.created += 1


def _ensure_patrocinio_fee(log: DemoLog, municipality: Municipality) -> None:
    """Art. 8: "taxa de vistoria no importe de 0,25 UFM"."""
    if FeeSchedule.objects.filter(municipality=municipality, fee_kind=FeeKind.INSPECTION).exists():
        return
    fee_schedule_create(
        actor=None,
        municipality=municipality,
        regime_id="patrocinio_mg_aplicativo",
        fee_kind=FeeKind.INSPECTION,
        quantity=Decimal("0.25"),
        unit="ufm",
        cite="art8",
        valid_from=PATROCINIO_FEE_FROM,
    )
    log.created += 1
