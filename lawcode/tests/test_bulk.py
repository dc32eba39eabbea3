"""Bulk evaluation and reforms on the fixture regime (max vehicle age 15 in its law)."""

from __future__ import annotations

import datetime as dt
import weakref
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from lawcode.bulk import Reform, evaluate_many, overlay_config
from lawcode.config import Config
from lawcode.facts import Document, Operator, PermitApplication, Vehicle
from lawcode.regime import Regime
from lawcode.scenarios import regime_from_folder

DEMO = Path(__file__).parent / "fixtures" / "tools" / "tools_demo"
AS_OF = dt.date(2026, 3, 1)
INSURED = (Document("app_insurance", expiry_date=dt.date(2026, 12, 31)),)


@pytest.fixture(scope="module")
def demo() -> Regime:
    return regime_from_folder(DEMO)


def application(year: int | None) -> PermitApplication:
    return PermitApplication(
        operator=Operator("PF"), vehicle=Vehicle(manufacture_year=year, documents=INSURED)
    )


def fleet(years: list[int | None]) -> Iterator[PermitApplication]:
    return (application(year) for year in years)


def test_baseline_only_counts_outcomes(demo: Regime) -> None:
    report = evaluate_many(demo, "vehicle_permit", fleet([2010, 2011, 2020]), as_of=AS_OF)
    assert report.subjects == 3
    assert report.baseline == Counter({"granted": 2, "denied": 1})
    assert report.reform is None and report.changed == 0 and report.examples == ()


def test_a_reform_reports_what_changes_with_both_explanations(demo: Regime) -> None:
    reform = Reform.from_parameters({"max_vehicle_age": 10}, cite="art2_incI")
    years: list[int | None] = [2010, 2011, 2014, 2016, 2020]
    report = evaluate_many(demo, "vehicle_permit", fleet(years), as_of=AS_OF, reform=reform, examples=1)
    assert report.baseline == Counter({"granted": 4, "denied": 1})
    assert report.reform == Counter({"granted": 2, "denied": 3})
    assert report.changed == 2
    assert report.transitions == Counter({("granted", "denied"): 2})
    (example,) = report.examples
    assert (example.index, example.baseline, example.reform) == (1, "granted", "denied")
    assert "Veículo com 15 anos de fabricação (máximo 15)" in example.baseline_explanation
    assert "seria deferido se o veículo fosse fabricado a partir de 2016" in example.reform_explanation
    assert "max_vehicle_age = 10" in report.summary_pt()


def test_a_reform_may_be_a_plain_config_over_the_baseline(demo: Regime) -> None:
    reform = Config.from_dict({"interpretations": {"INT-FER-AGE-COUNT": "inclusive"}})
    report = evaluate_many(demo, "vehicle_permit", fleet([2011, 2012]), as_of=AS_OF, reform=reform)
    assert report.transitions == Counter({("granted", "denied"): 1})
    assert report.reform_name == "configuração alternativa"


def test_a_reform_overrides_a_baseline_config_on_the_same_date(demo: Regime) -> None:
    baseline = Config.from_dict(
        {"parameters": {"max_vehicle_age": [{"from": AS_OF, "value": 20, "cite": "art2_incI"}]}}
    )
    reform = Reform.from_parameters({"max_vehicle_age": 12}, cite="art2_incI")
    report = evaluate_many(demo, "vehicle_permit", fleet([2008]), as_of=AS_OF, config=baseline, reform=reform)
    assert report.baseline == Counter({"granted": 1})
    assert report.reform == Counter({"denied": 1})


def test_a_subject_with_a_missing_fact_is_counted_not_fatal(demo: Regime) -> None:
    reform = Reform.from_parameters({"max_vehicle_age": 10}, cite="art2_incI")
    report = evaluate_many(demo, "vehicle_permit", fleet([None, 2020]), as_of=AS_OF, reform=reform)
    assert report.baseline == Counter({"erro: MissingFactError": 1, "granted": 1})
    assert report.changed == 0


def test_an_uncited_reform_value_is_rejected(demo: Regime) -> None:
    reform = Reform.from_parameters({"max_vehicle_age": 10}, cite="art99")
    report = evaluate_many(demo, "vehicle_permit", fleet([2020]), as_of=AS_OF, reform=reform)
    assert report.reform == Counter({"erro: UnknownDispositivoError": 1})


def test_subjects_are_streamed_not_kept(demo: Regime) -> None:
    alive: list[weakref.ref[PermitApplication]] = []

    def tracked() -> Iterator[PermitApplication]:
        for index in range(300):
            subject = application(2005 + index % 20)
            alive.append(weakref.ref(subject))
            yield subject

    reform = Reform.from_parameters({"max_vehicle_age": 10}, cite="art2_incI")
    report = evaluate_many(demo, "vehicle_permit", tracked(), as_of=AS_OF, reform=reform, examples=2)
    assert report.subjects == 300 and report.changed > 2
    still_alive = [ref() for ref in alive if ref() is not None]
    assert len(still_alive) == 2  # only the two kept examples
    assert all(any(subject is example.subject for example in report.examples) for subject in still_alive)


def test_overlay_keeps_the_baseline_and_adds_the_reform() -> None:
    base = Config.from_dict(
        {"interpretations": {"INT-A": "x"}, "closures": [{"date": "2026-01-02", "name": "a"}]}
    )
    top = Config.from_dict({"interpretations": {"INT-A": "y", "INT-B": "z"}})
    merged = overlay_config(base, top)
    assert merged.interpretations == {"INT-A": "y", "INT-B": "z"}
    assert len(merged.closures) == 1


def test_a_bulk_run_decides_exactly_as_single_evaluations() -> None:
    """The run's memo (shared operator findings, typed facts) must not change any decision, only its cost."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from lawcode_bulk import AS_OF as DAY
    from lawcode_bulk import QUESTION, REFORM, REGIME, synthetic_applications

    from lawcode.bulk import Comparer
    from lawcode.registry import get_regime

    comparer = Comparer.start(REGIME, QUESTION, as_of=DAY, reform=REFORM)
    regime = get_regime(REGIME)
    for subject in synthetic_applications(60):
        before, after = comparer.compare(subject)
        assert before.to_dict() == regime.evaluate(QUESTION, subject, as_of=DAY).to_dict()  # type: ignore[union-attr]
        alone = regime.evaluate(QUESTION, subject, as_of=DAY, config=comparer.reform)
        assert after.to_dict() == alone.to_dict()  # type: ignore[union-attr]
    assert comparer.memo.hits > 0  # the operator's findings were shared, not recomputed


def test_finding_changes_name_the_finding_that_flips_with_its_article(demo: Regime) -> None:
    from lawcode.bulk import Comparer, finding_changes

    reform = Reform.from_parameters({"max_vehicle_age": 10}, cite="art2_incI")
    comparer = Comparer.start(demo, "vehicle_permit", as_of=AS_OF, reform=reform)
    before, after = comparer.compare(application(2011))
    assert after is not None
    (change,) = finding_changes(before, after)
    assert change.before is not None and change.after is not None
    assert (change.before.status, change.after.status) == ("met", "not_met")
    assert change.finding is change.after and "art. 2" in change.articles
    assert finding_changes(before, before) == []
