"""``document_standing``: what an expired or missing mandatory document means (declared in standing.yaml)."""

from __future__ import annotations

from pathlib import Path

from lawcode.blocks.standing import decide, declared_cites
from lawcode.context import Context
from lawcode.decision import RuleResult
from lawcode.facts import StandingFacts
from lawcode.regime import rule


@rule("document_standing", cites=declared_cites(Path(__file__).parent.parent))
def document_standing(ctx: Context, facts: StandingFacts) -> RuleResult:
    return decide(ctx, ctx.regime.standing, facts)
