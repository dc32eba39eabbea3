"""Shapes of the enforcement API (read) and of its inputs (create auto, send notice, record receipt)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.enforcement.choices import NoticeChannel, NoticePurpose, ReturnedReason
from apps.enforcement.forms import TEXT_MAX_LENGTH
from apps.enforcement.models import CaseEvent, InfractionCase, Notice


class NoticeSerializer(serializers.ModelSerializer[Notice]):
    class Meta:
        model = Notice
        fields = [
            "id",
            "case",
            "purpose",
            "channel",
            "recipient_name",
            "sent_on",
            "received_on",
            "refused",
            "signature_name",
            "returned_reason",
            "edital",
            "ciencia_on",
        ]


class CaseEventSerializer(serializers.ModelSerializer[CaseEvent]):
    class Meta:
        model = CaseEvent
        fields = ["on", "kind", "actor_name", "state_from", "state_to", "note"]


class CaseSerializer(serializers.ModelSerializer[InfractionCase]):
    municipality = serializers.CharField(source="municipality.ibge_code", read_only=True)

    class Meta:
        model = InfractionCase
        fields = [
            "id",
            "municipality",
            "regime_id",
            "number",
            "state",
            "infraction_code",
            "infraction_title",
            "infraction_cite",
            "occurred_at",
            "drawn_on",
            "place",
            "plate",
            "vehicle",
            "permit",
            "operator",
            "driver",
            "driver_name",
            "clandestine",
            "agent_name_at_time",
            "agent_registration",
            "already_punished_as_traffic_only",
            "notice_limit",
            "warnings",
        ]


class CaseDetailSerializer(CaseSerializer):
    description = serializers.CharField(read_only=True)
    circumstances = serializers.CharField(read_only=True)
    notices = NoticeSerializer(many=True, read_only=True)
    events = CaseEventSerializer(many=True, read_only=True)
    notice_limit_decision = serializers.JSONField(read_only=True)

    class Meta(CaseSerializer.Meta):
        fields = [
            *CaseSerializer.Meta.fields,
            "description",
            "circumstances",
            "notices",
            "events",
            "notice_limit_decision",
        ]


class CaseCreateSerializer(serializers.Serializer[Any]):
    municipality = serializers.CharField(help_text="Código IBGE")
    regime_id = serializers.CharField(required=False, allow_blank=True)
    infraction_code = serializers.CharField(allow_blank=True, max_length=32)
    plate = serializers.CharField(allow_blank=True, max_length=10)
    occurred_at = serializers.DateTimeField()
    # Max lengths are the columns' (PostgreSQL refuses longer text with an error, not a message).
    place = serializers.CharField(required=False, allow_blank=True, default="", max_length=300)
    description = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=TEXT_MAX_LENGTH
    )
    circumstances = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=TEXT_MAX_LENGTH
    )
    driver = serializers.IntegerField(required=False, allow_null=True, default=None)
    driver_name = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    offender_name = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    offender_address = serializers.CharField(required=False, allow_blank=True, default="", max_length=300)
    agent_registration = serializers.CharField(required=False, allow_blank=True, default="", max_length=40)
    already_punished_as_traffic_only = serializers.BooleanField(required=False, default=False)
    traffic_only_reference = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=200
    )


class NoticeCreateSerializer(serializers.Serializer[Any]):
    purpose = serializers.ChoiceField(choices=NoticePurpose.choices)
    channel = serializers.ChoiceField(
        choices=[c for c in NoticeChannel.choices if c[0] != NoticeChannel.EDITAL]
    )
    sent_on = serializers.DateField()
    signature_name = serializers.CharField(required=False, allow_blank=True, default="")
    refused = serializers.BooleanField(required=False, default=False)


class ReceiptSerializer(serializers.Serializer[Any]):
    received_on = serializers.DateField()
    returned_reason = serializers.ChoiceField(choices=ReturnedReason.choices, required=False, default="")
