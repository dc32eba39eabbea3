from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django import forms
from django.utils import timezone

from apps.audit.models import AuditEventQuerySet
from apps.tenancy.models import Municipality


class AuditEventFilterForm(forms.Form):
    """Filters of the audit trail; municipality choices are only those the user may audit."""

    municipality = forms.ChoiceField(label="Município", required=False)
    action = forms.CharField(label="Ação", required=False, max_length=64)
    object_type = forms.CharField(label="Tipo do objeto", required=False, max_length=100)
    actor = forms.CharField(label="Autor", required=False, max_length=200)
    date_from = forms.DateField(label="De", required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label="Até", required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, municipalities: list[Municipality], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "Todos os meus municípios")] + [(m.ibge_code, str(m)) for m in municipalities]
        self.fields["municipality"].choices = choices  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            raise forms.ValidationError("A data inicial deve ser anterior ou igual à data final.")
        return data

    def apply(self, events: AuditEventQuerySet) -> AuditEventQuerySet:
        data = self.cleaned_data
        if data.get("municipality"):
            events = events.filter(municipality__ibge_code=data["municipality"])
        if data.get("action"):
            events = events.filter(action__icontains=data["action"])
        if data.get("object_type"):
            events = events.filter(object_type__icontains=data["object_type"])
        if data.get("actor"):
            events = events.filter(actor_name__icontains=data["actor"])
        if data.get("date_from"):
            events = events.filter(occurred_at__gte=_local_midnight(data["date_from"]))
        if data.get("date_to"):
            events = events.filter(occurred_at__lt=_local_midnight(data["date_to"]) + timedelta(days=1))
        return events


def _local_midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))
