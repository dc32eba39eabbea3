"""Demo legal configuration: closure days each prefeitura decreed, so deadlines in the demo move around them,
Votuporanga's fleet cap (art. 4º-A leaves it to a decree) from a demonstration decree, so the demo can
issue Votuporanga permits, and São José dos Campos' taxi count (art. 19) and fine updates (art. 22 § 2º).

UFM values and interpretation choices are left to the administrator: Patrocínio's UFM is unknown
(docs/domain/facts.md §1.2) and a reading of the law is a legal decision the demo must not make up.
Idempotent: an existing day or parameter value is kept.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from apps.lawconfig.choices import ClosureKind
from apps.lawconfig.models import MunicipalClosure, ParameterValue
from apps.lawconfig.services import closure_add, parameter_value_set
from apps.tenancy.demo import DemoLog, register_demo_seeder
from apps.tenancy.models import Municipality

# (IBGE, date, description, kind): Votuporanga's Dia do Servidor is a day off for the municipal
# administration (Lei 187/2011 art. 220, facts.md §4); the others are demonstration decrees.
DEMO_CLOSURES = (
    (
        "3557105",
        dt.date(2026, 10, 28),
        "Dia do Servidor Público (Lei 187/2011, art. 220)",
        ClosureKind.CLOSURE,
    ),
    (
        "3533908",
        dt.date(2026, 12, 24),
        "Ponto facultativo — véspera de Natal (decreto de demonstração)",
        ClosureKind.CLOSURE,
    ),
    (
        "3148103",
        dt.date(2026, 12, 30),
        "Expediente até 12h (decreto de demonstração)",
        ClosureKind.EARLY_CLOSING,
    ),
)


# (IBGE, regime, parameter, from, value, cite, source): values the law leaves to a municipal decree.
# São José dos Campos: the yearly taxi count (art. 19) and the yearly update of the fines (art. 22 § 2º, by the
# index the municipality applies to its tax debts) are demonstration values, to be replaced by the real ones.
SJC_TAXI = "sao_jose_dos_campos_sp_taxi"
DEMO_PARAMETERS = (
    (
        "3557105",
        "votuporanga_sp_escolar",
        "fleet_cap",
        dt.date(2018, 3, 20),
        Decimal(120),
        "art4A",
        "Decreto de demonstração (dados fictícios)",
    ),
    (
        "3549904",
        SJC_TAXI,
        "fleet_cap",
        dt.date(2025, 1, 1),
        Decimal(440),
        "art19",
        "Decreto de demonstração (dados fictícios)",
    ),
    *(
        (
            "3549904",
            SJC_TAXI,
            "fine_update_percent",
            dt.date(year, 1, 1),
            Decimal(5),
            "art22_par2",
            "Percentual de demonstração (dados fictícios; informar o índice oficial de correção dos débitos fiscais)",
        )
        for year in range(2013, 2027)
    ),
)


@register_demo_seeder
def seed_lawconfig(log: DemoLog) -> None:
    _seed_closures(log)
    _seed_parameters(log)


def _seed_parameters(log: DemoLog) -> None:
    for ibge, regime_id, name, start, value, cite, source in DEMO_PARAMETERS:
        municipality = Municipality.objects.filter(ibge_code=ibge).first()
        if municipality is None or regime_id not in municipality.regimes:
            continue
        if ParameterValue.objects.filter(
            municipality=municipality, regime_id=regime_id, parameter=name, valid_from=start
        ).exists():
            continue
        parameter_value_set(
            actor=None,
            municipality=municipality,
            regime_id=regime_id,
            parameter=name,
            valid_from=start,
            value=value,
            cite=cite,
            source=source,
        )
        log.created += 1


def _seed_closures(log: DemoLog) -> None:
    for ibge, day, description, kind in DEMO_CLOSURES:
        municipality = Municipality.objects.filter(ibge_code=ibge).first()
        if (
            municipality is None
            or MunicipalClosure.objects.filter(municipality=municipality, date=day).exists()
        ):
            continue
        closure_add(actor=None, municipality=municipality, date=day, description=description, kind=kind)
        log.created += 1
