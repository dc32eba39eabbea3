from __future__ import annotations

from typing import Any

from django import forms

from apps.audit.choices import RequestKind, RequestStatus
from apps.tenancy.models import Municipality

CPF_DIGITS = 11


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
