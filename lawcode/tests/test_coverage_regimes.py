"""CI gate: every registered regime covers every dispositivo of its law and its committed matrix is current.

A failure lists each gap (cite it in a rule, parameter, infraction or interpretation, or give the reason in
not_computable.yaml) or asks to regenerate docs/lawcode/<regime>.md with
``python -m lawcode coverage --regime <id> --write``.
"""

from __future__ import annotations

import pytest

from lawcode.coverage import check_regime
from lawcode.registry import get_regime, regime_ids


def test_there_are_regimes_to_check() -> None:
    assert len(regime_ids()) >= 3


@pytest.mark.parametrize("regime_id", regime_ids())
def test_every_dispositivo_is_covered_and_the_matrix_is_current(regime_id: str) -> None:
    problems = check_regime(get_regime(regime_id))
    assert problems == [], "\n".join(problems)
