"""Public verification: what a parent at the school gate may know about a vehicle today, and nothing more.

Every answer is a PublicVerification, a whitelist of fields: permit number and kind, validity, vehicle make,
model and plate, the holder's name as printed on the permit. The rows are read with .only() those columns, so a
CPF, an address, a phone or a CNH number is never even loaded. The status is computed for the `as_of` date the
caller gives (the prefeitura's calendar day), not from the permit's stored state alone: an active permit past
its validity is expired today even before the nightly sweep marks it.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import lawcode
from apps.licensing.choices import PermitKind
from apps.licensing.models import Permit
from apps.licensing.naming import permit_title
from apps.licensing.standing import by_acts, permit_standing
from apps.public import conf
from apps.public.choices import LookupVia, VerificationStatus
from apps.public.selectors import Lookup
from apps.public.standing_rows import PUBLIC_ROWS
from apps.registry.identifiers import format_plate, normalize_plate, plate_format
from apps.tenancy.models import Municipality
from apps.tenancy.regimes import GENERIC_INSTRUMENT, instrument_of
from lawcode.errors import RegimeDefinitionError
from lawcode.labels import Instrument

TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{32}$")
PERMIT_NUMBER_SHAPE = re.compile(r"^(\d{1,6})\s*/\s*(\d{4})$")
# A run of 11+ digits (with the usual punctuation) in a printed name is a CPF or CNPJ (an MEI's legal name
# carries its owner's CPF): the public page prints the name without it.
DOCUMENT_NUMBER_IN_NAME = re.compile(r"\s*\d(?:[\s./-]?\d){10,}")

PUBLIC_FIELDS = (
    "pk",
    "number",
    "kind",
    "state",
    "regime_id",
    "valid_from",
    "valid_until",
    "suspended_until",
    "issued_on",
    "closed_on",
    "closed_reason",
    "driver",
    "municipality__name",
    "municipality__uf",
    "municipality__ibge_code",
    "municipality__regimes",  # the law's configuration is read per regime (lawconfig.regime_for)
    "vehicle__make",
    "vehicle__model",
    "vehicle__plate",
    "operator__kind",
    "operator__person__name",
    "operator__company__legal_name",
)

STATUS_MESSAGES = {
    VerificationStatus.REGULAR: "Pode transportar passageiros hoje.",
    VerificationStatus.SUSPENDED: "NÃO pode transportar passageiros: {the} está suspens{o}.",
    VerificationStatus.IRREGULAR: "NÃO pode transportar passageiros: há documento obrigatório vencido ou ausente.",
    VerificationStatus.EXPIRED: "NÃO pode transportar passageiros: {the} está vencid{o}.",
    VerificationStatus.REVOKED: "NÃO pode transportar passageiros: {the} foi cassad{o}.",
    VerificationStatus.CANCELLED: "NÃO pode transportar passageiros: {the} foi encerrad{o}.",
    VerificationStatus.NOT_YET_VALID: "NÃO pode transportar passageiros: {the} ainda não está em vigor.",
    VerificationStatus.UNKNOWN: "Nenhuma autorização encontrada. Não embarque e avise a prefeitura.",
}
"""What the lookup says, with the instrument as the permit's law names it ({the}: "o termo" or "a autorização";
{o}: the ending that agrees with it)."""


class InvalidQuery(ValueError):
    """A plate, permit number, token or municipality that cannot be looked up, with a stable code."""

    def __init__(self, code: str, message_pt: str) -> None:
        super().__init__(message_pt)
        self.code = code
        self.message_pt = message_pt


@dataclass(frozen=True)
class Query:
    via: str
    value: str
    municipality: Municipality | None = None


@dataclass(frozen=True)
class PublicVerification:
    status: str
    checked_on: dt.date
    municipality: str = ""
    municipality_ibge: str = ""
    service: str = ""
    permit_number: str = ""
    permit_kind: str = ""
    valid_from: dt.date | None = None
    valid_until: dt.date | None = None
    suspended_until: dt.date | None = None
    vehicle_make: str = ""
    vehicle_model: str = ""
    plate: str = ""
    holder_name: str = ""
    reason: str = ""
    articles: tuple[str, ...] = ()
    instrument: Instrument = GENERIC_INSTRUMENT  # the permit's law's name for it (labels.yaml)

    @property
    def may_carry_passengers(self) -> bool:
        return self.status == VerificationStatus.REGULAR

    @property
    def status_label(self) -> str:
        return str(VerificationStatus(self.status).label)

    @property
    def message(self) -> str:
        words = self.instrument
        text = STATUS_MESSAGES[VerificationStatus(self.status)].format(
            the=words.the(), o="o" if words.gender == "m" else "a"
        )
        if self.status == VerificationStatus.REGULAR and self.permit_number:
            return f"{words.lookup}. {text}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """The JSON answer: exactly these keys, dates in ISO format."""
        return {
            "status": self.status,
            "status_label": self.status_label,
            "may_carry_passengers": self.may_carry_passengers,
            "message": self.message,
            "checked_on": self.checked_on.isoformat(),
            "municipality": self.municipality,
            "municipality_ibge": self.municipality_ibge,
            "service": self.service,
            "permit_number": self.permit_number,
            "permit_kind": self.permit_kind,
            "valid_from": _iso(self.valid_from),
            "valid_until": _iso(self.valid_until),
            "suspended_until": _iso(self.suspended_until),
            "vehicle": {"make": self.vehicle_make, "model": self.vehicle_model, "plate": self.plate},
            "holder_name": self.holder_name,
            "reason": self.reason,
            "articles": list(self.articles),
        }


def _iso(day: dt.date | None) -> str | None:
    return day.isoformat() if day else None


def parse_plate_or_number(text: str) -> tuple[str, str]:
    """What the parent typed: a plate (old or Mercosul) or a permit number 'NNNN/AAAA'."""
    cleaned = (text or "").strip()
    if not cleaned:
        raise InvalidQuery("empty_query", "Digite a placa do veículo ou o número da autorização.")
    number = PERMIT_NUMBER_SHAPE.match(cleaned)
    if number:
        return LookupVia.PERMIT, f"{int(number[1]):04d}/{number[2]}"
    if plate_format(cleaned) is not None:
        return LookupVia.PLATE, normalize_plate(cleaned)
    raise InvalidQuery(
        "invalid_query",
        "Não reconhecemos o que foi digitado. Use a placa (ABC1234 ou ABC1D23) ou o número da autorização (0001/2026).",
    )


def parse_plate(text: str) -> str:
    if plate_format(text or "") is None:
        raise InvalidQuery(
            "invalid_plate", "Placa inválida: use o formato antigo (ABC1234) ou o Mercosul (ABC1D23)."
        )
    return normalize_plate(text)


def parse_permit_number(text: str) -> str:
    match = PERMIT_NUMBER_SHAPE.match((text or "").strip())
    if match is None:
        raise InvalidQuery(
            "invalid_permit_number", "Número da autorização inválido: use o formato 0001/2026."
        )
    return f"{int(match[1]):04d}/{match[2]}"


def parse_token(text: str) -> str:
    if not TOKEN_SHAPE.match(text or ""):
        raise InvalidQuery(
            "invalid_token", "Código de verificação inválido: confira se o QR code foi lido por inteiro."
        )
    return text


_KNOWN_MUNICIPALITIES: dict[str, tuple[float, Municipality]] = {}


def municipality_of(ibge_code: str | None, *, kept: bool = True) -> Municipality | None:
    """The municipality of an IBGE code. A read-only lookup (``kept``) takes it from this process's memory for
    PUBLIC_MUNICIPALITY_TTL seconds: every lookup names one of a handful of towns, and a database round trip per
    lookup for it is the peak's main cost. A write (a complaint filed against it) asks the database
    (``kept=False``), so it never acts on a row that changed or went. Codes that match nothing are not kept (random
    codes must not grow the memory)."""
    if ibge_code is None:
        return None
    code = ibge_code.strip()
    remembered = _KNOWN_MUNICIPALITIES.get(code) if kept else None
    if remembered is not None and remembered[0] > time.monotonic():
        return remembered[1]
    found = (
        Municipality.objects.filter(ibge_code=code).only("pk", "name", "uf", "ibge_code", "regimes").first()
    )
    if found is not None:
        _KNOWN_MUNICIPALITIES[code] = (time.monotonic() + conf.municipality_ttl_seconds(), found)
    return found


def municipality_by_ibge(code: str) -> Municipality:
    """The municipality a write is about, read from the database; refuses a code that names no municipality
    served here."""
    municipality = municipality_of(code or "", kept=False)
    if municipality is None:
        raise InvalidQuery("unknown_municipality", "Escolha um dos municípios atendidos por esta consulta.")
    return municipality


def verify(query: Query, *, as_of: dt.date) -> list[PublicVerification]:
    """The verification for each matching vehicle; an empty list when nothing matches."""
    permits = list(_permits_for(query))
    if query.via == LookupVia.TOKEN:
        return [present(permit, as_of) for permit in permits]
    return [present(_current(rows, as_of), as_of) for rows in _by_vehicle(permits).values()]


def unknown(as_of: dt.date, municipality: Municipality | None = None) -> PublicVerification:
    return PublicVerification(
        status=VerificationStatus.UNKNOWN,
        checked_on=as_of,
        municipality=str(municipality) if municipality else "",
        municipality_ibge=municipality.ibge_code if municipality else "",
    )


# The lookup's SELECT, written once (apps.public.selectors): same rows as the ORM's
# Permit.objects.select_related(...).only(*PUBLIC_FIELDS), without compiling it on every request.
LOOKUP = Lookup(PUBLIC_FIELDS)
NOT_EMERGENCY = (
    "NOT ({permit.kind} = %s)"  # an emergency driver's authorization rides on the vehicle's permit
)


def _permits_for(query: Query) -> Iterable[Permit]:
    """One vehicle's few permits (no sort: _current() picks)."""
    if query.via == LookupVia.TOKEN:
        return LOOKUP.run("{permit.qr_token} = %s", [query.value])
    if query.via == LookupVia.PLATE:
        return _plate_rows(query)
    sequence, year = query.value.split("/")
    town = query.municipality.pk if query.municipality else None
    return LOOKUP.run(
        "{permit.municipality} = %s AND {permit.year} = %s AND {permit.sequence} = %s",
        [town, int(year), int(sequence)],
    )


