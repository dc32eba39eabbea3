from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django import forms
from django.utils import timezone

from apps.audit.models import AuditEventQuerySet
from apps.audit.people import MIN_NAME_QUERY, events_about_people
from apps.tenancy.models import Municipality

CPF_DIGITS = 11


class AuditEventFilterForm(forms.Form):
    """Filters of the audit trail; municipality choices are only those the user may audit."""

    municipality = forms.ChoiceField(label="Município", required=False)
    action = forms.ChoiceField(
        label="Ação",
        required=False,
        error_messages={
            "invalid_choice": "Ação: escolha uma das ações da lista (nenhum evento seu tem esta)."
        },
    )
    person = forms.CharField(
        label="Pessoa (CPF ou nome)",
        required=False,
        max_length=200,
        help_text=(
            "Eventos sobre os registros da pessoa: cadastro, vínculos, veículos, documentos, autorizações, autos."
        ),
    )
    actor = forms.CharField(label="Autor", required=False, max_length=200)
    date_from = forms.DateField(label="De", required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label="Até", required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(
        self,
        *args: Any,
        municipalities: list[Municipality],
        actions: list[tuple[str, str]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.municipalities = municipalities
        choices = [("", "Todos os meus municípios")] + [(m.ibge_code, str(m)) for m in municipalities]
        self.fields["municipality"].choices = choices  # type: ignore[attr-defined]
        self.fields["action"].choices = [("", "Todas"), *(actions or [])]  # type: ignore[attr-defined]

    def clean_person(self) -> str:
        text = str(self.cleaned_data.get("person") or "").strip()
        digits = "".join(ch for ch in text if ch.isdigit())
        if digits and len(digits) != CPF_DIGITS:
            raise forms.ValidationError("Pessoa: um CPF tem 11 dígitos.")
        if text and not digits and len(text) < MIN_NAME_QUERY:
            raise forms.ValidationError(f"Pessoa: informe ao menos {MIN_NAME_QUERY} letras do nome.")
        return text

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
            events = events.filter(action=data["action"])
        if data.get("person"):
            events = events.filter(pk__in=events_about_people(data["person"], self.municipalities, events))
        if data.get("actor"):
            events = events.filter(actor_name__icontains=data["actor"])
        if data.get("date_from"):
            events = events.filter(occurred_at__gte=_local_midnight(data["date_from"]))
        if data.get("date_to"):
            events = events.filter(occurred_at__lt=_local_midnight(data["date_to"]) + timedelta(days=1))
        return events


def _local_midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))
