"""The what-if's boundary with the law engine: the records a what-if judges, read in chunks, their facts built
by the apps' lawbridge modules (apps.registry.lawbridge, through apps.licensing.lawbridge for what licensing
knows of an application), and the bulk comparison that judges them, through apps.lawconfig.engine."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import lawcode
from apps.lawconfig import engine
from apps.licensing import lawbridge as licensing_lawbridge
from apps.licensing.choices import PERMIT_IN_FORCE_STATES
from apps.licensing.models import Permit
from apps.registry import lawbridge as registry_lawbridge
from apps.registry.models import Driver
from apps.whatif.choices import SubjectKind
from apps.whatif.models import WhatIfRun
from lawcode.bulk import Comparer, Reform
from lawcode.config import Config

CHUNK = 500
# Questions the what-if asks, per kind of record; a regime that does not answer one skips those records.
QUESTIONS = {SubjectKind.PERMIT: "vehicle_permit", SubjectKind.DRIVER: "driver_registration"}


@dataclass
class PermitAsApplication:
    """A permit without an application on file, read as the application that would renew it today."""

    kind: str
    operator: Any
    vehicle: Any
    submitted_on: dt.date | None


def permits(run: WhatIfRun) -> Any:
    return Permit.objects.filter(
        municipality_id=run.municipality_id,
        regime_id=run.regime_id,
        state__in=PERMIT_IN_FORCE_STATES,
        valid_from__lte=run.as_of,
    ).order_by("pk")


def drivers(run: WhatIfRun) -> Any:
    return Driver.objects.filter(
        municipality_id=run.municipality_id, operator__regime_id=run.regime_id, active=True
    ).order_by("pk")


@dataclass(frozen=True)
class Source:
    """One kind of record a run judges: the question, the rows, what to load with them, how to build facts."""

    kind: str
    question: str
    rows: Any
    related: tuple[str, ...]
    load: Any  # (chunk, as_of) → the rows the chunk's facts read, loaded at once (registry_lawbridge.Reads)
    build: Any  # (record, as_of, reads) → the record's facts


# The rows each permit's facts start from, read with the permit (the rest comes from the chunk's reads).
PERMIT_RELATED = (
    "operator__person",
    "operator__company",
    "vehicle",
    "application__operator__person",
    "application__operator__company",
    "application__vehicle",
    "application__fee_guide__payment",
)


def sources(run: WhatIfRun, facts: FactsCache) -> Iterator[Source]:
    """The kinds of record to judge, for each question the run's regime answers."""
    answered = set(lawcode.get_regime(run.regime_id).questions())
    if QUESTIONS[SubjectKind.PERMIT] in answered:
        yield Source(
            SubjectKind.PERMIT,
            QUESTIONS[SubjectKind.PERMIT],
            permits(run),
            PERMIT_RELATED,
            permit_reads,
            facts.permit,
        )
    if QUESTIONS[SubjectKind.DRIVER] in answered:
        yield Source(
            SubjectKind.DRIVER,
            QUESTIONS[SubjectKind.DRIVER],
            drivers(run),
            ("person", "operator"),
            driver_reads,
            facts.driver,
        )


def permits_and_drivers_count(municipality: Any, regime_id: str, as_of: dt.date) -> int:
    """How many records a run will judge (the progress bar's 100 %)."""
    probe = WhatIfRun(municipality=municipality, regime_id=regime_id, as_of=as_of)
    answered = set(lawcode.get_regime(regime_id).questions())
    count = permits(probe).count() if QUESTIONS[SubjectKind.PERMIT] in answered else 0
    return count + (drivers(probe).count() if QUESTIONS[SubjectKind.DRIVER] in answered else 0)


def permit_reads(chunk: list[Permit], as_of: dt.date) -> licensing_lawbridge.ChunkApplicationReads:
    applications = [p.application for p in chunk if p.application is not None]
    return licensing_lawbridge.ChunkApplicationReads(
        applications, as_of=as_of, operators=[p.operator for p in chunk], vehicles=[p.vehicle for p in chunk]
    )


def driver_reads(chunk: list[Driver], as_of: dt.date) -> registry_lawbridge.ChunkReads:
    return registry_lawbridge.ChunkReads(as_of=as_of, people=[d.person for d in chunk])


def chunks(rows: Any, related: tuple[str, ...]) -> Iterator[list[Any]]:
    """Rows in chunks of CHUNK, each chunk one query (the rows their facts read are then loaded for the whole
    chunk at once: Source.load): memory stays flat however many rows there are."""
    last = 0
    while True:
        chunk = list(rows.filter(pk__gt=last).select_related(*related)[:CHUNK])
        if not chunk:
            return
        yield chunk
        last = chunk[-1].pk


def _without_itself(facts: Any) -> Any:
    """A new permit's application judged again while the permit is in force: the holder's permits in force
    already count it, and the rule adds the one asked for — count it once (a renewal adds none)."""
    if facts.kind != "new" or not facts.operator.active_permits:
        return facts
    holder = dataclasses.replace(facts.operator, active_permits=facts.operator.active_permits - 1)
    return dataclasses.replace(facts, operator=holder)


class FactsCache:
    """Builds facts and keeps one operator facts object per holder, so the engine's bulk memo recognises the
    same holder across their vehicles (the holder's findings are then judged once per run)."""

    LIMIT = 5000

    def __init__(self) -> None:
        self._operators: dict[Any, Any] = {}

    def permit(
        self,
        permit: Permit,
        as_of: dt.date,
        reads: licensing_lawbridge.ApplicationReads = licensing_lawbridge.ONE_BY_ONE,
    ) -> Any:
        if permit.application is not None:
            facts = _without_itself(licensing_lawbridge.application_facts(permit.application, as_of, reads))
        else:
            renewal = PermitAsApplication("renewal", permit.operator, permit.vehicle, as_of)
            facts = registry_lawbridge.permit_application_facts(renewal, as_of=as_of, reads=reads)
        return self._shared_operator(permit.operator_id, facts)

    def driver(
        self, driver: Driver, as_of: dt.date, reads: registry_lawbridge.Reads = registry_lawbridge.ONE_BY_ONE
    ) -> Any:
        return registry_lawbridge.driver_facts(driver, as_of=as_of, reads=reads)

    def _shared_operator(self, operator_id: int, facts: Any) -> Any:
        kept = self._operators.get(operator_id)
        if kept is not None and kept == facts.operator:
            return dataclasses.replace(facts, operator=kept)
        if len(self._operators) >= self.LIMIT:
            self._operators.clear()
        self._operators[operator_id] = facts.operator
        return facts


def comparer(*, config: Config, regime_id: str, question: str, as_of: dt.date, reform: Reform) -> Comparer:
    """The bulk comparison of one source's records: ``question`` under ``config`` and under ``reform``."""
    return engine.comparer(config=config, regime_id=regime_id, question=question, as_of=as_of, reform=reform)
