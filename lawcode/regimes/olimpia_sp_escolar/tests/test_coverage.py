"""Every dispositivo of Lei 5.171/2025 is implemented by a rule, a parameter or the catalog, or is listed as
not computable with a reason; and the not-computable list does not claim what a rule computes."""

from __future__ import annotations

from lawcode.registry import get_regime

from .helpers import REGIME_ID, law_ids


def implemented_ids() -> set[str]:
    regime = get_regime(REGIME_ID)
    cited = {ref for spec in regime.rules.values() for ref in spec.cites}
    cited |= {value.cite for parameter in regime.parameters.values() for value in parameter.values}
    cited |= {entry.cite for entry in regime.catalog.values()}
    return {ref for ref in cited if ":" not in ref}


def test_every_dispositivo_is_implemented_or_not_computable() -> None:
    regime = get_regime(REGIME_ID)
    every = set(law_ids())
    missing = every - implemented_ids() - set(regime.not_computable)
    assert not missing, f"dispositivos with no rule and no reason: {sorted(missing)}"


def test_not_computable_does_not_overlap_the_rules() -> None:
    regime = get_regime(REGIME_ID)
    rules = {ref for spec in regime.rules.values() for ref in spec.cites}
    assert not rules & set(regime.not_computable)


def test_every_reason_is_in_portuguese_words() -> None:
    for ref, reason in get_regime(REGIME_ID).not_computable.items():
        assert len(reason.split()) >= 1 and reason[0].islower(), ref
