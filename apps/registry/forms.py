"""Registry forms. They only shape input; services validate and refuse (the view puts refusals on fields).

Forms are plain Forms built from the model's fields (labels, choices, max lengths), not ModelForms: a
ModelForm would run the model's unique checks with Django's generic wording before the service could refuse
with ours.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.forms.models import fields_for_model

import lawcode
from apps.registry.catalog import kind_choices
from apps.registry.choices import (
    DocumentStatus,
    DriverRole,
    InfractionSeverity,
    OperatorKind,
    VehicleCategory,
)
from apps.registry.fields import cep_field
from apps.registry.models import Company, Document, Driver, Person, Vehicle
from apps.registry.services import COMPANY_FIELDS, DRIVER_FIELDS, PERSON_FIELDS, VEHICLE_FIELDS
from apps.registry.validity import detail_field, extra_field
from apps.tenancy.regimes import regime_filter_options, regime_options, regime_summary
from lawcode.documents import DocumentKind
from lawcode.fields import FieldSpec

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
OWNERSHIP_FIELDS = (
    "owner_name",
    "owner_document",
    "ownership_kind",
    "ownership_since",
    "ownership_registered",
    "owner_signature_notarized",
)


def _model_fields(model: type[models.Model], names: tuple[str, ...]) -> dict[str, forms.Field]:
    fields = fields_for_model(model, fields=list(names))
    for field in fields.values():
        if isinstance(field, forms.DateField):
            field.widget = DATE
    if "postal_code" in fields:  # typed "12210-000", as the hint shows; the service stores the 8 digits
        fields["postal_code"] = cep_field(required=False)
    return dict(fields)


def service_values(form: forms.Form, names: tuple[str, ...]) -> dict[str, Any]:
    """The cleaned values a service takes as keyword arguments."""
    return {name: form.cleaned_data[name] for name in names if name in form.cleaned_data}


PersonForm = type("PersonForm", (forms.Form,), _model_fields(Person, PERSON_FIELDS))
PersonCreateForm = type(
    "PersonCreateForm",
    (PersonForm,),
    {"cpf": forms.CharField(label="CPF", max_length=14), "field_order": ["cpf"]},
)
CompanyForm = type("CompanyForm", (forms.Form,), _model_fields(Company, COMPANY_FIELDS))
CompanyCreateForm = type(
    "CompanyCreateForm",
    (CompanyForm,),
    {"cnpj": forms.CharField(label="CNPJ", max_length=18), "field_order": ["cnpj"]},
)
DriverFieldsForm = type(
    "DriverFieldsForm",
    (forms.Form,),
    _model_fields(Driver, tuple(f for f in DRIVER_FIELDS if f != "vehicle")),
)
VehicleFieldsForm = type("VehicleFieldsForm", (forms.Form,), _model_fields(Vehicle, VEHICLE_FIELDS))
OwnershipFieldsForm = type("OwnershipFieldsForm", (forms.Form,), _model_fields(Vehicle, OWNERSHIP_FIELDS))


class OperatorForm(forms.Form):
    regime_id = forms.ChoiceField(label="Regime")
    kind = forms.ChoiceField(label="Tipo", choices=OperatorKind.choices)
    document = forms.CharField(label="CPF (PF) ou CNPJ (PJ) do titular já cadastrado", max_length=18)

    def __init__(self, *args: Any, regimes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["regime_id"].choices = regime_options(regimes)  # type: ignore[attr-defined]


class DriverForm(DriverFieldsForm):  # type: ignore[misc, valid-type]
    person_cpf = forms.CharField(label="CPF do condutor (pessoa já cadastrada)", max_length=14)
    vehicle = forms.ModelChoiceField(
        label="Veículo que conduz", queryset=Vehicle.objects.none(), required=False
    )
    field_order = ["person_cpf", "role"]

    def __init__(self, *args: Any, vehicles: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["vehicle"].queryset = vehicles


class AttendantForm(forms.Form):
    person_cpf = forms.CharField(label="CPF do monitor (pessoa já cadastrada)", max_length=14)


class VehicleForm(VehicleFieldsForm):  # type: ignore[misc, valid-type]
    plate = forms.CharField(label="Placa", max_length=8, help_text="Antiga (ABC-1234) ou Mercosul (ABC1D23)")
    renavam = forms.CharField(label="RENAVAM", max_length=11)
    field_order = ["plate", "renavam"]


class OwnershipForm(OwnershipFieldsForm):  # type: ignore[misc, valid-type]
    ownership_contract = forms.ModelChoiceField(
        label="Contrato do vínculo (documento enviado)", queryset=Document.objects.none(), required=False
    )

    def __init__(self, *args: Any, contracts: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ownership_contract"].queryset = contracts


YES_NO_UNKNOWN = [("", "Não informado"), ("true", "Sim"), ("false", "Não")]


def _yes_no(label: str, help_text: str = "") -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=label,
        required=False,
        choices=YES_NO_UNKNOWN,
        help_text=help_text,
        coerce=lambda v: v == "true",
        empty_value=None,
    )


def declared_field(spec: FieldSpec, *, applies_to: str = "") -> forms.Field:
    """A form field for a regime-declared field (document detail or extra fact), typed as declared.

    Decimals stay text so "5,56" reaches lawcode's reading of the decimal comma; the service types every value
    against the declaration and refuses a bad one naming the label and the article.
    """
    help_text = " ".join(part for part in (spec.help, applies_to, f"({spec.cite_text})") if part)
    if spec.type == "bool":
        return _yes_no(spec.label, help_text)
    if spec.type == "int":
        return forms.IntegerField(label=spec.label, required=False, help_text=help_text)
    if spec.type == "date":
        return forms.DateField(label=spec.label, required=False, widget=DATE, help_text=help_text)
    if spec.type == "choice":
        choices = [("", "Não informado"), *spec.choices.items()]
        return forms.ChoiceField(label=spec.label, required=False, choices=choices, help_text=help_text)
    widget = forms.TextInput(attrs={"inputmode": "decimal"}) if spec.type == "decimal" else None
    return forms.CharField(
        label=spec.label, required=False, max_length=200, widget=widget, help_text=help_text
    )


class DocumentForm(forms.Form):
    """Upload of a document of a kind the regime declares; its detail fields are the declared ones."""

    owner = forms.ChoiceField(label="Documento de")
    kind = forms.ChoiceField(label="Tipo de documento")
    file = forms.FileField(label="Arquivo (PDF, JPEG ou PNG, até 10 MB)")
    issue_date = forms.DateField(label="Data de emissão", widget=DATE)
    expiry_date = forms.DateField(label="Validade impressa (se houver)", required=False, widget=DATE)
    valid = _yes_no("O conteúdo atende ao exigido (ex.: certidão negativa)?")

    def __init__(
        self, *args: Any, owners: list[tuple[str, str]], kinds: dict[str, DocumentKind], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.kinds = kinds
        self.fields["owner"].choices = owners  # type: ignore[attr-defined]
        self.fields["kind"].choices = kind_choices(kinds)  # type: ignore[attr-defined]
        certificates = [kind.label for kind in kinds.values() if kind.negative_certificate]
        if certificates:
            self.fields["negative"] = _yes_no(
                "Certidão negativa?",
                "Só para certidões e atestados: «Não» quando a certidão aponta registros.",
            )
        for key, (spec, labels) in self._detail_specs().items():
            self.fields[detail_field(key)] = declared_field(spec, applies_to=f"Para: {'; '.join(labels)}.")

    def _detail_specs(self) -> dict[str, tuple[FieldSpec, list[str]]]:
        """Each detail key declared by some kind, with the kinds that carry it (the first declaration labels it)."""
        specs: dict[str, tuple[FieldSpec, list[str]]] = {}
        for kind in self.kinds.values():
            for key, spec in kind.details.items():
                specs.setdefault(key, (spec, []))[1].append(kind.label)
        return specs

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        negative = data.get("negative")
        kind = self.kinds.get(data.get("kind") or "")
        if negative is not None and kind is not None and not kind.negative_certificate:
            self.add_error("negative", "Certidão negativa?: só se aplica a certidões e atestados.")
        elif negative is not None and data.get("valid") not in (None, negative):
            self.add_error(
                "negative", "Certidão negativa?: a resposta contradiz «o conteúdo atende ao exigido»."
            )
        return data

    def details(self) -> dict[str, Any]:
        """The chosen kind's declared details, named as the regime names them (unanswered ones left out), and
        the clerk's reading of the content as ``valid`` (a negative certificate is one that meets the law)."""
        kind = self.kinds.get(self.cleaned_data.get("kind") or "")
        details: dict[str, Any] = {}
        for key in kind.details if kind is not None else ():
            value = self.cleaned_data.get(detail_field(key))
            if value not in (None, ""):
                details[key] = value
        if self.cleaned_data.get("valid") is not None:
            details["valid"] = self.cleaned_data["valid"]
        if self.cleaned_data.get("negative") is not None:
            details["valid"] = self.cleaned_data["negative"]
        return details


