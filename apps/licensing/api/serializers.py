from __future__ import annotations

from rest_framework import serializers

from apps.licensing.models import Application, ApplicationEvent, Permit


class ApplicationEventSerializer(serializers.ModelSerializer[ApplicationEvent]):
    class Meta:
        model = ApplicationEvent
        fields = ["on", "kind", "actor_name", "state_from", "state_to", "note", "data"]
        read_only_fields = fields


class ApplicationSerializer(serializers.ModelSerializer[Application]):
    municipality = serializers.CharField(source="municipality.ibge_code", read_only=True)

    class Meta:
        model = Application
        fields = [
            "id",
            "municipality",
            "regime_id",
            "number",
            "kind",
            "state",
            "operator",
            "vehicle",
            "driver",
            "attendant",
            "permit",
            "submitted_on",
            "decided_on",
            "cure_deadline",
            "inspection_passed_on",
            "fees_forfeited",
            "archived_reason",
        ]
        read_only_fields = fields


class ApplicationDetailSerializer(ApplicationSerializer):
    events = ApplicationEventSerializer(many=True, read_only=True)

    class Meta(ApplicationSerializer.Meta):
        fields = [*ApplicationSerializer.Meta.fields, "last_decision", "events"]
        read_only_fields = fields


class TransitionSerializer(serializers.Serializer[None]):
    action = serializers.ChoiceField(
        choices=[
            "submit",
            "start_analysis",
            "evaluate",
            "request_documents",
            "require_fee",
            "require_inspection",
            "approve",
            "deny",
            "archive",
        ]
    )
    note = serializers.CharField(required=False, allow_blank=True, default="")
    fee_kind = serializers.CharField(required=False, allow_blank=True, default="")


class PermitSerializer(serializers.ModelSerializer[Permit]):
    municipality = serializers.CharField(source="municipality.ibge_code", read_only=True)
    plate = serializers.CharField(source="vehicle.plate", read_only=True)

    class Meta:
        model = Permit
        fields = [
            "id",
            "municipality",
            "regime_id",
            "number",
            "kind",
            "state",
            "operator",
            "vehicle",
            "plate",
            "issued_on",
            "valid_from",
            "valid_until",
            "suspended_until",
            "inspection_due_on",
            "inspection_overdue",
            "closed_on",
            "closed_reason",
        ]
        read_only_fields = fields
