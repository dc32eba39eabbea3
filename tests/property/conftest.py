"""The licensed world every property history starts from: one municipality per regime, each with a licensed
operator whose documents and permit were issued on ISSUED (through the real services)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from apps.lawconfig.services import parameter_value_set
from apps.licensing.casebook import Case, pf_case, upload_documents
from apps.licensing.tests.conftest import issue_permit
from apps.tenancy.models import Municipality
from apps.tenancy.services import municipality_create

ISSUED = dt.date(2026, 3, 10)
REGIMES = (
    ("3533908", "Olímpia", "SP", "olimpia_sp_escolar"),
    ("3557105", "Votuporanga", "SP", "votuporanga_sp_escolar"),
    ("3148103", "Patrocínio", "MG", "patrocinio_mg_aplicativo"),
    ("3549904", "São José dos Campos", "SP", "sao_jose_dos_campos_sp_taxi"),
)
# Values the law leaves to a decree, set by the administrator before anything is decided: the number of
# vehicles (Votuporanga, São José dos Campos) and São José's yearly fine update (art. 22 § 2º).
DECREED = {
    "votuporanga_sp_escolar": (("fleet_cap", dt.date(2018, 3, 20), 60, "art4A"),),
    "sao_jose_dos_campos_sp_taxi": (
        ("fleet_cap", dt.date(2018, 3, 20), 440, "art19"),
        *(("fine_update_percent", dt.date(year, 1, 1), 5, "art22_par2") for year in range(2013, 2027)),
    ),
}
# What the permit path asks beyond the casebook's documents (the fee receipt Patrocínio art. 8 requires).
EXTRA_VEHICLE_DOCUMENTS = {"patrocinio_mg_aplicativo": ("inspection_fee_receipt",)}


def make_municipality(ibge: str, name: str, uf: str, regime_id: str) -> Municipality:
    municipality = municipality_create(actor=None, ibge_code=ibge, name=name, uf=uf, regimes=[regime_id])
    for parameter, valid_from, value, cite in DECREED.get(regime_id, ()):
        parameter_value_set(
            actor=None,
            municipality=municipality,
            regime_id=regime_id,
            parameter=parameter,
            valid_from=valid_from,
            value=Decimal(value),
            cite=cite,
            source="Decreto",
        )
    return municipality


@pytest.fixture
def licensed(db: None, settings: Any, tmp_path: Any) -> list[Case]:
    """One licensed case per regime, documents and permit issued on ISSUED."""
    settings.MEDIA_ROOT = tmp_path / "media"
    cases = []
    for number, (ibge, name, uf, regime_id) in enumerate(REGIMES, start=1):
        case = pf_case(make_municipality(ibge, name, uf, regime_id), number, f"Pessoa {number}", as_of=ISSUED)
        upload_documents(
            case.vehicle, EXTRA_VEHICLE_DOCUMENTS.get(regime_id, ()), as_of=ISSUED, regime_id=regime_id
        )
        issue_permit(case, as_of=ISSUED)
        cases.append(case)
    return cases
