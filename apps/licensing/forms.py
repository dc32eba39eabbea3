from __future__ import annotations

from typing import Any

from django import forms

from apps.licensing import appfields
from apps.licensing.choices import ApplicationKind, ApplicationState, PermitState
from apps.licensing.models import Permit
from apps.licensing.querysets import ApplicationQuerySet, PermitQuerySet
from apps.registry.models import Attendant, Driver, Operator, Vehicle
from apps.tenancy.regimes import regime_filter_options
from outorga.submit import attach_refusal

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class ApplicationFilterForm(forms.Form):
    q = forms.CharField(label="Nome, CPF/CNPJ ou placa", required=False, max_length=100)
    state = forms.ChoiceField(
        label="Situação", required=False, choices=[("", "Todas"), *ApplicationState.choices]
    )
    kind = forms.ChoiceField(label="Tipo", required=False, choices=[("", "Todos"), *ApplicationKind.choices])
    regime = forms.ChoiceField(label="Regime", required=False, choices=[("", "Todos")])

    def __init__(self, *args: Any, regimes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["regime"].choices = regime_filter_options(regimes)  # type: ignore[attr-defined]

    def apply(self, applications: ApplicationQuerySet) -> ApplicationQuerySet:
        data = self.cleaned_data
        if data.get("q"):
            applications = applications.search(data["q"])
        for field, column in (("state", "state"), ("kind", "kind"), ("regime", "regime_id")):
            if data.get(field):
                applications = applications.filter(**{column: data[field]})
        return applications


class PermitFilterForm(forms.Form):
    q = forms.CharField(label="Número, nome, CPF/CNPJ ou placa", required=False, max_length=100)
    state = forms.ChoiceField(label="Situação", required=False, choices=[("", "Todas"), *PermitState.choices])

    def apply(self, permits: PermitQuerySet) -> PermitQuerySet:
        data = self.cleaned_data
        if data.get("q"):
            permits = permits.search(data["q"])
        if data.get("state"):
            permits = permits.filter(state=data["state"])
        return permits


class ApplicationCreateForm(forms.Form):
    """Targets are limited to the operator's own rows; the service checks the rest."""

    kind = forms.ChoiceField(label="Tipo de requerimento", choices=ApplicationKind.choices)
    vehicle = forms.ModelChoiceField(label="Veículo", queryset=Vehicle.objects.none(), required=False)
    driver = forms.ModelChoiceField(label="Condutor", queryset=Driver.objects.none(), required=False)
    attendant = forms.ModelChoiceField(label="Monitor", queryset=Attendant.objects.none(), required=False)
    permit = forms.ModelChoiceField(
        label="Autorização de referência", queryset=Permit.objects.none(), required=False
    )
    enrolled_students = forms.IntegerField(label="Alunos matriculados", required=False, min_value=0)
    carries_children_under_4_or_pcd = forms.NullBooleanField(
        label="Transporta crianças menores de 4 anos ou pessoas com deficiência?",
        required=False,
        widget=forms.Select(choices=[("unknown", "Não informado"), ("true", "Sim"), ("false", "Não")]),
    )
    platform_notified_on = forms.DateField(label="Comunicação da plataforma em", required=False, widget=DATE)
    extensions = forms.IntegerField(label="Prorrogações pedidas", required=False, min_value=0, initial=0)
    requested_until = forms.DateField(label="Prazo pedido até", required=False, widget=DATE)
    reason = forms.CharField(
        label="Motivo / observações", required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args: Any, operator: Operator, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        fields: dict[str, Any] = self.fields
        fields["vehicle"].queryset = Vehicle.objects.filter(operator=operator)
        fields["driver"].queryset = Driver.objects.filter(operator=operator).select_related("person")
        fields["attendant"].queryset = Attendant.objects.filter(operator=operator).select_related("person")
        fields["permit"].queryset = (
            Permit.objects.filter(operator=operator).in_force().select_related("vehicle")
        )
        self.regime_id = operator.regime_id
        appfields.limit_form(self, self.regime_id)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") and (refusal := appfields.refusal(self.regime_id, data["kind"], data)):
            attach_refusal(self, refusal)
        return data


class NoteForm(forms.Form):
    note = forms.CharField(
        label="Observação", required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )


class FeeForm(forms.Form):
    fee_kind = forms.ChoiceField(label="Taxa", choices=())

    def __init__(self, *args: Any, fee_kinds: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["fee_kind"].choices = fee_kinds  # type: ignore[attr-defined]
