"""Document standing: every shipped regime that issues permits says what a lapsed document means, and a
broken declaration fails loading."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

import lawcode
from lawcode.errors import LawcodeError, RegimeDefinitionError
from lawcode.registry import load_regime, regime_ids

REGIMES = Path(lawcode.__file__).parent / "regimes"


@pytest.mark.parametrize("regime_id", regime_ids())
def test_every_regime_that_issues_permits_declares_document_standing(regime_id: str) -> None:
    regime = lawcode.get_regime(regime_id)
    if "vehicle_permit" in regime.rules and regime.vocabulary.documents.kinds:
        assert "document_standing" in regime.rules
        assert regime.standing is not None and regime.standing.mandatory


def _copy(tmp_path: Path, regime_id: str) -> Path:
    target = tmp_path / regime_id
    shutil.copytree(REGIMES / regime_id, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_a_regime_with_the_rule_but_no_declaration_fails_loading(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "patrocinio_mg_aplicativo")
    (folder / "standing.yaml").unlink()
    with pytest.raises(RegimeDefinitionError, match="standing.yaml"):
        load_regime(folder, "lawcode.regimes.patrocinio_mg_aplicativo")


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        ("effect: irregular", "effect: tolerated", "effect 'tolerated'"),
        ("kind: crlv", "kind: crvl", "'crvl' is not declared"),
        ("of: [vehicle]", "of: [car]", "'of' must list"),
        ("cite: art4_incI_d", "cite: art99", "art99"),
    ],
)
def test_a_malformed_declaration_fails_loading(tmp_path: Path, old: str, new: str, error: str) -> None:
    folder = _copy(tmp_path, "patrocinio_mg_aplicativo")
    path = folder / "standing.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(LawcodeError, match=error):
        load_regime(folder, "lawcode.regimes.patrocinio_mg_aplicativo")


def test_an_interpretation_whose_options_are_not_effects_fails_loading(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "sao_jose_dos_campos_sp_taxi")
    path = folder / "standing.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("INT-SJC-DOCUMENT-LAPSE", "INT-SJC-MIN-AGE"))
    with pytest.raises(RegimeDefinitionError, match="must be effects"):
        load_regime(folder, "lawcode.regimes.sao_jose_dos_campos_sp_taxi")


def test_the_lapse_day_is_the_day_after_the_last_valid_day() -> None:
    facts = {
        "subjects": [{"role": "vehicle", "credentials": [{"kind": "crlv", "valid_until": "2026-12-31"}]}]
    }
    regime = "sao_jose_dos_campos_sp_taxi"
    assert (
        lawcode.evaluate(regime, "document_standing", facts, as_of=dt.date(2026, 12, 31)).outcome == "regular"
    )
    lapsed = lawcode.evaluate(regime, "document_standing", facts, as_of=dt.date(2027, 1, 1))
    assert lapsed.outcome == "irregular" and lapsed.result["since"] == dt.date(2027, 1, 1)
    assert lapsed.cites("art3_incVII") and lapsed.cites("art8")


# --- age-limited certificates and the CNH tolerance -------------------------------------------------------

CERTIFICATE = {"kind": "criminal_record_certificate", "issue_date": "2026-01-09", "valid": True}


def test_an_age_window_without_its_declaration_fails_loudly(tmp_path: Path) -> None:
    """The rule gives the certidão a 60-day window: a documents.yaml that does not say whether it binds after
    acceptance refuses to judge the document instead of keeping it valid forever."""
    folder = _copy(tmp_path, "olimpia_sp_escolar")
    path = folder / "documents.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("      age_limit: INT-OLI-CERTIFICATE-WINDOW\n", "")
    )
    regime = load_regime(folder, "lawcode.regimes.olimpia_sp_escolar")
    with pytest.raises(RegimeDefinitionError, match="validity.age_limit"):
        regime.evaluate("document_validity", CERTIFICATE, as_of=dt.date(2026, 2, 1))


def test_an_age_limit_naming_an_interpretation_without_its_options_fails_loading(tmp_path: Path) -> None:
    folder = _copy(tmp_path, "olimpia_sp_escolar")
    path = folder / "documents.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("age_limit: INT-OLI-CERTIFICATE-WINDOW", "age_limit: INT-OLI-VEHICLE-AGE", 1)
    )
    with pytest.raises(RegimeDefinitionError, match="presentation, ongoing"):
        load_regime(folder, "lawcode.regimes.olimpia_sp_escolar")


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        ("INT-PAT-CNH-TOLERANCE, days", "INT-PAT-CERTIFICATE-WINDOW, days", "strict, tolerated"),
        ("days: 30", "days: 0", "positive number"),
        ('cite: "ctb:art162_incV"', 'cite: "ctb:art999"', "art999"),
    ],
)
def test_a_malformed_tolerance_fails_loading(tmp_path: Path, old: str, new: str, error: str) -> None:
    folder = _copy(tmp_path, "patrocinio_mg_aplicativo")
    path = folder / "standing.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(LawcodeError, match=error):
        load_regime(folder, "lawcode.regimes.patrocinio_mg_aplicativo")


def test_the_window_read_as_ongoing_ends_the_validity_and_the_standing() -> None:
    ongoing = lawcode.Config(interpretations={"INT-OLI-CERTIFICATE-WINDOW": "ongoing"})
    presented = lawcode.evaluate(
        "olimpia_sp_escolar", "document_validity", CERTIFICATE, as_of=dt.date(2026, 2, 1)
    )
    windowed = lawcode.evaluate(
        "olimpia_sp_escolar", "document_validity", CERTIFICATE, as_of=dt.date(2026, 2, 1), config=ongoing
    )
    assert presented.result["valid_until"] is None
    assert windowed.result["valid_until"] == dt.date(2026, 3, 10)
    finding = windowed.finding("age_limit")
    assert finding is not None and "vale durante toda a validade" in finding.message
    assert [(use.id, use.option) for use in windowed.interpretations] == [
        ("INT-OLI-CERTIFICATE-AGE-BOUNDARY", "inclusive"),
        ("INT-OLI-CERTIFICATE-WINDOW", "ongoing"),
    ]
