"""Input facts: frozen dataclasses the apps fill from their rows and scenarios fill from YAML.

``from_dict(PermitApplication, data, where="scenario x")`` builds any facts class from a dict (dates as ISO
strings or ``date`` objects, nested dicts for nested facts, lists for tuples) and raises MissingFactError /
InvalidFactError naming the dotted field path (``operator.person.cnh.category``). Unknown keys are rejected,
so a typo never silently becomes "not given". ``to_dict(facts)`` is the JSON-safe inverse.

Optional fields default to None; a rule that needs one calls ``ctx.require(value, "vehicle.tachograph_ok")``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from lawcode.errors import InvalidFactError, MissingFactError
from lawcode.jsonsafe import json_safe

Severity = Literal["leve", "media", "grave", "gravissima"]
DriverRole = Literal["principal", "auxiliary", "employee", "emergency"]
OwnershipKind = Literal[
    "own", "spouse", "partner", "child", "company_partner", "comodato", "lease", "rental", "fiduciary"
]
NoticeChannel = Literal["in_person", "ar", "electronic", "edital"]


@dataclass(frozen=True)
class CNH:
    """Driving licence: category (A–E, combinations like "AD"), EAR remark, first issue and expiry."""

    category: str
    ear: bool
    first_issue: dt.date | None = None
    expiry: dt.date | None = None
    number: str | None = None


@dataclass(frozen=True)
class Document:
    """A presented document; ``kind`` is a kind the regime declares (documents.yaml) and ``details`` its
    declared detail fields — both checked, and the details typed, when the regime evaluates the facts."""

    kind: str
    issue_date: dt.date | None = None
    expiry_date: dt.date | None = None
    valid: bool | None = None
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TrafficInfraction:
    """A traffic infraction on the driver's record (CTB severities)."""

    date: dt.date
    severity: Severity


@dataclass(frozen=True)
class Person:
    name: str | None = None
    birth_date: dt.date | None = None
    cnh: CNH | None = None
    documents: tuple[Document, ...] = ()
    traffic_infractions: tuple[TrafficInfraction, ...] | None = None
    """The driving record (CTB infractions) as confirmed from a document such as the DETRAN certidão de
    prontuário; ``()`` is a confirmed clean record and None a record nobody confirmed: a rule that counts
    infractions must then say the fact is unknown, never count zero."""
    resident_municipality: str | None = None
    course_completed: bool | None = None
    holds_other_jurisdiction_permit: bool | None = None

    def document(self, kind: str) -> Document | None:
        """The most recently issued document of ``kind`` (None if absent)."""
        return _latest(self.documents, kind)


