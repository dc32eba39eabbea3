"""``new-regime`` measured on the four shipped laws: of the numbers each regime's parameters.yaml takes from its
own law, the share the skeleton's candidate parameters found (target: at least 90 % for every regime).

Counted: every numeric value of a parameter whose ``cite`` is a dispositivo of the regime's own acts. Not
counted (the law's text does not hold them): values citing another act (a SEFAZ table, Lei 9.784), values of a
fiscal unit itself (UFESP, UFM: set each year by decree), values left for the municipality (``None``) and
tables (a list or a mapping). The figure is printed (``pytest -s``) and held."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from lawcode.citations import split_ref
from lawcode.new_regime import build_skeleton
from lawcode.regime import Regime
from lawcode.registry import all_regimes

TARGET = Decimal("0.90")
REPO = Path(__file__).resolve().parents[2]


def _law_files(regime: Regime) -> list[Path]:
    """The regime's acts as published (shared/laws beside the repository, when present), else as shipped."""
    shipped = [source.path for source in regime.act_sources]
    for shared in (REPO.parent / "shared" / "laws", REPO.parent.parent / "shared" / "laws"):
        if not shared.is_dir():
            continue
        found = []
        for path in shipped:
            text = path.read_text(encoding="utf-8")
            same = [p for p in sorted(shared.glob("*.txt")) if p.read_text(encoding="utf-8") == text]
            found.append(same[0] if same else path)
        return found
    return shipped


def _counted(regime: Regime) -> list[tuple[str, Decimal]]:
    own = {act.key for act in regime.acts.acts.values() if act.text is not None}
    units = set(regime.vocabulary.units)
    out = []
    for name, parameter in regime.parameters.items():
        if name in units:
            continue
        for value in parameter.values:
            act, _ = split_ref(value.cite, regime.acts.main)
            raw = value.value
            if act not in own or raw is None or isinstance(raw, (bool, list, tuple, dict, dt.date)):
                continue
            out.append((name, Decimal(str(raw))))
    return out


@pytest.mark.parametrize("regime", all_regimes(), ids=lambda r: r.id)
def test_candidate_parameters_find_most_of_the_laws_numbers(regime: Regime, tmp_path: Path) -> None:
    skeleton = build_skeleton(_law_files(regime), regime.id, tmp_path)
    found = {candidate.value for candidate in skeleton.candidates}
    counted = _counted(regime)
    missing = [(name, value) for name, value in counted if value not in found]
    share = Decimal(len(counted) - len(missing)) / Decimal(len(counted))
    print(f"\n{regime.id}: {len(counted) - len(missing)}/{len(counted)} = {share:.0%}; missing: {missing}")
    assert share >= TARGET, missing
