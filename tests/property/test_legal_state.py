"""Property: whatever happens day by day, every stored status is what the engine gives as of that day.

Hypothesis generates histories over a few weeks in every regime — mandatory documents expiring and renewed,
infractions declared on a driver's record and the record confirmed from a certidão — runs the services and
the daily sweep for each day, and checks, for every row:

- a document's stored status and validity equal a fresh ``document_validity`` evaluation as of that day (a
  validity that ended before the day is an expired document);
- a permit is in force exactly while the engine's grant, replayed as of its own date, says it is valid, and
  the document-driven status it stores is the ``document_standing`` decision as of that day;
- a driver's traffic record is never a silent zero: the engine sees the infractions only once confirmed, and
  its finding on them is met only when a confirmed record shows none that counts.

The ``ci`` profile keeps it under a minute (few, derandomized examples); ``thorough`` runs many more.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.lawconfig.config import config_for
from apps.lawconfig.engine import evaluate
from apps.licensing.casebook import DETAILS, EXPIRING_KINDS, PROFILES, Case, pdf
from apps.licensing.choices import PERMIT_IN_FORCE_STATES
from apps.licensing.models import Permit
from apps.licensing.standing import permits_standing
from apps.licensing.sweep import run_sweep
from apps.registry.catalog import regime_kinds
from apps.registry.choices import DocumentStatus
from apps.registry.lawbridge import operator_facts, person_facts
from apps.registry.models import Document
from apps.registry.services import document_upload
from apps.registry.services.traffic import traffic_infraction_declare, traffic_record_confirm
from apps.registry.validity import Validity, document_validity
from apps.replay.compare import is_stored_decision, replay
from tests.property.conftest import REGIMES

START = dt.date(2027, 2, 25)  # documents of the case expire before; the permits during the history
HORIZON = 8
DOCUMENT_DRIVEN = ("regular", "irregular", "suspended")
EXAMPLES = 200 if (settings.default is not None and settings.default.max_examples >= 1000) else 4
ACTIONS = ("advance", "expire_soon", "renew", "declare", "confirm")
SEVERITIES = ("leve", "media", "grave", "gravissima")


@dataclass(frozen=True)
class Event:
    """Something that happens in one regime's case on the current day (``days``: how far, how soon, how old)."""

    regime: int
    action: str
    days: int
    severity: str


EVENTS = st.lists(
    st.builds(
        Event,
        st.integers(0, len(REGIMES) - 1),
        st.sampled_from(ACTIONS),
        st.integers(0, 4),
        st.sampled_from(SEVERITIES),
    ),
    min_size=1,
    max_size=5,
)


def _upload(
    owner: Any, kind: str, *, regime_id: str, issued: dt.date, expiry: dt.date | None, day: dt.date
) -> Document:
    declared = regime_kinds(regime_id)[kind]
    details = {key: value for key, value in DETAILS.get(kind, {}).items() if key in declared.details}
    return document_upload(
        actor=None,
        owner=owner,
        kind=kind,
        upload=pdf(),
        issue_date=issued,
        expiry_date=expiry,
        as_of=day,
        details=details or None,
        regime_id=regime_id,
    )


def _apply(event: Event, case: Case, day: dt.date) -> None:
    profile = PROFILES[case.operator.regime_id]
    expiring = [k for k in profile.vehicle_documents if k in EXPIRING_KINDS]
    if event.action in ("expire_soon", "renew") and expiring:
        expiry = day + dt.timedelta(days=event.days if event.action == "expire_soon" else 300)
        kind = expiring[event.days % len(expiring)]
        _upload(case.vehicle, kind, regime_id=profile.regime_id, issued=day, expiry=expiry, day=day)
    elif event.action == "declare":
        traffic_infraction_declare(
            actor=None,
            person=case.person,
            date=day - dt.timedelta(days=event.days * 30),
            severity=event.severity,
            as_of=day,
        )
    elif event.action == "confirm" and profile.traffic_record_document is not None:
        record = _upload(
            case.person,
            profile.traffic_record_document,
            regime_id=profile.regime_id,
            issued=day,
            expiry=None,
            day=day,
        )
        traffic_record_confirm(actor=None, person=case.person, document=record, as_of=day)


