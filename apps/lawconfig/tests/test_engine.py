import datetime as dt
from decimal import Decimal

import pytest

import lawcode
from apps.lawconfig.config import RegimeChoiceError, calendar_for, citation_text, config_for, regime_for
from apps.lawconfig.engine import evaluate
from apps.lawconfig.models import FiscalUnitValue, InterpretationChoice, MunicipalClosure
from apps.tenancy.models import Municipality
from lawcode.errors import LawcodeError, MissingParameterError
from lawcode.facts import DeadlineFacts, FineFacts

FINE = FineFacts(quantity=Decimal("10"), unit="ufm", infraction_date=dt.date(2026, 3, 2))


def test_config_is_empty_without_rows(olimpia: Municipality) -> None:
    assert config_for(olimpia).is_empty()


def test_patrocinio_ufm_comes_from_the_table(patrocinio: Municipality) -> None:
    with pytest.raises(MissingParameterError):
        evaluate(municipality=patrocinio, question="fine_amount", facts=FINE, as_of=dt.date(2026, 3, 2))
    FiscalUnitValue.objects.create(
        municipality=patrocinio,
        unit="ufm",
        valid_from=dt.date(2026, 1, 1),
        value_brl=Decimal("5.4500"),
        cite="art8",
        source="Decreto 1/2026",
    )
    decision = evaluate(
        municipality=patrocinio, question="fine_amount", facts=FINE, as_of=dt.date(2026, 3, 2)
    )
    assert decision.result["brl"] == Decimal("54.50")


def test_ufm_is_not_passed_to_a_regime_without_ufm(olimpia: Municipality) -> None:
    FiscalUnitValue.objects.create(
        municipality=olimpia,
        unit="ufm",
        valid_from=dt.date(2026, 1, 1),
        value_brl=Decimal("1.0000"),
        cite="art1",
        source="teste",
    )
    assert "ufm" not in config_for(olimpia).parameters


def test_interpretation_choice_is_applied_to_its_regime_only(olimpia: Municipality) -> None:
    InterpretationChoice.objects.create(
        municipality=olimpia,
        regime_id="olimpia_sp_escolar",
        interpretation_id="INT-OLI-RECIDIVISM-ANCHOR",
        option="prior_infraction_date",
        decided_by_act="Parecer 1/2026",
        decided_on=dt.date(2026, 1, 5),
    )
    InterpretationChoice.objects.create(
        municipality=olimpia,
        regime_id="votuporanga_sp_escolar",
        interpretation_id="INT-VOT-X",
        option="y",
        decided_by_act="-",
        decided_on=dt.date(2026, 1, 5),
    )
    assert dict(config_for(olimpia).interpretations) == {"INT-OLI-RECIDIVISM-ANCHOR": "prior_infraction_date"}


def test_closures_and_early_closings_reach_the_calendar(olimpia: Municipality) -> None:
    closed, early = dt.date(2026, 3, 3), dt.date(2026, 3, 4)
    assert calendar_for(olimpia).is_business_day(closed)
    MunicipalClosure.objects.create(
        municipality=olimpia, date=closed, description="Ponto facultativo", kind="closure"
    )
    MunicipalClosure.objects.create(
        municipality=olimpia, date=early, description="Expediente até 12h", kind="early_closing"
    )
    calendar = calendar_for(olimpia)
    assert not calendar.is_business_day(closed)
    assert calendar.is_business_day(early) and not calendar.can_end_deadline(early)
    assert [e.date for e in config_for(olimpia).closures] == [closed]
    assert [e.date for e in config_for(olimpia).early_closings] == [early]


def test_evaluate_sees_an_early_closing_a_deadline_would_end_on(olimpia: Municipality) -> None:
    facts = DeadlineFacts(start=dt.date(2026, 3, 2), instance="first")  # +10 days: Thursday 12/03/2026

    def ask() -> lawcode.Decision:
        return evaluate(
            municipality=olimpia, question="appeal_deadline", facts=facts, as_of=dt.date(2026, 3, 2)
        )

    assert ask().result["end"] == dt.date(2026, 3, 12)
    MunicipalClosure.objects.create(
        municipality=olimpia,
        date=dt.date(2026, 3, 12),
        description="Expediente até 12h",
        kind="early_closing",
    )
    decision = ask()
    assert decision.result["end"] == dt.date(2026, 3, 13)  # Lei 9.784/1999 art. 66 §1
    assert decision.to_dict()["inputs"]["config"]["early_closings"][0]["date"] == "2026-03-12"


def test_citation_text_renders_the_dispositivo_as_the_engine_cites_it(votuporanga: Municipality) -> None:
    text = citation_text(votuporanga, None, "art4A", dt.date(2026, 3, 1))
    assert (
        text.startswith("Lei 5.722/2015") and "art. 4º-A" in text and "incluído pela Lei 6.151/2018" in text
    )
    with pytest.raises(LawcodeError):
        citation_text(votuporanga, "votuporanga_sp_escolar", "art999", dt.date(2026, 3, 1))


def test_regime_must_be_named_when_the_municipality_runs_several(make_municipality: object) -> None:
    both = make_municipality("3550308", "São Paulo", "SP", ["olimpia_sp_escolar", "votuporanga_sp_escolar"])  # type: ignore[operator]
    with pytest.raises(RegimeChoiceError, match="Informe o regime"):
        regime_for(both)
    assert regime_for(both, "votuporanga_sp_escolar") == "votuporanga_sp_escolar"


def test_a_regime_the_municipality_does_not_run_is_refused(olimpia: Municipality) -> None:
    with pytest.raises(RegimeChoiceError, match="não aplica"):
        regime_for(olimpia, "patrocinio_mg_aplicativo")
