"""{{ appeal|instance_name }}: the instance as the regime's law calls it (its procedure.yaml label), not the generic
model label."""

from __future__ import annotations

from typing import Any

from django import template

from apps.dueprocess.procedure import instance_label
from apps.dueprocess.verdicts import verdict_label, vote_words

register = template.Library()


@register.filter
def instance_name(appeal: Any) -> str:
    return instance_label(appeal.case.regime_id, appeal.instance)


@register.filter
def verdict_name(judgment: Any) -> str:
    """{{ appeal.judgment|verdict_name }}: the verdict as the regime's law words it (labels.yaml verdicts)."""
    return verdict_label(judgment.appeal.case.regime_id, judgment.verdict)


@register.filter
def votes_text(judgment: Any) -> list[str]:
    """Each member's vote as recorded by a collegiate body: "Ana Souza (Poder Executivo), relatora: …"."""
    words = vote_words(judgment.appeal.case.regime_id)
    out = []
    for vote in judgment.votes or []:
        origin = f" ({vote['origin']})" if vote.get("origin") else ""
        role = ", relator" if vote.get("rapporteur") else ""
        out.append(f"{vote['member']}{origin}{role}: {words.get(vote['vote'], vote['vote'])}")
    return out
