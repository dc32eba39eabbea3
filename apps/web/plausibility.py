"""The plausibility layer: values no real person, document, vehicle or calendar can have are refused, each with a
Portuguese message naming the field (issue 28, item 5). Services call it, so a form, the staff API and an import
all meet the same refusal.

- Dates: not before the person existed (a CNH issued before its holder turned 18, CTB art. 140, I; a course
  finished before birth), not before the thing existed (owning or servicing a vehicle before it was made),
  not before the law in force (an auto dated before the regime's law), not before EARLIEST_DATE in any case,
  and not in the future when the fact cannot be (a maintenance done tomorrow).
- Identifiers: check digits where they are public (CPF, CNPJ, RENAVAM: apps.registry.identifiers), and never a
  number made of one repeated digit (00000000000, 11111111111), which no issuing body hands out (CPF, CNPJ,
  RENAVAM, CNH).
- Phones: DDD (11 to 99, no zero digit) and 8 or 9 digits; a 9-digit number is a mobile and starts with 9.
- CEP: 8 digits from 01000-000 (below that none exists).

Legal limits (a vehicle's maximum age, a driver's minimum age for the service) stay in the law engine; these
are only the bounds of reality.
"""

from __future__ import annotations

import datetime as dt
import re

from apps.web.refusals import refuse

# Nothing this system records happened before: its oldest facts are people's birth dates (born 1900 or later
# to be alive when a regime is in force) and vehicles made since then.
EARLIEST_DATE = dt.date(1900, 1, 1)
CNH_MINIMUM_AGE = 18  # CTB art. 140, I: only the criminally responsible (18) may hold a CNH
_NOT_DIGIT = re.compile(r"\D")
_PHONE_SEPARATORS = re.compile(r"[\s().\-+]")


def ddmmyyyy(value: dt.date) -> str:
    # strftime writes year 1 as "1", not "0001", on Linux.
    return f"{value.day:02d}/{value.month:02d}/{value.year:04d}"


def check_date(
    value: dt.date | None,
    *,
    field: str,
    label: str,
    not_before: dt.date | None = None,
    because: str = "",
    not_after: dt.date | None = None,
    after_because: str = "",
) -> None:
    """Refuse `value` before `not_before` (EARLIEST_DATE at the latest) or after `not_after`, saying why."""
    if value is None:
        return
    floor = max(not_before or EARLIEST_DATE, EARLIEST_DATE)
    if value < floor:
        reason = because or f"anterior a {ddmmyyyy(floor)}"
        raise refuse(
            field,
            f"{label}: {ddmmyyyy(value)} não é plausível ({reason}); confira o documento.",
            "implausible",
        )
    if not_after is not None and value > not_after:
        reason = after_because or f"posterior a {ddmmyyyy(not_after)}"
        raise refuse(field, f"{label}: {ddmmyyyy(value)} não é plausível ({reason}).", "implausible")


def check_past_fact(
    value: dt.date | None,
    *,
    field: str,
    label: str,
    as_of: dt.date,
    since: dt.date | None = None,
    because: str = "",
) -> None:
    """A fact that has already happened: not in the future, not before `since` (nor EARLIEST_DATE)."""
    check_date(
        value,
        field=field,
        label=label,
        not_before=since,
        because=because,
        not_after=as_of,
        after_because=f"está no futuro; hoje é {ddmmyyyy(as_of)}",
    )


def check_cnh_first_issue(
    value: dt.date | None, birth_date: dt.date | None, *, field: str = "cnh_first_issue"
) -> None:
    if value is None or birth_date is None:
        return
    eighteen = _years_after(birth_date, CNH_MINIMUM_AGE)
    check_date(
        value,
        field=field,
        label="Primeira habilitação",
        not_before=eighteen,
        because=f"o condutor, nascido em {ddmmyyyy(birth_date)}, só pôde se habilitar a partir de "
        f"{ddmmyyyy(eighteen)} — CTB, art. 140, I",
    )


def _years_after(day: dt.date, years: int) -> dt.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def check_not_repeated_digit(value: str, *, field: str, label: str) -> None:
    """No issuing body hands out 00000000000 or 99999999999."""
    digits = _NOT_DIGIT.sub("", value or "")
    if digits and len(set(digits)) == 1:
        raise refuse(
            field, f"{label}: {value} não é um número válido (só um dígito repetido).", "implausible"
        )


def normalize_phone(value: str, *, field: str = "phone", label: str = "Telefone") -> str:
    """The phone as stored (DDD and number, digits only), or a refusal naming the field; blank stays blank."""
    raw = (value or "").strip()
    if not raw:
        return ""
    digits = _PHONE_SEPARATORS.sub("", raw)
    if digits.startswith("55") and len(digits) in (12, 13):  # +55, the country code
        digits = digits[2:]
    if digits.startswith("0") and len(digits) in (11, 12):  # 0 before the DDD (long distance)
        digits = digits[1:]
    example = "ex.: (17) 99123-4567 ou (17) 3281-1234"
    if not digits.isdigit() or len(digits) not in (10, 11):
        raise refuse(field, f"{label}: informe DDD e número, 10 ou 11 dígitos ({example}).", "implausible")
    ddd, number = digits[:2], digits[2:]
    if "0" in ddd:
        raise refuse(field, f"{label}: o DDD {ddd} não existe ({example}).", "implausible")
    if len(number) == 9 and not number.startswith("9"):
        raise refuse(field, f"{label}: um celular de 9 dígitos começa com 9 ({example}).", "implausible")
    if len(number) == 8 and number[0] in "01":
        raise refuse(field, f"{label}: número fixo inválido ({example}).", "implausible")
    if len(set(number)) == 1:
        raise refuse(field, f"{label}: {raw} não é um número válido ({example}).", "implausible")
    return digits


def check_cep(value: str, *, field: str = "postal_code") -> None:
    """8 digits (already normalized) from 01000-000 on."""
    if not value:
        return
    if not (len(value) == 8 and value.isdigit()):
        raise refuse(field, "CEP: informe os 8 dígitos, ex.: 15400-000.", "implausible")
    if value < "01000000" or len(set(value)) == 1:
        raise refuse(
            field,
            f"CEP: {value[:5]}-{value[5:]} não existe; confira no comprovante de endereço.",
            "implausible",
        )
