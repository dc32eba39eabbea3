"""Plausibility of registry input: values no real person, address or vehicle can have are refused, each with a
Portuguese message naming the field (a birth date in year 1, UF "XX", CEP "ABCDEFGH", a car made in 1800,
IBGE code 9999999). Legal limits (a vehicle's maximum age, a driver's minimum age) stay in the law engine;
these are only the bounds of reality.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from apps.tenancy.choices import UF, UF_IBGE_PREFIX
from apps.web import plausibility as shared
from apps.web.refusals import refuse

OLDEST_BIRTH_YEARS = 120
FIRST_MANUFACTURE_YEAR = 1900
_CEP = re.compile(r"^\d{8}$")
_CEP_SEPARATORS = re.compile(r"[\s.\-]")
_IBGE_UF_PREFIXES = frozenset(UF_IBGE_PREFIX.values())


def check_birth_date(value: dt.date | None, as_of: dt.date) -> None:
    if value is None:
        return
    earliest = as_of.replace(year=as_of.year - OLDEST_BIRTH_YEARS, month=1, day=1)
    if value < earliest:
        raise refuse(
            "birth_date",
            f"Data de nascimento: {_ddmmyyyy(value)} não é plausível (anterior a {_ddmmyyyy(earliest)}); "
            "confira o documento.",
        )


def _ddmmyyyy(value: dt.date) -> str:
    # strftime writes year 1 as "1", not "0001", on Linux.
    return f"{value.day:02d}/{value.month:02d}/{value.year:04d}"


def normalize_address(obj: Any) -> None:
    """UF in capitals and CEP as its 8 digits, as stored; then refuse what is not a UF or a CEP."""
    obj.uf = (obj.uf or "").strip().upper()
    obj.postal_code = _CEP_SEPARATORS.sub("", obj.postal_code or "")
    if obj.uf and obj.uf not in UF.values:
        raise refuse("uf", f"UF: {obj.uf} não é uma unidade da federação; use a sigla, ex.: SP, MG, DF.")
    if obj.postal_code and not _CEP.match(obj.postal_code):
        raise refuse("postal_code", "CEP: informe os 8 dígitos, ex.: 15400-000.")
    shared.check_cep(obj.postal_code)
    obj.phone = shared.normalize_phone(obj.phone)


def check_driver_dates(driver: Any, as_of: dt.date) -> None:
    """The CNH not before its holder turned 18, the course not before birth, the CNH number not one digit."""
    birth = driver.person.birth_date
    shared.check_cnh_first_issue(driver.cnh_first_issue, birth)
    shared.check_past_fact(
        driver.course_completed_on,
        field="course_completed_on",
        label="Conclusão do curso",
        as_of=as_of,
        since=birth,
        because=f"anterior ao nascimento do condutor, em {shared.ddmmyyyy(birth)}" if birth else "",
    )
    shared.check_not_repeated_digit(driver.cnh_number, field="cnh_number", label="Número da CNH")


def check_vehicle_dates(vehicle: Any, as_of: dt.date) -> None:
    """Owned and serviced only since it was made, never in the future; a RENAVAM of one repeated digit."""
    made = dt.date(max(vehicle.manufacture_year, shared.EARLIEST_DATE.year), 1, 1)
    because = f"anterior ao ano de fabricação, {vehicle.manufacture_year}"
    shared.check_past_fact(
        vehicle.ownership_since,
        field="ownership_since",
        label="Detém o veículo desde",
        as_of=as_of,
        since=made,
        because=because,
    )
    shared.check_past_fact(
        vehicle.last_maintenance,
        field="last_maintenance",
        label="Última manutenção",
        as_of=as_of,
        since=made,
        because=because,
    )
    shared.check_not_repeated_digit(vehicle.renavam, field="renavam", label="RENAVAM")


def check_manufacture_year(year: int) -> None:
    if year < FIRST_MANUFACTURE_YEAR:
        raise refuse(
            "manufacture_year",
            f"Ano de fabricação: {year} não é plausível (anterior a {FIRST_MANUFACTURE_YEAR}); confira o CRLV.",
        )


def check_ibge_code(value: str, field: str, label: str) -> None:
    """7 digits whose first two are a state's IBGE code (35 for SP, 31 for MG…)."""
    if not (len(value) == 7 and value.isdigit()):
        raise refuse(field, f"{label}: informe os 7 dígitos.")
    if value[:2] not in _IBGE_UF_PREFIXES:
        raise refuse(
            field,
            f"{label}: {value} não existe (os dois primeiros dígitos são o código do estado, ex.: 35 para SP).",
        )
