from __future__ import annotations

from typing import Any

from django import forms

from apps.lawconfig.choices import ClosureKind
from apps.web.brfields import NumberField

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class DecimalCommaField(NumberField):
    """A number as Brazilians write it — "5,56", "1.234,5678" (or "5.56") —, at most ``places`` decimals
    (apps.web.brfields: one parser for every number field)."""


class FiscalUnitValueForm(forms.Form):
    """A dated value of one of the units the municipality's law leaves to it (``units``: key → label)."""

    unit = forms.ChoiceField(label="Unidade", required=False)
    valid_from = forms.DateField(label="Vigente a partir de", widget=DATE)
    value_brl = DecimalCommaField(label="Valor da unidade (R$)", help_text="Ex.: 5,45")
    cite = forms.CharField(label="Dispositivo da lei que usa a unidade", max_length=80, help_text="Ex.: art8")
    source = forms.CharField(
        label="Ato que fixou o valor", max_length=255, help_text="Ex.: Decreto municipal nº 1.234/2026"
    )
    reason = forms.CharField(
        label="Motivo da correção",
        max_length=255,
        required=False,
        help_text="Só ao corrigir um valor já registrado na mesma data (o anterior fica no histórico)",
    )
    field_order = ["unit"]

    def __init__(self, *args: Any, units: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = list(units.items())  # type: ignore[attr-defined]
        if len(units) == 1:
            self.fields["unit"].initial = next(iter(units))


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
    value = DecimalCommaField(
        label="Valor", help_text="Com vírgula para decimais: 5,56 (%), 4,3587 (R$), 120"
    )
    cite = forms.CharField(label="Dispositivo da lei", max_length=80, help_text="Ex.: art4A")
    source = forms.CharField(
        label="Ato que fixou o valor", max_length=255, help_text="Ex.: Decreto municipal nº 1.234/2026"
    )
    reason = forms.CharField(
        label="Motivo da correção",
        max_length=255,
        required=False,
        help_text="Só ao corrigir um valor já registrado na mesma data (o anterior fica no histórico)",
    )

    def __init__(self, *args: Any, targets: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = targets  # type: ignore[attr-defined]

    def service_kwargs(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data["regime_id"], data["parameter"] = data.pop("target").split("/", 1)
        return data


class ExternalValueForm(forms.Form):
    """A dated value of a table of the state or the Union (``tables``: parameter → label), with its act."""

    parameter = forms.ChoiceField(label="Tabela")
    valid_from = forms.DateField(label="Vigente a partir de", widget=DATE, help_text="Ex.: 01/01/2027")
    value = DecimalCommaField(label="Valor", help_text="Com vírgula para decimais: 40,12 (R$) ou 4,77 (%)")
    act = forms.CharField(
        label="Ato que fixou o valor", max_length=200, help_text="Ex.: Comunicado DICAR-90/26 da SEFAZ-SP"
    )
    act_date = forms.DateField(label="Data do ato", widget=DATE, required=False)
    published_on = forms.DateField(label="Publicado em", widget=DATE)
    publication = forms.CharField(
        label="Onde foi publicado", max_length=200, required=False, help_text="Ex.: DOE-SP, Seção I"
    )
    reason = forms.CharField(
        label="Motivo da correção",
        max_length=255,
        required=False,
        help_text="Só para corrigir um valor já registrado na mesma data (o anterior fica no histórico)",
    )

    def __init__(self, *args: Any, tables: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["parameter"].choices = list(tables.items())  # type: ignore[attr-defined]
        if len(tables) == 1:
            self.fields["parameter"].initial = next(iter(tables))