def _plate_rows(query: Query) -> list[Permit]:
    """A plate is unique nationally: without a municipality it is looked up in all of them (vehicle_plate_idx);
    with one, both columns of the vehicle's (municipality, plate) unique index, or PostgreSQL scans it whole."""
    emergency = PermitKind.EMERGENCY.value
    if query.municipality is None:
        return LOOKUP.run(f"{{vehicle.plate}} = %s AND {NOT_EMERGENCY}", [query.value, emergency])
    town = query.municipality.pk
    return LOOKUP.run(
        "{permit.municipality} = %s AND {vehicle.municipality} = %s AND {vehicle.plate} = %s AND "
        + NOT_EMERGENCY,
        [town, town, query.value, emergency],
    )


def _by_vehicle(permits: list[Permit]) -> dict[int, list[Permit]]:
    grouped: dict[int, list[Permit]] = {}
    for permit in permits:
        grouped.setdefault(permit.vehicle_id, []).append(permit)
    return grouped


def _current(permits: list[Permit], as_of: dt.date) -> Permit:
    """The permit that speaks for the vehicle today: one in force if any, else the most recent act."""
    regular = [p for p in permits if status_on(p, as_of) == VerificationStatus.REGULAR]
    candidates = regular or permits
    return max(candidates, key=lambda p: (p.valid_from, p.issued_on, p.pk))


