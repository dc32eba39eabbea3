"""The legal status of a permit (and of a driver under it) as of a date: the one place every screen, API answer
and feed reads it from.

Two layers, in order: the permit's own acts (revoked, cancelled, suspended until a day, expired, not yet in
force), then — for a permit that is otherwise in force — the law's ``document_standing`` decision over the
mandatory documents its regime declares (standing.yaml): an expired or missing CNH, CRLV or insurance makes it
irregular or suspended, with the reason and the article. Rows are read in bulk: statuses for a thousand permits
cost a handful of SELECTs, and the engine runs in memory.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import Any, Protocol

from django.db.models import Q

import lawcode
from apps.lawconfig.config import config_for
from apps.licensing import lawbridge
from apps.licensing.choices import LegalStatus, PermitKind, PermitState
from apps.licensing.models import Permit
from apps.registry.choices import DocumentStatus, OperatorKind
from apps.registry.models import Document, Driver, Operator
from lawcode import facts as f
from lawcode.calendar import format_date_pt
from lawcode.config import Config
from lawcode.decision import Status

DOCUMENT_COLUMNS = (
    "kind",
    "valid_until",
    "status",
    "issue_date",
    "person_id",
    "company_id",
    "vehicle_id",
    "operator_id",
)
OPERATOR_COLUMNS = frozenset({"id", "kind", "person_id", "company_id"})  # what _subjects reads
DRIVER_COLUMNS = (
    "pk",
    "operator_id",
    "person_id",
    "role",
    "cnh_category",
    "cnh_ear",
    "cnh_expiry",
    "vehicle_id",
)
ROLE_LABELS = {
    "auxiliary": "do condutor auxiliar",
    "employee": "do condutor empregado",
    "emergency": "do condutor emergencial",
    "principal": "do condutor",
}


class DecisionRecord(Mapping[str, Any]):
    """A decision's ``to_dict()``, worked out when first read: most callers only ask whether the standing came
    from the documents (``document_driven``) and the public lookup never reads it (issue 12: building it was a
    tenth of a lookup's CPU). The decision is immutable, so the dict is the same whenever it is built."""

    __slots__ = ("_decision", "_built")

    def __init__(self, decision: lawcode.Decision) -> None:
        self._decision = decision
        self._built: dict[str, Any] | None = None

    def _dict(self) -> dict[str, Any]:
        if self._built is None:
            self._built = self._decision.to_dict()
        return self._built

    def __getitem__(self, key: str) -> Any:
        return self._dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict())

    def __len__(self) -> int:
        return len(self._dict())

    def __bool__(self) -> bool:
        return True  # a decision's dict always has its keys

    def __repr__(self) -> str:
        return repr(self._dict())


