"""The lookup tables a bulk run warms (lawcode.context.Prepared, the regime's kept citations, typed facts, the
calendar's deadlines) change the cost of a decision, never its bytes."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from lawcode.bulk import Comparer
from lawcode.citations import Citation
from lawcode.decision import Decision, Finding, Status, make_decision, make_finding
from lawcode.facts import Document, Operator, PermitApplication, Vehicle
from lawcode.registry import REGIMES_DIR, REGIMES_PACKAGE, load_regime


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import lawcode_bulk

    yield lawcode_bulk
    sys.path.remove(str(Path(__file__).resolve().parents[2] / "benchmarks"))


def stored(decision: Decision | Exception) -> bytes:
    """What the apps store and show: the JSON of ``to_dict`` and the Portuguese explanation."""
    assert isinstance(decision, Decision)
    text = json.dumps(decision.to_dict(), ensure_ascii=False) + decision.explain()
    return text.encode()


def test_a_warm_bulk_run_stores_the_bytes_a_cold_regime_stores(bench: ModuleType) -> None:
    """Each subject judged once by a freshly loaded regime (every table empty) and by a bulk run whose tables
    are warm from the subjects before it: law and reform, byte for byte."""
    comparer = Comparer.start(bench.REGIME, bench.QUESTION, as_of=bench.AS_OF, reform=bench.REFORM)
    for subject in bench.synthetic_applications(150):
        comparer.compare(subject)  # warm: the tables now hold what the next subjects ask
    for subject in bench.synthetic_applications(40, seed=11):
        cold = load_regime(REGIMES_DIR / bench.REGIME, f"{REGIMES_PACKAGE}.{bench.REGIME}")
        before, after = comparer.compare(subject)
        assert stored(before) == stored(cold.evaluate(bench.QUESTION, subject, as_of=bench.AS_OF))
        assert after is not None
        alone = cold.evaluate(bench.QUESTION, subject, as_of=bench.AS_OF, config=comparer.reform)
        assert stored(after) == stored(alone)


def test_made_findings_and_decisions_are_the_dataclass_objects() -> None:
    citation = Citation("lei", "Lei 1/2020", "art1", "art. 1º")
    made = make_finding("age", Status.MET, "ok", (citation,), None, {"age": 3})
    built = Finding("age", Status.MET, "ok", (citation,), None, {"age": 3})
    assert made == built and vars(made) == vars(built) and hash(made.status) == hash(built.status)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.code = "other"  # type: ignore[misc]
    fields: tuple[Any, ...] = (
        "r",
        "q",
        dt.date(2026, 3, 1),
        "granted",
        (made,),
        {},
        (citation,),
        (),
        (),
        {},
        None,
    )
    assert vars(make_decision(*fields)) == vars(Decision(*fields))


def test_facts_with_nothing_to_type_are_not_copied(bench: ModuleType) -> None:
    from lawcode.registry import get_regime

    vocabulary = get_regime(bench.REGIME).vocabulary
    plain = PermitApplication(
        operator=Operator("PF"),
        vehicle=Vehicle(documents=(Document("crlv", expiry_date=dt.date(2026, 12, 31)),)),
    )
    assert vocabulary.typed_facts(plain, "test") is plain
    with_details = dataclasses.replace(
        plain,
        vehicle=Vehicle(
            documents=(Document("criminal_record_certificate", details={"presented_on": "2026-03-02"}),)
        ),
    )
    typed = vocabulary.typed_facts(with_details, "test")
    assert typed.vehicle.documents[0].details == {"presented_on": dt.date(2026, 3, 2)}
    assert typed.operator is plain.operator  # only the branch that changed is copied
