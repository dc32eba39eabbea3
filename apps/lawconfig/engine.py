"""THE gateway to lawcode's decisions: the only module under apps/ that asks lawcode to decide, and only the
apps' lawbridge modules ask through it (import-linter contract "only lawbridge modules ask the law", and
tests/test_law_boundary.py for the calls themselves; docs/architecture.md, "The boundary with the law engine").

    decision = engine.evaluate(municipality=m, question="vehicle_permit", facts=facts, as_of=day)

Each function decides with the municipality's configuration (apps.lawconfig.config.config_for), or with the one
the caller already holds (a replay's, a batch's).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import lawcode
from apps.lawconfig.config import config_for, regime_for
from apps.tenancy.models import Municipality
from lawcode.bulk import Comparer, Reform
from lawcode.config import Config


def evaluate(
    *, municipality: Municipality, question: str, facts: Any, as_of: dt.date, regime_id: str | None = None
) -> lawcode.Decision:
    """Ask the law ``question`` about ``facts`` as of ``as_of``, with the municipality's configuration."""
    chosen = regime_for(municipality, regime_id)
    return lawcode.evaluate(chosen, question, facts, as_of=as_of, config=config_for(municipality, chosen))


def evaluate_with(
    *, config: Config, regime_id: str, question: str, facts: Any, as_of: dt.date
) -> lawcode.Decision:
    """Ask with a configuration the caller holds: a stored decision replayed under today's configuration, a batch
    that read each municipality's configuration once."""
    return lawcode.evaluate(regime_id, question, facts, as_of=as_of, config=config)


def evaluate_each(
    *,
    municipality: Municipality,
    question: str,
    facts: dict[str, Any],
    as_of: dt.date,
    regime_id: str | None = None,
) -> dict[str, lawcode.Decision | lawcode.LawcodeError]:
    """The same question about several facts (keyed by the caller), with the municipality's configuration read
    once: a list that shows the law's answer on every row costs a handful of queries, not a handful per row. A
    row the law cannot answer maps to its error, so one row never hides the others."""
    chosen = regime_for(municipality, regime_id)
    config = config_for(municipality, chosen)
    answers: dict[str, lawcode.Decision | lawcode.LawcodeError] = {}
    for key, one in facts.items():
        try:
            answers[key] = lawcode.evaluate(chosen, question, one, as_of=as_of, config=config)
        except lawcode.LawcodeError as error:
            answers[key] = error
    return answers


def comparer(*, config: Config, regime_id: str, question: str, as_of: dt.date, reform: Reform) -> Comparer:
    """One bulk comparison (the what-if): the same question asked of many subjects under ``config`` and under
    ``config`` changed by ``reform``."""
    return Comparer.start(regime_id, question, as_of=as_of, config=config, reform=reform)
