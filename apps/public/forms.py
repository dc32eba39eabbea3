from __future__ import annotations

import time
from typing import Any

from django import forms

from apps.public import conf
from apps.public.choices import ComplaintCategory, ComplaintState
from apps.tenancy.models import Municipality

# (expires at, choices): kept in this process like lookups._municipality, for the same reason: every public page
# asks, a town is added a few times a year.
_CHOICES: list[tuple[float, list[tuple[str, str]]]] = []


def municipality_choices() -> list[tuple[str, str]]:
    """The towns of the lookup form, kept PUBLIC_MUNICIPALITY_TTL seconds in this process; a municipality saved
    or deleted in this process drops them at once (forget_municipality_choices), another process within the
    TTL."""
    if _CHOICES and _CHOICES[0][0] > time.monotonic():
        return list(_CHOICES[0][1])
    rows = Municipality.objects.order_by("name").values_list("ibge_code", "name", "uf")
    choices = [(ibge, f"{name}-{uf}") for ibge, name, uf in rows]
    _CHOICES[:] = [(time.monotonic() + conf.municipality_ttl_seconds(), choices)]
    return list(choices)


def forget_municipality_choices(**kwargs: Any) -> None:
    _CHOICES.clear()


class LookupForm(forms.Form):
    """A plate is searched in every municipality of the deployment; the town is asked only for a permit number
    (and never pre-selected: a wrong default would answer «não embarque» for a valid van of another town)."""

    q = forms.CharField(
        label="Placa ou número do alvará",
        max_length=20,
        widget=forms.TextInput(
            attrs={
                "autocapitalize": "characters",
                "autocomplete": "off",
                "placeholder": "ABC1D23 ou 0001/2026",
                "inputmode": "text",
            }
        ),
    )
    municipio = forms.ChoiceField(
        label="Município (só para consulta pelo número do alvará)",
        required=False,
        help_text="A placa é procurada em todos os municípios atendidos por esta consulta.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "Escolha o município do alvará"), *municipality_choices()]
        self.fields["municipio"].choices = choices  # type: ignore[attr-defined]


class ComplaintForm(forms.Form):
    municipio = forms.ChoiceField(label="Município")
    category = forms.ChoiceField(label="Qual é o problema?", choices=ComplaintCategory.choices)
    plate = forms.CharField(label="Placa do veículo (se souber)", max_length=10, required=False)
    permit_number = forms.CharField(label="Número do alvará (se souber)", max_length=12, required=False)
    occurred_on = forms.DateField(label="Quando aconteceu?", widget=forms.DateInput(attrs={"type": "date"}))
    place = forms.CharField(label="Onde? (escola, rua, bairro)", max_length=200, required=False)
    description = forms.CharField(
        label="Conte o que aconteceu", max_length=2000, widget=forms.Textarea(attrs={"rows": 5})
    )
    contact = forms.CharField(
        label="E-mail ou telefone para retorno (opcional; só a prefeitura vê)", max_length=120, required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["municipio"].choices = municipality_choices()  # type: ignore[attr-defined]


class ComplaintMoveForm(forms.Form):
    state = forms.ChoiceField(label="Nova situação", choices=ComplaintState.choices[1:])
    resolution = forms.CharField(
        label="Providências", required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )
