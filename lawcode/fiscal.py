"""Fiscal units → reais.

UFESP (São Paulo): yearly values from ``data/ufesp.csv`` (1 January–31 December), each cited to its SEFAZ-SP
comunicado (declared in external_acts.yaml). A municipality may override or extend the table with the
``ufesp`` parameter in its Config (the next year's value is published each December).
UFM (municipal): the regime's own ``ufm`` parameter (unit brl, dated values). Where no value is known —
Patrocínio — conversion raises MissingParameterError naming what to configure; nothing is invented.

Conversions round to centavos with ROUND_HALF_UP. Use it through the context::

    ctx.to_brl(Decimal("15"), Unit.UFESP, on=infraction_date)     # Decimal('576.30') in 2026
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

from lawcode.errors import RegimeDefinitionError
from lawcode.params import Parameter, ParameterValue
from lawcode.units import Unit

UFESP_FILE = Path(__file__).parent / "data" / "ufesp.csv"
CENTAVOS = Decimal("0.01")
_COMUNICADO = re.compile(r"Comunicado\s+(DA|DICAR)-(\d+)/(\d{2})")


def round_brl(amount: Decimal) -> Decimal:
    """Round to centavos, half up (R$ 0,005 → R$ 0,01)."""
    return amount.quantize(CENTAVOS, rounding=ROUND_HALF_UP)


def comunicado_key(source: str) -> str:
    """The external act key of the SEFAZ-SP comunicado named in a ufesp.csv ``source`` column."""
    match = _COMUNICADO.search(source)
    if match is None:
        raise RegimeDefinitionError(
            f"cannot find the SEFAZ-SP comunicado (e.g. 'Comunicado DA-80/14') in {source!r}",
            message_pt="a fonte da UFESP deve citar o comunicado da SEFAZ-SP",
            file=str(UFESP_FILE),
        )
    kind, number, year = match.groups()
    return f"sefaz_sp_{kind.lower()}_{int(number)}_{year}"


@dataclass(frozen=True)
class UfespRow:
    year: int
    value: Decimal
    act_key: str
    line: int


@functools.cache
def ufesp_table() -> tuple[UfespRow, ...]:
    """Rows of data/ufesp.csv (year, value in R$, SEFAZ-SP act key); RegimeDefinitionError with line if bad."""
    rows = []
    with UFESP_FILE.open(encoding="utf-8", newline="") as handle:
        for line, record in enumerate(csv.DictReader(handle), start=2):
            try:
                rows.append(
                    UfespRow(
                        int(record["year"]),
                        Decimal(record["value_brl"]),
                        comunicado_key(record["source"]),
                        line,
                    )
                )
            except (KeyError, ValueError, InvalidOperation, TypeError) as exc:
                raise RegimeDefinitionError(
                    f"bad UFESP row: {exc}",
                    message_pt="linha inválida na tabela da UFESP",
                    file=str(UFESP_FILE),
                    line=line,
                ) from exc
    return tuple(sorted(rows, key=lambda r: r.year))


def ufesp_parameter() -> Parameter:
    """The UFESP table as a dated parameter (one value per 1 January), each value cited to its comunicado."""
    values = tuple(
        ParameterValue(dt.date(row.year, 1, 1), row.value, row.act_key, "V", None, f"{UFESP_FILE}:{row.line}")
        for row in ufesp_table()
    )
    return Parameter("ufesp", "Valor da UFESP (SEFAZ-SP)", Unit.BRL, values, str(UFESP_FILE))