@dataclass(frozen=True)
class Company:
    name: str | None = None
    cnpj: str | None = None
    seat_municipality: str | None = None
    documents: tuple[Document, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to the regime's own questions about the company (facts.yaml, entity ``company``)."""

    def document(self, kind: str) -> Document | None:
        return _latest(self.documents, kind)


@dataclass(frozen=True)
class Ownership:
    """Who owns the vehicle relative to the operator, and how a third party's vehicle is formalised."""

    kind: OwnershipKind
    contract_registered_rtd: bool | None = None
    renavam_link: bool | None = None
    owner_signature_notarized: bool | None = None
    since: dt.date | None = None
    """Date the applicant began holding the vehicle (purchase or contract start); Patrocínio art. 4 §2."""


@dataclass(frozen=True)
class Vehicle:
    plate: str | None = None
    manufacture_year: int | None = None
    model_year: int | None = None
    seats: int | None = None
    doors: int | None = None
    air_conditioning: bool | None = None
    registration_municipality: str | None = None
    category: Literal["aluguel", "particular"] | None = None
    ownership: Ownership | None = None
    tachograph_ok: bool | None = None
    documents: tuple[Document, ...] = ()
    detran_inspection_approved: bool | None = None
    registered_in_service_on: dt.date | None = None
    last_maintenance: dt.date | None = None
    accessibility: str | None = None
    permit_number_on_doors: bool | None = None
    """Olímpia art. 13 V: the alvará number is shown on both front doors."""
    inspection_approved_on: dt.date | None = None
    """Date of the last approved municipal vistoria (Patrocínio arts. 4 II b and 9); None = not approved yet."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to the regime's own questions about the vehicle (facts.yaml, entity ``vehicle``)."""

    def document(self, kind: str) -> Document | None:
        return _latest(self.documents, kind)


@dataclass(frozen=True)
class Driver:
    person: Person
    role: DriverRole
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to the regime's own questions about the driver (facts.yaml, entity ``driver``)."""


@dataclass(frozen=True)
class Attendant:
    person: Person
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to the regime's own questions about the attendant (facts.yaml, entity ``attendant``)."""


@dataclass(frozen=True)
class PriorSanction:
    """A *final* decision in the operator's history (used for recidivism and the penalty ladder)."""

    infraction_code: str
    infraction_date: dt.date
    final_on: dt.date
    severity: str | None = None
    penalties: tuple[str, ...] = ()
    suspension_days: int | None = None
    final_at: dt.datetime | None = None
    """The legal instant the decision became final (a judgment's publication, the end of the last day to
    appeal), when known: recidivism then compares instants, not days."""


@dataclass(frozen=True)
class Ban:
    reason_code: str
    start: dt.date
    until: dt.date


@dataclass(frozen=True)
class Operator:
    kind: Literal["PF", "PJ"]
    person: Person | None = None
    company: Company | None = None
    active_permits: int = 0
    auxiliary_drivers: int = 0
    history: tuple[PriorSanction, ...] = ()
    bans: tuple[Ban, ...] = ()
    in_service_since: dt.date | None = None
    """Date the operator started providing the service (Olímpia art. 40: transitions for those already active)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to the regime's own questions about the operator (facts.yaml, entity ``operator``)."""


@dataclass(frozen=True)
class PermitApplication:
    operator: Operator
    vehicle: Vehicle
    drivers: tuple[Driver, ...] = ()
    attendants: tuple[Attendant, ...] = ()
    carries_children_under_4_or_pcd: bool | None = None
    enrolled_students: int | None = None
    school_vehicles_in_service: int | None = None
    fleet_cap: int | None = None
    vehicle_drivers: int | None = None
    kind: Literal["new", "renewal", "substitution", "temporary"] = "new"
    filed_on: dt.date | None = None
    intermunicipal_outside_schools: bool | None = None
    """Olímpia art. 17: vehicle licensed elsewhere carrying students to schools outside the municipality."""
    platform_notified_on: dt.date | None = None
    """Patrocínio art. 11-A: date the platform reported a temporary vehicle substitution to the authorities."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to the regime's own questions about the application (facts.yaml, entity ``application``)."""


@dataclass(frozen=True)
class InfractionCase:
    code: str
    date: dt.date
    operator: Operator
    already_punished_as_traffic_only: bool = False
    regularized_by: dt.date | None = None
    decided_final_on: dt.date | None = None
    occurred_at: dt.datetime | None = None
    """The instant of the infraction, when known: recidivism orders it against a prior's ``final_at``."""
    # Votuporanga art. 16: when the notice to regularize within 24 hours was given, and when it was regularized.
    cure_notified_at: dt.datetime | None = None
    regularized_at: dt.datetime | None = None
    auto_date: dt.date | None = None
    """Date the auto de infração was drawn up (may value the fine; Olímpia art. 30)."""
    guide_issue_date: dt.date | None = None
    """Date the payment guide was issued (may value the fine; Olímpia art. 33)."""
    committed_by: str | None = None
    """Name of the driver or attendant who committed it (operator's joint liability, Olímpia art. 28)."""
    auto_omissions: tuple[str, ...] = ()
    """Mandatory contents missing from the auto (Olímpia art. 30 I–VIII keys, e.g. "officer", "place_date_time")."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to the regime's own questions about the infraction (facts.yaml, entity ``infraction``)."""
    judged: dict[str, Decimal] = field(default_factory=dict)
    """Quantities the judging authority chose within the legal range, by penalty key (penalties.yaml ``days:
    judgment`` / ``amount: judgment``): a suspension's days, a fine's quantity."""
    fine_value_may_wait: bool = False
    """True when the asker values the fine itself once a missing unit value is entered (the apps: a fine's one
    valuation): the penalty then stands with its amount in reais open (None) instead of failing for want of,
    say, next year's UFESP. False (the default): a missing unit value is an error, as before."""


@dataclass(frozen=True)
class LawInForceFacts:
    """The ``law_in_force`` question needs no facts."""


@dataclass(frozen=True)
class NoticeFacts:
    """A notice (notificação): how it was sent and when it was received or published."""

    channel: NoticeChannel
    sent_on: dt.date | None = None
    received_on: dt.date | None = None
    published_on: dt.date | None = None
    returned_reason: Literal["address_change", "refusal", "bad_records", "other"] | None = None
    infraction_date: dt.date | None = None
    auto_date: dt.date | None = None
    auto_received_on: dt.date | None = None
    """Date the offender received the auto de infração sent for defence (Patrocínio art. 19 caput and §2)."""


@dataclass(frozen=True)
class DeadlineFacts:
    """Start of a deadline (notice, filing, refusal, fee payment, issue…); ``instance`` for appeals."""

    start: dt.date
    instance: str | None = None
    extensions: int | None = None
    start_time: dt.datetime | None = None


@dataclass(frozen=True)
class InspectionFacts:
    """Inspection calendar and scheduling: plate (last digit), fee payment, year asked, last inspection."""

    plate: str | None = None
    fee_paid_on: dt.date | None = None
    year: int | None = None
    last_inspection: dt.date | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Answers to the regime's own questions about the inspection (facts.yaml, entity ``inspection``), e.g. the
    day the vehicle entered service, before which no calendar inspection was owed."""


@dataclass(frozen=True)
class TripFacts:
    """A trip for the service class (Votuporanga art. 2): times and whether it stays in the urban area."""

    start_time: dt.time
    end_time: dt.time
    within_urban_perimeter: bool


@dataclass(frozen=True)
class FineFacts:
    """A fine in a unit (``brl`` or one the regime declares in units.yaml) and the dates that may value it
    (which one applies is the law's or an interpretation's choice)."""

    quantity: Decimal
    unit: str
    infraction_date: dt.date
    auto_date: dt.date | None = None
    guide_issue_date: dt.date | None = None
    decided_final_on: dt.date | None = None
    """The day the decision became final (a regime may value the fine on it, like the sanction does)."""


StandingRole = Literal["operator", "company", "driver", "vehicle"]


@dataclass(frozen=True)
class Credential:
    """A mandatory document on file, as the apps already judged it: accepted or not, valid until when
    (None: no expiry). ``kind`` is a kind the regime declares (documents.yaml)."""

    kind: str
    valid_until: dt.date | None = None
    accepted: bool = True
    issue_date: dt.date | None = None


@dataclass(frozen=True)
class StandingSubject:
    """Who must keep mandatory documents in force: the autorizatário (a person, ``operator``, or a
    ``company``), a ``driver`` or the ``vehicle``; ``licence`` is the CNH on the driver's record."""

    role: StandingRole
    label: str = ""
    credentials: tuple[Credential, ...] = ()
    licence: CNH | None = None


@dataclass(frozen=True)
class StandingFacts:
    """``document_standing``: the subjects of one permit (or of one driver) and what each holds on file."""

    subjects: tuple[StandingSubject, ...] = ()


def _latest(documents: tuple[Document, ...], kind: str) -> Document | None:
    """The document of ``kind`` issued last (the first of those issued on the same day); None without one."""
    latest, latest_day = None, dt.date.min
    for document in documents:
        if document.kind != kind:
            continue
        day = document.issue_date or dt.date.min
        if latest is None or day > latest_day:
            latest, latest_day = document, day
    return latest


# --- from_dict / to_dict --------------------------------------------------------------------------------

T = TypeVar("T")


def from_dict(cls: type[T], data: Any, where: str | None = None, *, path: str = "") -> T:
    """Build the facts dataclass ``cls`` from ``data``; errors name ``path`` (dotted) and ``where``."""
    if isinstance(data, cls):
        return data
    if not isinstance(data, Mapping):
        raise InvalidFactError(path or cls.__name__, f"expected a mapping for {cls.__name__}", where)
    hints, fields = _schema(cls)
    for key in data:
        if key not in fields:
            raise InvalidFactError(
                _join(path, str(key)), f"unknown field; {cls.__name__} has: {', '.join(fields)}", where
            )
    values: dict[str, Any] = {}
    for name, spec in fields.items():
        child = _join(path, name)
        if name in data:
            values[name] = _convert(hints[name], data[name], child, where)
        elif spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
            raise MissingFactError(child, where)
    try:
        return cls(**values)
    except InvalidFactError as exc:
        raise InvalidFactError(_join(path, exc.field_path), exc.problem, where) from None


_SCHEMAS: dict[type, tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]] = {}