@dataclass(frozen=True)
class Standing:
    """What the law says of a permit (or a driver under it) on ``as_of``, ready to show in Portuguese."""

    status: str
    as_of: dt.date
    reason: str = ""
    articles: tuple[str, ...] = ()
    since: dt.date | None = None
    until: dt.date | None = None
    decision: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return str(LegalStatus(self.status).label)

    @property
    def authorized(self) -> bool:
        return self.status == LegalStatus.REGULAR

    @property
    def document_driven(self) -> bool:
        return bool(self.decision)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape the feed and the audit trail keep (dates in ISO)."""
        return {
            "status": self.status,
            "reason": self.reason,
            "articles": list(self.articles),
            "since": self.since.isoformat() if self.since else None,
            "until": self.until.isoformat() if self.until else None,
        }


class RowReader(Protocol):
    """Where the document layer reads its rows. The ORM (OrmRows) unless a caller brings a reader of its own
    that returns the same rows (the public lookup's written-once SQL, apps.public.standing_rows, issue 12)."""

    def rows(
        self, operator_ids: list[int], owners: dict[str, list[int]], kinds: list[str]
    ) -> tuple[Iterable[Driver], Iterable[dict[str, Any]]]:
        """The operators' active drivers with DRIVER_COLUMNS, in Driver's ordering; and DOCUMENT_COLUMNS of the
        documents of those kinds owned by any of the owners, in Document's ordering then by key (none when
        `owners` is empty)."""
        ...

    def stamp(self, permit: Permit) -> str | None:
        """The configuration stamp read with the permit, or None to let config_for read it."""
        ...


class OrmRows:
    """The ORM's reads: what every screen, feed and service uses."""

    def rows(
        self, operator_ids: list[int], owners: dict[str, list[int]], kinds: list[str]
    ) -> tuple[Iterable[Driver], Iterable[dict[str, Any]]]:
        return self.drivers(operator_ids), (self.documents(owners, kinds) if owners else [])

    def drivers(self, operator_ids: list[int]) -> Iterable[Driver]:
        return Driver.objects.filter(operator_id__in=operator_ids, active=True).only(*DRIVER_COLUMNS)

    def documents(self, owners: dict[str, list[int]], kinds: list[str]) -> Iterable[dict[str, Any]]:
        wanted = [Q(**{f"{column}__in": ids}) for column, ids in owners.items()]
        # Document's ordering, ties by key: documents sharing an expiry date come in the same order every time
        # (and in the public lookup's reader: apps.public.standing_rows)
        rows: Iterable[dict[str, Any]] = (
            Document.objects.filter(reduce(or_, wanted), kind__in=kinds)
            .order_by("valid_until", "pk")
            .values(*DOCUMENT_COLUMNS)
        )
        return rows

    def stamp(self, permit: Permit) -> str | None:
        return None


ORM_ROWS = OrmRows()


def permit_standing(permit: Permit, *, as_of: dt.date, reader: RowReader = ORM_ROWS) -> Standing:
    return standings([(permit, None)], as_of=as_of, reader=reader)[0]


def permits_standing(permits: Iterable[Permit], *, as_of: dt.date) -> dict[int, Standing]:
    """Permit pk → its standing on ``as_of``."""
    permits = list(permits)
    found = standings([(permit, None) for permit in permits], as_of=as_of)
    return {permit.pk: standing for permit, standing in zip(permits, found, strict=True)}


def driver_standing(permit: Permit, driver: Driver | None, *, as_of: dt.date) -> Standing:
    """The permit's standing for one driver under it: the permit's own, then that driver's documents too."""
    return standings([(permit, driver)], as_of=as_of)[0]


def standings(
    pairs: Iterable[tuple[Permit, Driver | None]], *, as_of: dt.date, reader: RowReader = ORM_ROWS
) -> list[Standing]:
    """The standing of each (permit, driver under it or None), in order; rows loaded once for all of them."""
    pairs = list(pairs)
    answers = [by_acts(permit, as_of) for permit, _ in pairs]
    open_pairs = [(i, pair) for i, pair in enumerate(pairs) if answers[i].status == LegalStatus.REGULAR]
    if open_pairs:
        permits, drivers = [p for _, (p, _) in open_pairs], [d for _, (_, d) in open_pairs if d is not None]
        rows = _Rows.load(permits, drivers, reader)
        for index, (permit, driver) in open_pairs:
            answers[index] = _by_documents(permit, rows, as_of, extra_driver=driver)
    return answers


def by_acts(permit: Permit, as_of: dt.date) -> Standing:
    """The status the permit's own acts give on ``as_of`` (a suspension past its last day no longer counts,
    an active permit past its validity is expired even before the nightly sweep marks it)."""
    closed = {
        PermitState.REVOKED: LegalStatus.REVOKED,
        PermitState.CANCELLED: LegalStatus.CANCELLED,
        PermitState.EXPIRED: LegalStatus.EXPIRED,
    }
    if permit.state in closed:
        return Standing(
            closed[PermitState(permit.state)], as_of, permit.closed_reason, since=permit.closed_on
        )
    if permit.valid_until is not None and permit.valid_until < as_of:
        ended = permit.valid_until + dt.timedelta(days=1)
        return Standing(
            LegalStatus.EXPIRED,
            as_of,
            f"Validade encerrada em {format_date_pt(permit.valid_until)}.",
            since=ended,
        )
    if permit.state == PermitState.SUSPENDED and (
        permit.suspended_until is None or permit.suspended_until >= as_of
    ):
        # The period shows as "até dd/mm/aaaa" beside the label; the reason is the act's (the sanction's).
        return Standing(LegalStatus.SUSPENDED, as_of, permit.closed_reason, until=permit.suspended_until)
    if permit.valid_from > as_of:
        return Standing(
            LegalStatus.NOT_YET_VALID, as_of, f"Em vigor a partir de {format_date_pt(permit.valid_from)}."
        )
    return Standing(LegalStatus.REGULAR, as_of)


# --- the document layer ---------------------------------------------------------------------------------


@dataclass
class _Rows:
    """Mandatory documents and driver links of a set of permits, loaded once."""

    operators: dict[int, Operator]
    documents: dict[tuple[str, int], list[dict[str, Any]]]
    own_drivers: dict[tuple[int, int], Driver]
    reader: RowReader = ORM_ROWS
    configs: dict[tuple[int, str], Config] = field(default_factory=dict)

    @classmethod
    def load(
        cls, permits: list[Permit], drivers: Iterable[Driver] = (), reader: RowReader = ORM_ROWS
    ) -> _Rows:
        operators = _operators(permits)
        extra = [d for d in drivers if d is not None]
        owners = {
            "vehicle_id": {p.vehicle_id for p in permits},
            "operator_id": set(operators),
            "person_id": {o.person_id for o in operators.values() if o.person_id}
            | {d.person_id for d in extra},
            "company_id": {o.company_id for o in operators.values() if o.company_id},
        }
        kinds = set().union(*(_mandatory_kinds(p.regime_id) for p in permits)) if permits else set()
        wanted = {column: sorted(ids) for column, ids in owners.items() if ids} if kinds else {}
        links, documents = reader.rows(list(operators), wanted, sorted(kinds))
        own = {(d.operator_id, d.person_id): d for d in [*links, *extra]}
        return cls(operators, _documents(owners, documents), own, reader)

    def config(self, permit: Permit) -> Config:
        key = (permit.municipality_id, permit.regime_id)
        if key not in self.configs:
            stamp = self.reader.stamp(permit)
            self.configs[key] = config_for(permit.municipality, permit.regime_id, stamp=stamp)
        return self.configs[key]

    def credentials(self, regime_id: str, *owners: tuple[str, int | None]) -> tuple[f.Credential, ...]:
        kinds = _mandatory_kinds(regime_id)
        rows = [row for owner, pk in owners if pk for row in self.documents.get((owner, pk), [])]
        return tuple(
            f.Credential(
                row["kind"],
                row["valid_until"],
                row["status"] != DocumentStatus.NOT_ACCEPTED,
                row["issue_date"],
            )
            for row in rows
            if row["kind"] in kinds
        )


def _operators(permits: list[Permit]) -> dict[int, Operator]:
    """The permits' operators: one loaded with its permit (the public lookup's SELECT joins it) is used as it
    is, which spared that lookup a round trip (issue 12); the others are read in one SELECT."""
    found: dict[int, Operator] = {}
    for permit in permits:
        operator = permit.operator if Permit.operator.is_cached(permit) else None
        if operator is not None and not operator.get_deferred_fields() & OPERATOR_COLUMNS:
            found[operator.pk] = operator
    missing = {p.operator_id for p in permits} - set(found)
    if missing:
        found |= Operator.objects.only(*OPERATOR_COLUMNS).in_bulk(missing)
    return found


def _mandatory_kinds(regime_id: str) -> frozenset[str]:
    """The kinds the regime's standing.yaml lists; a regime without one fails loudly when asked (below)."""
    standing = lawcode.get_regime(regime_id).standing
    return standing.kinds() if standing is not None else frozenset()


def _documents(
    owners: dict[str, set[int]], rows: Iterable[dict[str, Any]]
) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """The documents of every owner, read in one SELECT (a round trip per owner column was most of a public
    lookup), each filed under every (column, owner) it belongs to."""
    found: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        for column, ids in owners.items():
            if row[column] in ids:
                found[(column, row[column])].append(row)
    return found


def _licence(driver: Driver | None) -> f.CNH | None:
    if driver is None:
        return None
    return f.CNH(category=driver.cnh_category, ear=driver.cnh_ear, expiry=driver.cnh_expiry)


def _subjects(permit: Permit, rows: _Rows, extra_driver: Driver | None) -> tuple[f.StandingSubject, ...]:
    operator = rows.operators[permit.operator_id]
    regime = permit.regime_id
    own_rows = ("operator_id", operator.pk)
    if operator.kind == OperatorKind.PF:
        holder = f.StandingSubject(
            "operator",
            credentials=rows.credentials(regime, ("person_id", operator.person_id), own_rows),
            licence=_licence(rows.own_drivers.get((operator.pk, operator.person_id or 0))),
        )
    else:
        holder = f.StandingSubject(
            "company", credentials=rows.credentials(regime, ("company_id", operator.company_id), own_rows)
        )
    vehicle = f.StandingSubject(
        "vehicle", credentials=rows.credentials(regime, ("vehicle_id", permit.vehicle_id))
    )
    subjects = [holder, vehicle]
    drivers = {extra_driver.pk: extra_driver} if extra_driver is not None else {}
    if permit.kind == PermitKind.EMERGENCY and permit.driver_id:
        drivers |= {d.pk: d for d in rows.own_drivers.values() if d.pk == permit.driver_id}
    for driver in drivers.values():
        if operator.kind == OperatorKind.PF and driver.person_id == operator.person_id:
            continue  # the holder who drives is already checked as the holder
        subjects.append(
            f.StandingSubject(
                "driver",
                label=ROLE_LABELS.get(driver.role, ROLE_LABELS["principal"]),
                credentials=rows.credentials(regime, ("person_id", driver.person_id)),
                licence=_licence(driver),
            )
        )
    return tuple(subjects)


def _by_documents(permit: Permit, rows: _Rows, as_of: dt.date, *, extra_driver: Driver | None) -> Standing:
    facts = f.StandingFacts(_subjects(permit, rows, extra_driver))
    decision = lawbridge.document_standing(permit.regime_id, facts, as_of=as_of, config=rows.config(permit))
    if decision.outcome == "regular":
        # A CNH within a tolerance the municipality reads (CTB art. 162 V) is regular, said with its limit;
        # nothing is recorded on the permit, since its status does not change until the tolerance ends.
        tolerated = decision.result.get("tolerated") or []
        return Standing(
            LegalStatus.REGULAR,
            as_of,
            decision.explanation or "",
            _articles(decision, {entry["finding"] for entry in tolerated}),
            until=min((entry["until"] for entry in tolerated), default=None),
        )
    failed = {finding.code for finding in decision.findings if finding.status is Status.NOT_MET}
    return Standing(
        LegalStatus(decision.outcome),
        as_of,
        str(decision.result.get("reason", "")),
        _articles(decision, failed),
        decision.result.get("since"),
        decision=DecisionRecord(decision),
    )


def _articles(decision: lawcode.Decision, codes: set[str]) -> tuple[str, ...]:
    """The articles the findings ``codes`` cite, in order, once each."""
    cited = (c.render() for finding in decision.findings if finding.code in codes for c in finding.citations)
    return tuple(dict.fromkeys(cited))