def status_on(permit: Permit, as_of: dt.date) -> str:
    """The status the permit's own acts give (apps.licensing.standing); present() adds the documents."""
    return by_acts(permit, as_of).status


def published_holder_name(permit: Permit) -> str:
    """The holder's name as the permit prints it, without any CPF/CNPJ a company name may embed."""
    operator = permit.operator
    holder = operator.person.name if operator.person_id else operator.company.legal_name  # type: ignore[union-attr]
    return without_document_numbers(holder)


def without_document_numbers(name: str) -> str:
    return DOCUMENT_NUMBER_IN_NAME.sub("", name).strip(" -–—")


def present(permit: Permit, as_of: dt.date) -> PublicVerification:
    standing = permit_standing(permit, as_of=as_of, reader=PUBLIC_ROWS)  # the written-once SQL, same rows
    status = standing.status
    return PublicVerification(
        status=status,
        checked_on=as_of,
        municipality=str(permit.municipality),
        municipality_ibge=permit.municipality.ibge_code,
        service=_service_name(permit.regime_id),
        permit_number=permit.number,
        permit_kind=permit_title(permit),
        valid_from=permit.valid_from,
        valid_until=permit.valid_until,
        suspended_until=permit.suspended_until if status == VerificationStatus.SUSPENDED else None,
        vehicle_make=permit.vehicle.make,
        vehicle_model=permit.vehicle.model,
        plate=format_plate(permit.vehicle.plate),
        holder_name=published_holder_name(permit),
        reason=standing.reason if standing.document_driven else "",
        articles=standing.articles,
        instrument=instrument_of(permit.regime_id),
    )


def _service_name(regime_id: str) -> str:
    try:
        return lawcode.get_regime(regime_id).name
    except RegimeDefinitionError:
        return regime_id