def _engine_validity(document: Document, day: dt.date, replayed: dict[int, Validity]) -> Validity:
    """The engine's validity: the stored decision replayed as of its own date (once per row: it is
    deterministic), or, where the printed expiry governs, the declaration read as of ``day``."""
    if not is_stored_decision(document.decision):
        return document_validity(document, as_of=day)
    if document.pk not in replayed:
        again = replay(document.decision, config_for(document.municipality))
        assert again.differences == (), (document, again.differences)
        replayed[document.pk] = document_validity(
            document, as_of=dt.date.fromisoformat(document.decision["as_of"])
        )
    return replayed[document.pk]


def _check_documents(day: dt.date, replayed: dict[int, Validity]) -> None:
    """Stored status and validity equal the engine's; a validity that ended before the day is expired."""
    for document in Document.objects.select_related("municipality"):
        fresh = _engine_validity(document, day, replayed)
        ended = fresh.valid_until is not None and fresh.valid_until < day
        expected = DocumentStatus.EXPIRED if fresh.status == DocumentStatus.VALID and ended else fresh.status
        assert (document.status, document.valid_until) == (expected, fresh.valid_until), (document, day)


def _check_permits(day: dt.date, replayed: set[int]) -> None:
    """The grant replays identically, and the permit is in force exactly up to its validity."""
    for permit in Permit.objects.select_related("municipality"):
        if permit.pk not in replayed:
            again = replay(permit.decision, config_for(permit.municipality))
            assert again.error == "" and again.differences == (), (permit, again.differences)
            replayed.add(permit.pk)
        assert permit.valid_until is not None
        assert (permit.state in PERMIT_IN_FORCE_STATES) == (day <= permit.valid_until), (permit, day)


def _check_standings(day: dt.date) -> None:
    """A permit in force stores the document-driven status the law gives today (an expired CRLV or insurance
    makes it irregular, the renewed one regular again) — never a status of another day."""
    permits = list(Permit.objects.all())
    fresh = permits_standing(permits, as_of=day)
    for permit in permits:
        standing = fresh[permit.pk]
        if (
            standing.status not in DOCUMENT_DRIVEN
            or not standing.document_driven
            and standing.status != "regular"
        ):
            continue  # the permit's own acts speak (expired, revoked, suspended by a sanction)
        expected = standing.to_dict() if standing.document_driven else {}
        assert (permit.standing or {}) == expected, (permit, day, standing)


def _check_traffic_record(case: Case, day: dt.date) -> None:
    facts = person_facts(case.person, as_of=day)
    confirmed = case.person.traffic_records.known_on(day).first()
    assert (facts.traffic_infractions is None) == (confirmed is None)
    if case.operator.regime_id != "olimpia_sp_escolar":
        return
    decision = evaluate(
        municipality=case.operator.municipality,
        question="operator_registration",
        as_of=day,
        facts=operator_facts(case.operator, as_of=day),
    )
    finding = decision.finding("no_gravissima")
    assert finding is not None
    if confirmed is None:
        assert finding.status.value == "not_met" and finding.data["count"] is None
    elif not any(e["severity"] == "gravissima" for e in confirmed.infractions):
        assert finding.status.value == "met" and finding.data["count"] == 0


@dataclass
class Replayed:
    documents: dict[int, Validity] = field(default_factory=dict)
    permits: set[int] = field(default_factory=set)


def _check(cases: list[Case], day: dt.date, replayed: Replayed) -> None:
    run_sweep(day)
    _check_documents(day, replayed.documents)
    _check_permits(day, replayed.permits)
    _check_standings(day)
    for case in cases:
        _check_traffic_record(case, day)


@pytest.mark.django_db(transaction=False)
@settings(
    max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(events=EVENTS)
def test_every_stored_status_is_the_engines_as_of_that_day(licensed: list[Case], events: list[Event]) -> None:
    with transaction.atomic():
        day, replayed = START, Replayed()
        for event in events:
            _apply(event, licensed[event.regime], day)
            for _ in range(1 + (event.days if event.action == "advance" else 0)):
                if day > START + dt.timedelta(days=HORIZON):
                    break
                _check(licensed, day, replayed)
                day += dt.timedelta(days=1)
        transaction.set_rollback(True)  # the next history starts from the same licensed cases
