"""Demo legal configuration: closure days each prefeitura decreed, so deadlines in the demo move around them.

UFM values and interpretation choices are left to the administrator: Patrocínio's UFM is unknown
(docs/domain/facts.md §1.2) and a reading of the law is a legal decision the demo must not make up.
Idempotent: an existing day is kept.
"""

from __future__ import annotations

import datetime as dt

from apps.lawconfig.choices import ClosureKind
from apps.lawconfig.models import MunicipalClosure
from apps.lawconfig.services import closure_add
from apps.tenancy.demo import DemoLog, register_demo_seeder
from apps.tenancy.models import Municipality

# (IBGE, date, description, kind): Votuporanga's Dia do Servidor is a day off for the municipal
# administration (Lei 187/2011 art. 220, facts.md §4); the others are demonstration decrees.
DEMO_CLOSURES = (
    ("3557105", dt.date(2026, 10, 28), "Dia do Servidor Público (Lei 187/2011, art. 220)", ClosureKind.CLOSURE),
    ("3533908", dt.date(2026, 12, 24), "Ponto facultativo — véspera de Natal (decreto de demonstração)",
     ClosureKind.CLOSURE),
    ("3148103", dt.date(2026, 12, 30), "Expediente até 12h (decreto de demonstração)", ClosureKind.EARLY_CLOSING),
)  # fmt: skip


@register_demo_seeder
def seed_lawconfig(log: DemoLog) -> None:
    for ibge, day, description, kind in DEMO_CLOSURES:
        municipality = Municipality.objects.filter(ibge_code=ibge).first()
        if (
            municipality is None
            or MunicipalClosure.objects.filter(municipality=municipality, date=day).exists()
        ):
            continue
        closure_add(actor=None, municipality=municipality, date=day, description=description, kind=kind)
        log.created += 1
