from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.dueprocess.choices import Instance, Verdict
from apps.dueprocess.models import Appeal, Effect, Judgment, Sanction


class JudgmentSerializer(serializers.ModelSerializer[Judgment]):
    class Meta:
        model = Judgment
        fields = ["decided_on", "verdict", "reasoning", "decided_by_name", "role", "chosen"]


class AppealSerializer(serializers.ModelSerializer[Appeal]):
    case_number = serializers.CharField(source="case.number", read_only=True)
    judgment = serializers.SerializerMethodField()

    class Meta:
        model = Appeal
        fields = [
            "id",
            "case",
            "case_number",
            "instance",
            "filed_on",
            "channel",
            "filed_by_portal",
            "appellant_name",
            "text",
            "counts_from",
            "deadline",
            "late",
            "judgment_deadline",
            "judgment",
        ]

    def get_judgment(self, appeal: Appeal) -> dict[str, Any] | None:
        judgment = getattr(appeal, "judgment", None)
        return JudgmentSerializer(judgment).data if judgment else None


class AppealCreateSerializer(serializers.Serializer[Any]):
    case = serializers.IntegerField()
    instance = serializers.ChoiceField(choices=Instance.choices)
    filed_on = serializers.DateField()
    text = serializers.CharField()
    appellant_name = serializers.CharField(required=False, allow_blank=True, default="")


class JudgeSerializer(serializers.Serializer[Any]):
    verdict = serializers.ChoiceField(choices=Verdict.choices)
    decided_on = serializers.DateField()
    reasoning = serializers.CharField()
    chosen = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        default=dict,
        help_text="Quantidades fixadas dentro da faixa legal, por chave de penalidade (dias ou quantidade).",
    )


class EffectSerializer(serializers.ModelSerializer[Effect]):
    permit_number = serializers.CharField(
        source="permit.number", read_only=True, default=None, allow_null=True
    )

    class Meta:
        model = Effect
        fields = [
            "penalty_key",
            "label",
            "mechanism",
            "target",
            "state",
            "permit_number",
            "starts_on",
            "ends_on",
            "days",
            "points",
            "note",
            "ended_on",
        ]


class SanctionSerializer(serializers.ModelSerializer[Sanction]):
    case_number = serializers.CharField(source="case.number", read_only=True)
    guide_number = serializers.CharField(source="guide.number", read_only=True, default=None, allow_null=True)
    effect_rows = EffectSerializer(many=True, read_only=True)

    class Meta:
        model = Sanction
        fields = [
            "id",
            "case",
            "case_number",
            "state",
            "condemned_on",
            "decided_final_on",
            "finality_reason",
            "outcome",
            "penalties",
            "penalty_text",
            "recidivism",
            "fine_quantity",
            "fine_unit",
            "fine_brl",
            "suspension_days",
            "suspension_start",
            "suspension_end",
            "inspection_required",
            "cassation",
            "ban_start",
            "ban_until",
            "effects",
            "effect_rows",
            "guide_number",
            "decision",
        ]