def _schema(cls: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """Resolved type hints and fields of a facts class, memoised (get_type_hints is slow)."""
    schema = _SCHEMAS.get(cls)
    if schema is None:
        fields = {f.name: f for f in dataclasses.fields(cls)}
        schema = _SCHEMAS[cls] = (typing.get_type_hints(cls), fields)
    return schema


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _convert(hint: Any, value: Any, path: str, where: str | None) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(hint) if a is not type(None)]
        if value is None:
            return None
        return _convert(options[0] if len(options) == 1 else Union[tuple(options)], value, path, where)  # noqa: UP007
    if value is None:
        raise MissingFactError(path, where, why="null given for a required field")
    if origin is Literal:
        if value not in get_args(hint):
            raise InvalidFactError(
                path, f"{value!r} is not one of {', '.join(map(str, get_args(hint)))}", where
            )
        return value
    if origin is tuple:
        return _convert_tuple(get_args(hint)[0], value, path, where)
    if origin is dict or hint is dict:
        if not isinstance(value, Mapping):
            raise InvalidFactError(path, "expected a mapping", where)
        return dict(value)
    if dataclasses.is_dataclass(hint):
        return from_dict(hint, value, where, path=path)  # type: ignore[arg-type]
    return _convert_scalar(hint, value, path, where)


