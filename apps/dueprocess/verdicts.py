"""What each verdict of the judgment form would do to the case, told before the judge chooses: the penalty the
law imposes today if the condemnation stands, and what happens next (the following instance, finality, or the
auto cancelled). Read-only: the judgment itself is ``services.appeal_judge``."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

from apps.dueprocess import lawbridge
from apps.dueprocess.choices import CONDEMNING, Verdict
from apps.dueprocess.models import Appeal
from apps.dueprocess.procedure import fine_due_pt, instance_label, proceeding
from apps.dueprocess.selectors import decision_findings
from apps.dueprocess.votes import vote_labels
from apps.enforcement.lawbridge import penalty_text
from apps.tenancy.regimes import labels_of

GRANTED_EFFECT = (
    "O auto é cancelado: nenhuma penalidade é aplicada; uma guia de multa em aberto é cancelada e a multa já "
    "paga é devolvida."
)


@dataclass(frozen=True)
class VerdictPreview:
    value: str
    label: str
    penalty: str  # the penalty the verdict leaves standing, in words ("" when none)
    effect: str  # what happens to the case next
    findings: list[dict[str, Any]]  # the engine's reasons for the penalty, with their citations


def verdicts_for(appeal: Appeal) -> list[tuple[str, str]]:
    """The verdicts the service accepts for this appeal, in the regime's words: «não conhecido» only for a late
    one."""
    regime_id = appeal.case.regime_id
    return [
        (v.value, verdict_label(regime_id, v.value))
        for v in Verdict
        if v != Verdict.NOT_ADMITTED or appeal.late
    ]


def verdict_previews(appeal: Appeal, as_of: dt.date) -> list[VerdictPreview]:
    penalty, findings = _standing_penalty(appeal, as_of)
    effect = _condemnation_effect(appeal, as_of)
    out = []
    for value, label in verdicts_for(appeal):
        if value in CONDEMNING:
            out.append(VerdictPreview(value, label, penalty, effect, findings))
        else:
            out.append(VerdictPreview(value, label, "", GRANTED_EFFECT, []))
    return out


def _standing_penalty(appeal: Appeal, as_of: dt.date) -> tuple[str, list[dict[str, Any]]]:
    """The penalty the engine computes for the case today, or the law's reason for not computing it."""
    try:
        decision = lawbridge.sanction(appeal.case, None, as_of)
    except ValidationError as error:
        return " ".join(error.messages), []
    stored = decision.to_dict()
    if decision.outcome != "penalty":
        return "Nenhuma penalidade municipal.", decision_findings(stored)
    text = penalty_text(appeal.case.regime_id, list(decision.result.get("penalties") or []))
    return f"{text[:1].upper()}{text[1:]}.", decision_findings(stored)


def _condemnation_effect(appeal: Appeal, as_of: dt.date) -> str:
    regime_id = appeal.case.regime_id
    keys = list(proceeding(regime_id).instances)
    if appeal.instance == keys[-1]:
        return (
            "A decisão se torna definitiva na data do julgamento: a penalidade é aplicada (efeitos sobre o "
            "autorização e cobrança da multa)."
        )
    following = instance_label(regime_id, keys[keys.index(appeal.instance) + 1])
    return f"Cabe novo recurso ({following}), no prazo da lei. {fine_due_pt(regime_id, as_of)}"


def verdict_label(regime_id: str, verdict: str) -> str:
    """The verdict in the regime's words (labels.yaml verdicts): about the defence, or about the auto."""
    words = labels_of(regime_id).verdicts
    if verdict == Verdict.UPHELD:
        return words.condemn
    if verdict == Verdict.GRANTED:
        return words.acquit
    if verdict == Verdict.PARTIALLY_GRANTED:
        if words.judges == "auto":
            return "Auto parcialmente procedente — penalidade mantida"
        return "Parcialmente procedente — penalidade mantida"
    return str(Verdict(verdict).label)


def vote_words(regime_id: str) -> dict[str, str]:
    """The choices of a member's vote, in the regime's verdict words."""
    words = labels_of(regime_id).verdicts
    return vote_labels(words.condemn, words.acquit)
