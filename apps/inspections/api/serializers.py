from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.inspections.choices import InspectionKind
from apps.inspections.models import Inspection


class InspectionSerializer(serializers.ModelSerializer[Inspection]):
    municipality = serializers.CharField(source="municipality.ibge_code", read_only=True)
    plate = serializers.CharField(source="vehicle.plate", read_only=True)

    class Meta:
        model = Inspection
        fields = [
            "id",
            "municipality",
            "regime_id",
            "vehicle",
            "plate",
            "application",
            "kind",
            "checklist_kind",
            "scheduled_for",
            "deadline",
            "deadline_basis",
            "inspector",
            "performed_on",
            "result",
            "cure_deadline",
            "previous",
            "items",
            "notes",
        ]
        read_only_fields = fields


class ScheduleSerializer(serializers.Serializer[None]):
    vehicle = serializers.IntegerField()
    scheduled_for = serializers.DateField()
    kind = serializers.ChoiceField(
        choices=[k for k in InspectionKind.values if k != InspectionKind.REINSPECTION], required=False
    )
    application = serializers.IntegerField(required=False)
    inspector = serializers.IntegerField(required=False)


class ItemSerializer(serializers.Serializer[None]):
    code = serializers.CharField()
    ok = serializers.BooleanField()
    note = serializers.CharField(required=False, allow_blank=True, default="")


class ResultSerializer(serializers.Serializer[None]):
    performed_on = serializers.DateField()
    items = ItemSerializer(many=True)
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class CalendarQuerySerializer(serializers.Serializer[None]):
    municipality = serializers.CharField(help_text="Código IBGE do município")
    year = serializers.IntegerField(min_value=2000, max_value=2100)
    month = serializers.IntegerField(min_value=1, max_value=12)


class CalendarVehicleSerializer(serializers.Serializer[None]):
    vehicle = serializers.IntegerField()
    plate = serializers.CharField()
    permit = serializers.CharField()
    status = serializers.ChoiceField(choices=["done", "due", "overdue", "upcoming"])
    message = serializers.CharField()
    basis = serializers.CharField()
    last_inspection = serializers.DateField(allow_null=True)


class CalendarMonthSerializer(serializers.Serializer[None]):
    month = serializers.IntegerField()
    due = serializers.IntegerField()
    done = serializers.IntegerField()
    overdue = serializers.IntegerField()


class CalendarSerializer(serializers.Serializer[Any]):
    regime_id = serializers.CharField()
    available = serializers.BooleanField()
    vehicles = CalendarVehicleSerializer(many=True)
    months = CalendarMonthSerializer(many=True)