def _convert_tuple(item_hint: Any, value: Any, path: str, where: str | None) -> tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise InvalidFactError(path, "expected a list", where)
    return tuple(_convert(item_hint, item, f"{path}[{i}]", where) for i, item in enumerate(value))


def _convert_scalar(hint: Any, value: Any, path: str, where: str | None) -> Any:
    converter = _SCALARS.get(hint)
    if converter is None:
        raise InvalidFactError(path, f"unsupported field type {hint!r}", where)
    try:
        return converter(value)
    except (TypeError, ValueError, InvalidOperation):
        raise InvalidFactError(
            path, f"expected {_TYPE_NAMES.get(hint, hint)}, got {value!r}", where
        ) from None


def _to_date(value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        raise TypeError(value)
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        return dt.date.fromisoformat(value)
    raise TypeError(value)


def _to_datetime(value: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, str) and "T" in value or isinstance(value, str) and " " in value:
        return dt.datetime.fromisoformat(value)
    raise TypeError(value)


def _to_time(value: Any) -> dt.time:
    if isinstance(value, dt.time):
        return value
    if isinstance(value, str):
        return dt.time.fromisoformat(value)
    if isinstance(value, int) and not isinstance(value, bool):
        # YAML 1.1 reads 06:30 as a base-60 integer (390); undo it.
        return dt.time(value // 60, value % 60)
    raise TypeError(value)


def _to_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError(value)
    return int(value)


def _to_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(value)
    return value


def _to_str(value: Any) -> str:
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise TypeError(value)
    return str(value)


def _to_decimal(value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise TypeError(value)
    return Decimal(str(value))


_SCALARS: dict[Any, Any] = {
    dt.date: _to_date,
    dt.datetime: _to_datetime,
    dt.time: _to_time,
    int: _to_int,
    bool: _to_bool,
    str: _to_str,
    Decimal: _to_decimal,
}
_TYPE_NAMES: dict[Any, str] = {
    dt.date: "a date YYYY-MM-DD",
    dt.datetime: "a date-time YYYY-MM-DDTHH:MM",
    dt.time: "a time HH:MM",
    int: "an integer",
    bool: "true or false",
    str: "a text",
    Decimal: "a number",
}


def to_dict(facts: Any) -> Any:
    """JSON-safe form of facts (dates ISO, Decimal as string, tuples as lists); ``from_dict`` inverts it."""
    return json_safe(facts)
