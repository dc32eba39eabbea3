from __future__ import annotations

from typing import Any

from django import forms

from apps.lawconfig.choices import ClosureKind

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class FiscalUnitValueForm(forms.Form):
    valid_from = forms.DateField(label="Vigente a partir de", widget=DATE)
    value_brl = forms.DecimalField(label="Valor da UFM (R$)", max_digits=12, decimal_places=4, min_value=0)
    cite = forms.CharField(label="Dispositivo da lei que usa a UFM", max_length=80, help_text="Ex.: art8")
    source = forms.CharField(label="Ato que fixou o valor", max_length=255,
                             help_text="Ex.: Decreto municipal nº 1.234/2026")  # fmt: skip


class InterpretationChoiceForm(forms.Form):
    regime_id = forms.CharField(widget=forms.HiddenInput)
    interpretation_id = forms.CharField(widget=forms.HiddenInput)
    option = forms.ChoiceField(label="Opção adotada")
    decided_by_act = forms.CharField(label="Ato que decidiu", max_length=255)
    decided_on = forms.DateField(label="Decidido em", widget=DATE)

    def __init__(self, *args: Any, options: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["option"].choices = list(options.items())  # type: ignore[attr-defined]


class ClosureForm(forms.Form):
    date = forms.DateField(label="Data", widget=DATE)
    description = forms.CharField(label="Descrição e ato", max_length=255)
    kind = forms.ChoiceField(label="Tipo", choices=ClosureKind.choices)


class ParameterValueForm(forms.Form):
    """A value for one of the parameters the municipality's regimes leave to it (``regime_id/parameter``)."""

    target = forms.ChoiceField(label="Parâmetro")
    valid_from = forms.DateField(label="Vigente a partir de", widget=DATE)
    value = forms.DecimalField(label="Valor", max_digits=14, decimal_places=4)
    cite = forms.CharField(label="Dispositivo da lei", max_length=80, help_text="Ex.: art4A")
    source = forms.CharField(label="Ato que fixou o valor", max_length=255,
                             help_text="Ex.: Decreto municipal nº 1.234/2026")  # fmt: skip

    def __init__(self, *args: Any, targets: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = targets  # type: ignore[attr-defined]

    def service_kwargs(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["regime_id"], data["parameter"] = data.pop("target").split("/", 1)
        return data
