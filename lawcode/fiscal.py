"""Fine units → reais, and the loader of a regime's ``units.yaml`` (format: units.py).

A declared unit is valued on a date by its parameter: ``valued_by: parameter`` (UFESP, UFM, a tariff set by
decree — one unit is worth the parameter's value) or ``valued_by: index`` (reais at a base date re-indexed by
each yearly percentage dated after it: factor = Π (1 + p/100), applied unrounded, the amount rounded once).

UFESP (São Paulo): yearly values from ``data/ufesp.csv`` (1 January–31 December), each cited to its SEFAZ-SP
comunicado (declared in external_acts.yaml). It is a *shared table* (``shared_parameters()``): a value of the
state or the Union, the same for every regime that uses it. The CSV is the shipped default and the initial data;
an installation keeps the next years' values outside the code (the apps store them and hand them over in
``Config.parameters['ufesp']``, each citing an act entered with it in ``Config.acts``; the next year's value is
published each December). ``read_table_csv`` reads any file of the CSV's shape (year,value_brl,source).
UFM (municipal): the regime's own ``ufm`` parameter (unit brl, dated values). Where no value is known —
Patrocínio — conversion raises MissingParameterError naming what to configure; nothing is invented.

Conversions round to centavos with ROUND_HALF_UP. Use it through the context::

    ctx.to_brl(Decimal("15"), "ufesp", on=infraction_date)     # Decimal('576.30') in 2026
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

from lawcode.citations import Citer
from lawcode.errors import RegimeDefinitionError
from lawcode.params import Parameter, ParameterValue
from lawcode.units import VALUATIONS, FineUnit, Unit
from lawcode.yamlsource import YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

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
    return tuple(
        UfespRow(row.year, row.value, comunicado_key(row.source), row.line)
        for row in read_table_csv(UFESP_FILE)
    )


@dataclass(frozen=True)
class TableRow:
    """One line of a yearly table in the shape of data/ufesp.csv: the value holds from 1 January of ``year``."""

    year: int
    value: Decimal
    source: str
    line: int

    @property
    def valid_from(self) -> dt.date:
        return dt.date(self.year, 1, 1)

    @property
    def act(self) -> str:
        """The act named by ``source`` as Brazilians write it: "Comunicado DICAR-88/25 da SEFAZ-SP"."""
        match = _COMUNICADO.search(self.source)
        if match is None:
            return self.source.split(";")[0].strip()
        kind, number, year = match.groups()
        return f"Comunicado {kind}-{number}/{year} da SEFAZ-SP"

    @property
    def published(self) -> dt.date | None:
        """The publication date written in ``source`` as (dd-mm-aaaa) or (dd/mm/aaaa), if any."""
        match = _PUBLISHED.search(self.source)
        if match is None:
            return None
        day, month, year = (int(part) for part in match.groups())
        try:
            return dt.date(year, month, day)
        except ValueError:
            return None


_PUBLISHED = re.compile(r"\((\d{2})[-/](\d{2})[-/](\d{4})\)")
TABLE_COLUMNS = ("year", "value_brl", "source")


def read_table_csv(path: Path) -> tuple[TableRow, ...]:
    """The rows of a CSV shaped like data/ufesp.csv (year,value_brl,source), by year; RegimeDefinitionError
    (with the line and a Portuguese message naming the column) for a missing column, a bad number or a year
    given twice."""
    rows: dict[int, TableRow] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [column for column in TABLE_COLUMNS if column not in (reader.fieldnames or ())]
        if missing:
            raise RegimeDefinitionError(
                f"missing column(s) {', '.join(missing)}",
                message_pt=f"faltam as colunas {', '.join(missing)} (o arquivo deve ter year,value_brl,source)",
                file=str(path),
                line=1,
            )
        for line, record in enumerate(reader, start=2):
            rows_line = _table_row(record, line, path)
            if rows_line.year in rows:
                raise RegimeDefinitionError(
                    f"year {rows_line.year} given twice",
                    message_pt=f"year: o ano {rows_line.year} aparece duas vezes",
                    file=str(path),
                    line=line,
                )
            rows[rows_line.year] = rows_line
    return tuple(rows[year] for year in sorted(rows))


def _table_row(record: dict[str, str], line: int, path: Path) -> TableRow:
    column = "year"
    try:
        year = int(record["year"])
        if not 1900 < year < 2200:
            raise ValueError(year)
        column = "value_brl"
        value = Decimal(record["value_brl"].strip())
        if not value.is_finite() or value <= 0:
            raise ValueError(value)
        column = "source"
        source = (record["source"] or "").strip()
        if not source:
            raise ValueError("empty")
    except (KeyError, ValueError, InvalidOperation, TypeError, AttributeError) as exc:
        shown = {
            "year": "year: informe o ano com quatro algarismos",
            "value_brl": "value_brl: informe um valor positivo com ponto decimal (ex.: 38.42)",
            "source": "source: informe o ato que fixou o valor",
        }[column]
        raise RegimeDefinitionError(
            f"bad row, column {column}: {exc}", message_pt=shown, file=str(path), line=line
        ) from exc
    return TableRow(year, value, source, line)


def shared_parameters() -> dict[str, Parameter]:
    """Tables of the state or the Union the engine ships, by parameter name: the same for every regime that
    values a unit by them, kept once per installation (never a municipality's value)."""
    return {"ufesp": ufesp_parameter()}


def ufesp_parameter() -> Parameter:
    """The UFESP table as a dated parameter (one value per 1 January), each value cited to its comunicado."""
    values = tuple(
        ParameterValue(dt.date(row.year, 1, 1), row.value, row.act_key, "V", None, f"{UFESP_FILE}:{row.line}")
        for row in ufesp_table()
    )
    return Parameter("ufesp", "Valor da UFESP (SEFAZ-SP)", Unit.BRL, values, str(UFESP_FILE))


_UNIT_KEYS = ("label", "name", "valued_by", "parameter", "base", "per_calendar_year", "cite", "note")


def load_units(folder: Path, citer: Citer) -> dict[str, FineUnit]:
    """units.yaml of ``folder``: the regime's fine units (absent: only plain reais, ``brl``)."""
    path = folder / "units.yaml"
    if not path.exists():
        return {}
    root = require_map(load_yaml(path) or YamlMap(), str(path), "units.yaml")
    reject_unknown_keys(root, ("units",), "units.yaml")
    require_keys(root, ("units",), "units.yaml")
    units = require_map(root["units"], str(path), "units", root.line_of("units"))
    out = {}
    for key, node in units.items():
        entry = require_map(node, str(path), f"unit '{key}'", units.line_of(str(key)))
        out[str(key)] = _fine_unit(str(key), entry, citer)
    return out


def _fine_unit(key: str, node: YamlMap, citer: Citer) -> FineUnit:
    where = f"unit '{key}'"
    if key in {u.value for u in Unit}:
        raise RegimeDefinitionError(
            f"{where}: {key!r} is an engine measure (plain reais are 'brl'); pick another key",
            message_pt=f"{where}: {key!r} já é uma unidade do engine",
            file=node.source,
            line=node.line,
        )
    reject_unknown_keys(node, _UNIT_KEYS, where)
    require_keys(node, ("label", "name", "valued_by", "parameter", "cite"), where)
    valued_by = str(node["valued_by"])
    if valued_by not in VALUATIONS:
        raise RegimeDefinitionError(
            f"{where}: valued_by must be one of {', '.join(VALUATIONS)}, got {valued_by!r}",
            message_pt=f"{where}: 'valued_by' deve ser {' ou '.join(VALUATIONS)}",
            file=node.source,
            line=node.line_of("valued_by"),
        )
    base = node.get("base")
    if (valued_by == "index") != (base is not None) or (
        base is not None and (not isinstance(base, dt.date) or isinstance(base, dt.datetime))
    ):
        raise RegimeDefinitionError(
            f"{where}: 'base' (a date YYYY-MM-DD: when the amounts are expressed) is required for, and only "
            "for, valued_by: index",
            message_pt=f"{where}: 'base' (data AAAA-MM-DD) é exigida só para valued_by: index",
            file=node.source,
            line=node.line_of("base"),
        )
    per_year = node.get("per_calendar_year", False)
    if not isinstance(per_year, bool):
        raise RegimeDefinitionError(
            f"{where}: per_calendar_year must be true or false",
            file=node.source,
            line=node.line_of("per_calendar_year"),
        )
    return FineUnit(
        key,
        str(node["label"]),
        str(node["name"]),
        valued_by,
        str(node["parameter"]),
        citer.validate(node["cite"], file=node.source, line=node.line_of("cite")),
        base,
        per_year,
        f"{node.source}:{node.line}",
    )


def check_unit_parameters(
    units: dict[str, FineUnit], parameters: dict[str, Parameter], regime_id: str
) -> None:
    """Each unit's parameter exists with the right unit (brl for ``parameter``, percent for ``index``)."""
    for unit in units.values():
        wanted = Unit.PERCENT if unit.valued_by == "index" else Unit.BRL
        parameter = parameters.get(unit.parameter)
        if parameter is None or parameter.unit is not wanted:
            file, _, line = unit.source.rpartition(":")
            raise RegimeDefinitionError(
                f"unit '{unit.key}' of {regime_id} is valued by parameter '{unit.parameter}', which must be declared "
                f"in parameters.yaml with unit {wanted.value}",
                message_pt=f"a unidade '{unit.key}' usa o parâmetro '{unit.parameter}', que deve existir com unidade "
                f"{wanted.label_pt}",
                file=file or None,
                line=int(line) if line.isdigit() else None,
            )


def index_factor(
    values: tuple[ParameterValue, ...], base: dt.date, on: dt.date
) -> tuple[Decimal, list[ParameterValue]]:
    """Π (1 + p/100) over the percentages dated after ``base`` up to ``on``, and the values used."""
    factor = Decimal(1)
    used = []
    for value in values:
        if base < value.effective_from <= on and value.value is not None:
            factor *= 1 + Decimal(value.value) / 100
            used.append(value)
    return factor, used


def missing_yearly_reindexing(
    values: tuple[ParameterValue, ...], base: dt.date, on: dt.date
) -> dt.date | None:
    """For an index re-applied every 1st January (``per_calendar_year``): the first 1st January after ``base`` up
    to ``on`` with no percentage dated that very day, or None. From 1 January of year Y the law's amount is the one
    re-indexed by year Y's percentage; valuing on or after that day without it would silently charge the amount
    of an earlier year (a stale factor), so the asker must wait for it instead."""
    dated = {value.effective_from for value in values if value.value is not None}
    for year in range(base.year + 1, on.year + 1):
        january = dt.date(year, 1, 1)
        if january not in dated:
            return january
    return None