def add_extra_fields(
    form: forms.Form, specs: Mapping[str, FieldSpec], values: Mapping[str, Any] | None = None
) -> None:
    """The regime's extra questions (facts.yaml) about the entity, as ``extra_<key>`` fields."""
    for key, spec in specs.items():
        form.fields[extra_field(key)] = declared_field(spec)
        if values and key in values and not form.is_bound:
            form.initial[extra_field(key)] = _initial(spec, values[key])


def add_extra_fields_of_regimes(form: forms.Form, regime_ids: list[str], entity: str) -> None:
    """The extra questions of every regime ``regime_ids`` holds (an operator form before its regime is chosen):
    with more than one regime, each field says whose law asks it, and ``data-regimes`` lets the page show it
    only for those; an answer to another regime's question is refused (extra_answers), never dropped."""
    asking: dict[str, list[str]] = {}
    for regime_id in regime_ids:
        for key, spec in lawcode.get_regime(regime_id).vocabulary.facts.for_entity(entity).items():
            if key not in asking:
                form.fields[extra_field(key)] = declared_field(spec)
            asking.setdefault(key, []).append(regime_id)
    if len(regime_ids) < 2:
        return
    for key, owners in asking.items():
        field = form.fields[extra_field(key)]
        field.widget.attrs["data-regimes"] = " ".join(owners)
        names = "; ".join(regime_summary(owner)[0] for owner in owners)
        field.help_text = " ".join(filter(None, [str(field.help_text or ""), f"Só para: {names}."]))


