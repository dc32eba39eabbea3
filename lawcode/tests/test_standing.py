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
