from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from apps.public.choices import ComplaintCategory, ComplaintState
from apps.public.kept import TOWN_CHOICES


# The lookup page's two fields are written directly: the same text as Django's widget templates
# (django/forms/widgets/input.html, select.html, select_option.html, attrs.html; tests/test_lookup_form.py
# compares them), without a template render per field, option and attribute list — that was two fifths of
# rendering the lookup page (issue 12).
def _attrs(attrs: dict[str, Any]) -> str:
    return "".join(
        format_html(" {}", name) if value is True else format_html(' {}="{}"', name, value)
        for name, value in attrs.items()
        if value is not False
    )


class DirectTextInput(forms.TextInput):
    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        shown = "" if widget["value"] is None else format_html(' value="{}"', widget["value"])
        start = format_html('<input type="{}" name="{}"', widget["type"], widget["name"])
        return mark_safe(f"{start}{shown}{_attrs(widget['attrs'])}>")


class DirectSelect(forms.Select):
    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        parts = [format_html('<select name="{}"', widget["name"]), _attrs(widget["attrs"]), ">"]
        for group_name, options, _ in widget["optgroups"]:
            if group_name:
                parts.append(format_html('\n  <optgroup label="{}">', group_name))
            for option in options:
                value_attr = format_html('\n  <option value="{}"', option["value"])
                label = format_html(
                    "{}</option>\n", option["label"]
                )  # the option template ends with a newline
                parts += [value_attr, _attrs(option["attrs"]), ">", label]
            if group_name:
                parts.append("\n  </optgroup>")
        parts.append("\n</select>")
        return mark_safe("".join(parts))


def municipality_choices() -> list[tuple[str, str]]:
    """The towns of the lookup and complaint forms, kept PUBLIC_MUNICIPALITY_TTL seconds (apps.public.kept)."""
    return list(TOWN_CHOICES.get())


class LookupForm(forms.Form):
    """A plate is searched in every municipality of the deployment; the town is asked only for a permit number
    (and never pre-selected: a wrong default would answer «não embarque» for a valid van of another town)."""

    q = forms.CharField(
        label="Placa ou número da autorização",
        max_length=20,
        widget=DirectTextInput(
            attrs={
                "autocapitalize": "characters",
                "autocomplete": "off",
                "placeholder": "ABC1D23 ou 0001/2026",
                "inputmode": "text",
            }
        ),
    )
    municipio = forms.ChoiceField(
        label="Município (só para consulta pelo número da autorização)",
        required=False,
        help_text="A placa é procurada em todos os municípios atendidos por esta consulta.",
        widget=DirectSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "Escolha o município da autorização"), *municipality_choices()]
        self.fields["municipio"].choices = choices  # type: ignore[attr-defined]


class ComplaintForm(forms.Form):
    municipio = forms.ChoiceField(label="Município")
    category = forms.ChoiceField(label="Qual é o problema?", choices=ComplaintCategory.choices)
    plate = forms.CharField(label="Placa do veículo (se souber)", max_length=10, required=False)
    permit_number = forms.CharField(label="Número da autorização (se souber)", max_length=12, required=False)
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


class DocumentCheckForm(forms.Form):
    """The public check of a document: the PDF itself (full check) or the code printed on it."""

    arquivo = forms.FileField(
        label="Arquivo PDF do documento",
        required=False,
        help_text="O arquivo é conferido e descartado: não fica guardado.",
        widget=forms.ClearableFileInput(attrs={"accept": "application/pdf"}),
    )
    codigo = forms.CharField(
        label="Ou o código de verificação impresso no documento",
        max_length=24,
        required=False,
        help_text="16 letras e números, no rodapé do documento (por exemplo ABCD-EFGH-JKLM-NPQR).",
    )
    municipio = forms.ChoiceField(label="Prefeitura que emitiu (opcional)", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "Qualquer prefeitura atendida"), *municipality_choices()]
        self.fields["municipio"].choices = choices  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("arquivo") and not (data.get("codigo") or "").strip():
            raise forms.ValidationError("Envie o arquivo PDF ou digite o código de verificação.")
        return data