def extra_answers(
    form: forms.Form, offered: Mapping[str, FieldSpec], asked: Mapping[str, FieldSpec], regime_name: str
) -> dict[str, Any]:
    """The answers to the chosen regime's questions; an answer given to a question only another regime asks is
    refused on its field (the clerk must know it is not kept)."""
    for key, spec in offered.items():
        value = form.cleaned_data.get(extra_field(key))
        if key not in asked and value not in (None, ""):
            raise ValidationError(
                {
                    extra_field(
                        key
                    ): f"{spec.label}: a lei de «{regime_name}» não faz esta pergunta; deixe em branco."
                }
            )
    return extra_values(form, asked)


def _initial(spec: FieldSpec, value: Any) -> Any:
    if spec.type == "bool":
        return "true" if value else "false"
    if spec.type == "decimal":
        return str(value).replace(".", ",")
    return value


def extra_values(form: forms.Form, specs: Mapping[str, FieldSpec]) -> dict[str, Any]:
    """The answers to the extra questions, keyed as the regime names them (unanswered ones left out)."""
    values = {key: form.cleaned_data.get(extra_field(key)) for key in specs}
    return {key: value for key, value in values.items() if value not in (None, "")}


class OperatorFilterForm(forms.Form):
    q = forms.CharField(label="Buscar (nome, CPF, CNPJ ou placa)", required=False, max_length=100)
    regime_id = forms.ChoiceField(label="Regime", required=False)
    kind = forms.ChoiceField(label="Tipo", required=False, choices=[("", "Todos"), *OperatorKind.choices])
    status = forms.ChoiceField(label="Situação", required=False)

    def __init__(
        self, *args: Any, regimes: list[str], statuses: list[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["regime_id"].choices = regime_filter_options(regimes)  # type: ignore[attr-defined]
        self.fields["status"].choices = [("", "Todas"), *statuses]  # type: ignore[attr-defined]


class TrafficInfractionForm(forms.Form):
    """One CTB infraction on the driving record, as the applicant or the clerk declares it."""

    date = forms.DateField(label="Data da infração", widget=DATE)
    severity = forms.ChoiceField(label="Natureza (CTB art. 258)", choices=InfractionSeverity.choices)
    description = forms.CharField(
        label="Descrição (enquadramento no CTB)",
        max_length=200,
        required=False,
        help_text="Ex.: art. 165 do CTB — dirigir sob influência de álcool.",
    )


class DocumentChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.get_kind_display()} — emitido em {obj.issue_date:%d/%m/%Y}"


class TrafficRecordConfirmForm(forms.Form):
    """The analyst names the person's document the record was read from (e.g. certidão de prontuário)."""

    document = DocumentChoiceField(
        label="Documento conferido",
        queryset=Document.objects.none(),
        help_text="As infrações declaradas até a data de emissão deste documento ficam confirmadas.",
    )

    def __init__(self, *args: Any, documents: models.QuerySet[Document], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["document"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = documents


YES_NO_ALL = [("", "Todos"), ("sim", "Sim"), ("nao", "Não")]


class RegistryListForm(forms.Form):
    """Search, filters and order of a registry list.

    ``ORDERS`` maps each choice of "Ordenar por" to its label and ORM ordering; the first is the default.
    Subclasses add their filter fields; ``regime`` (when present) lists the municipality's regimes.
    """

    ORDERS: dict[str, tuple[str, tuple[str, ...]]] = {}
    q = forms.CharField(label="Buscar", required=False, max_length=100)
    ordem = forms.ChoiceField(label="Ordenar por", required=False)

    def __init__(self, *args: Any, regimes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "regime" in self.fields:
            self.fields["regime"].choices = regime_filter_options(regimes)  # type: ignore[attr-defined]
        self.fields["ordem"].choices = [(key, label) for key, (label, _) in self.ORDERS.items()]  # type: ignore[attr-defined]

    def ordering(self) -> tuple[str, ...]:
        chosen = self.cleaned_data.get("ordem") if self.is_bound and self.is_valid() else ""
        return self.ORDERS[chosen or next(iter(self.ORDERS))][1]

    def filters(self) -> dict[str, Any]:
        """The non-empty filter values (search and order excluded); empty when the form is not valid."""
        if not (self.is_bound and self.is_valid()):
            return {}
        skip = ("q", "ordem")
        return {key: value for key, value in self.cleaned_data.items() if key not in skip and value}


class VehicleFilterForm(RegistryListForm):
    ORDERS = {
        "placa": ("Placa", ("plate", "pk")),
        "ano": ("Ano de fabricação (mais antigos primeiro)", ("manufacture_year", "plate", "pk")),
        "recentes": ("Cadastrados por último", ("-created_at", "-pk")),
    }
    regime = forms.ChoiceField(label="Regime", required=False)
    category = forms.ChoiceField(
        label="Categoria", required=False, choices=[("", "Todas"), *VehicleCategory.choices]
    )
    made_until = forms.IntegerField(
        label="Fabricados até o ano", required=False, min_value=1900, max_value=2100
    )
    field_order = ["q", "regime", "category", "made_until", "ordem"]


class DriverFilterForm(RegistryListForm):
    ORDERS = {
        "nome": ("Nome", ("person__name", "pk")),
        "cnh": ("Validade da CNH (mais próxima primeiro)", ("cnh_expiry", "person__name", "pk")),
        "recentes": ("Cadastrados por último", ("-created_at", "-pk")),
    }
    regime = forms.ChoiceField(label="Regime", required=False)
    role = forms.ChoiceField(label="Função", required=False, choices=[("", "Todas"), *DriverRole.choices])
    active = forms.ChoiceField(label="Ativo", required=False, choices=YES_NO_ALL)
    cnh_until = forms.DateField(label="CNH vence até", required=False, widget=DATE)
    field_order = ["q", "regime", "role", "active", "cnh_until", "ordem"]


class DocumentFilterForm(RegistryListForm):
    ORDERS = {
        "validade": ("Válido até (mais próximo primeiro)", ("valid_until", "pk")),
        "emissao": ("Data de emissão (mais recentes primeiro)", ("-issue_date", "-pk")),
        "recentes": ("Enviados por último", ("-uploaded_at", "-pk")),
    }
    kind = forms.ChoiceField(label="Tipo de documento", required=False)
    status = forms.ChoiceField(
        label="Situação", required=False, choices=[("", "Todas"), *DocumentStatus.choices]
    )
    valid_until = forms.DateField(label="Válido até (no máximo)", required=False, widget=DATE)
    field_order = ["q", "kind", "status", "valid_until", "ordem"]

    def __init__(self, *args: Any, kinds: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [("", "Todos"), *kinds]  # type: ignore[attr-defined]
