from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from django import forms
from django.utils import timezone

from apps.audit.choices import RequestKind, RequestStatus
from apps.audit.models import AuditEventQuerySet
from apps.audit.subjects import MIN_NAME_QUERY, events_about, find_people
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
        help_text="Eventos sobre os registros da pessoa: cadastro, vínculos, veículos, documentos, alvarás, autos.",
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
            events = events.filter(
                pk__in=events_about(find_people(data["person"], self.municipalities), events)
            )
        if data.get("actor"):
            events = events.filter(actor_name__icontains=data["actor"])
        if data.get("date_from"):
            events = events.filter(occurred_at__gte=_local_midnight(data["date_from"]))
        if data.get("date_to"):
            events = events.filter(occurred_at__lt=_local_midnight(data["date_to"]) + timedelta(days=1))
        return events


def _local_midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def _municipality_choices(municipalities: list[Municipality]) -> list[tuple[str, str]]:
    return [(m.ibge_code, str(m)) for m in municipalities]


class SubjectSearchForm(forms.Form):
    """Find a data subject by CPF (any punctuation) or by part of the name."""

    q = forms.CharField(label="CPF ou nome do titular", max_length=200, min_length=3)

    def clean_q(self) -> str:
        text = str(self.cleaned_data["q"]).strip()
        digits = "".join(ch for ch in text if ch.isdigit())
        if digits and len(digits) != CPF_DIGITS:
            raise forms.ValidationError("CPF ou nome do titular: um CPF tem 11 dígitos.")
        if digits and any(ch.isalpha() for ch in text):
            raise forms.ValidationError("CPF ou nome do titular: informe o CPF ou o nome, não os dois.")
        return text


class DataSubjectRequestForm(forms.Form):
    municipality = forms.ChoiceField(label="Município")
    requester_name = forms.CharField(label="Nome do titular", max_length=200)
    requester_cpf = forms.CharField(label="CPF do titular", max_length=14)
    contact = forms.CharField(label="Contato para a resposta (e-mail, telefone ou endereço)", max_length=200)
    kind = forms.ChoiceField(label="Direito solicitado", choices=RequestKind.choices)
    description = forms.CharField(label="Pedido", max_length=4000, widget=forms.Textarea(attrs={"rows": 4}))
    # ISO format: a browser's date input ignores a value in the locale's dd/mm/aaaa.
    received_on = forms.DateField(
        label="Recebido em", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )

    def __init__(self, *args: Any, municipalities: list[Municipality], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["municipality"].choices = _municipality_choices(municipalities)  # type: ignore[attr-defined]


class DataSubjectRequestUpdateForm(forms.Form):
    status = forms.ChoiceField(label="Situação", choices=RequestStatus.choices)
    answer = forms.CharField(
        label="Resposta ao titular (obrigatória para encerrar)",
        max_length=8000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
    )
