"""Registry forms. They only shape input; services validate and refuse (the view puts refusals on fields).

Forms are plain Forms built from the model's fields (labels, choices, max lengths), not ModelForms: a
ModelForm would run the model's unique checks with Django's generic wording before the service could refuse
with ours.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.forms.models import fields_for_model

from apps.registry.choices import OperatorKind
from apps.registry.models import DOCUMENT_KIND_CHOICES, Company, Document, Driver, Person, Vehicle
from apps.registry.services import COMPANY_FIELDS, DRIVER_FIELDS, PERSON_FIELDS, VEHICLE_FIELDS
from lawcode.facts import DOCUMENT_KINDS

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
OWNERSHIP_FIELDS = ("owner_name", "owner_document", "ownership_kind", "ownership_since", "ownership_registered",
                    "owner_signature_notarized")  # fmt: skip


def _model_fields(model: type[models.Model], names: tuple[str, ...]) -> dict[str, forms.Field]:
    fields = fields_for_model(model, fields=list(names))
    for field in fields.values():
        if isinstance(field, forms.DateField):
            field.widget = DATE
    return dict(fields)


def service_values(form: forms.Form, names: tuple[str, ...]) -> dict[str, Any]:
    """The cleaned values a service takes as keyword arguments."""
    return {name: form.cleaned_data[name] for name in names if name in form.cleaned_data}


def attach_refusal(form: forms.Form, refusal: ValidationError) -> None:
    """Put a service refusal on the field it names (or on the form when the form has no such field)."""
    errors: dict[str, list[str]] = (
        refusal.message_dict if hasattr(refusal, "error_dict") else {"": refusal.messages}
    )
    for field, messages in errors.items():
        target = field if field in form.fields else None
        for message in messages:
            form.add_error(target, message)


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
        self.fields["regime_id"].choices = [(r, r) for r in regimes]  # type: ignore[attr-defined]


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


# Certificates (certidões, atestados): the clerk reads whether they are negative.
CERTIFICATE_KINDS = frozenset(
    kind for kind in DOCUMENT_KINDS if kind.endswith(("_certificate", "_clearance"))
)
YES_NO_UNKNOWN = [("", "Não informado"), ("true", "Sim"), ("false", "Não")]


class DocumentForm(forms.Form):
    owner = forms.ChoiceField(label="Documento de")
    kind = forms.ChoiceField(label="Tipo de documento", choices=DOCUMENT_KIND_CHOICES)
    file = forms.FileField(label="Arquivo (PDF, JPEG ou PNG, até 10 MB)")
    issue_date = forms.DateField(label="Data de emissão", widget=DATE)
    expiry_date = forms.DateField(label="Validade impressa (se houver)", required=False, widget=DATE)
    court = forms.ChoiceField(label="Órgão emissor da certidão", required=False,
                              choices=[("", "Não se aplica"), ("federal", "Justiça Federal"),
                                       ("state", "Justiça Estadual")])  # fmt: skip
    third_party_bodily_coverage = forms.TypedChoiceField(
        label="Seguro cobre danos corporais a terceiros?", required=False, choices=YES_NO_UNKNOWN,
        coerce=lambda v: v == "true", empty_value=None,
    )  # fmt: skip
    mentions_school_transport = forms.TypedChoiceField(
        label="Documento menciona transporte escolar?", required=False, choices=YES_NO_UNKNOWN,
        coerce=lambda v: v == "true", empty_value=None,
    )  # fmt: skip

    valid = forms.TypedChoiceField(
        label="O conteúdo atende ao exigido (ex.: certidão negativa)?", required=False, choices=YES_NO_UNKNOWN,
        coerce=lambda v: v == "true", empty_value=None,
    )  # fmt: skip
    negative = forms.TypedChoiceField(
        label="Certidão negativa?", required=False, choices=YES_NO_UNKNOWN, coerce=lambda v: v == "true",
        empty_value=None, help_text="Só para certidões e atestados: «Não» quando a certidão aponta registros.",
    )  # fmt: skip

    def __init__(
        self, *args: Any, owners: list[tuple[str, str]], kinds: list[Any] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["owner"].choices = owners  # type: ignore[attr-defined]
        if kinds is not None:
            self.fields["kind"].choices = kinds  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        negative = data.get("negative")
        if negative is not None and data.get("kind") and data["kind"] not in CERTIFICATE_KINDS:
            self.add_error("negative", "Certidão negativa?: só se aplica a certidões e atestados.")
        elif negative is not None and data.get("valid") not in (None, negative):
            self.add_error(
                "negative", "Certidão negativa?: a resposta contradiz «o conteúdo atende ao exigido»."
            )
        return data

    def details(self) -> dict[str, Any]:
        """Kind-specific facts, named as lawcode names them; unanswered ones are left out. A negative
        certificate is one whose content meets the law (lawfacts.document_fact reads it as Document.valid)."""
        keys = ("court", "third_party_bodily_coverage", "mentions_school_transport", "valid")
        details = {
            key: self.cleaned_data[key] for key in keys if self.cleaned_data.get(key) not in (None, "")
        }
        if self.cleaned_data.get("negative") is not None:
            details["valid"] = self.cleaned_data["negative"]
        return details


class OperatorFilterForm(forms.Form):
    q = forms.CharField(label="Buscar (nome, CPF, CNPJ ou placa)", required=False, max_length=100)
    regime_id = forms.ChoiceField(label="Regime", required=False)
    kind = forms.ChoiceField(label="Tipo", required=False, choices=[("", "Todos"), *OperatorKind.choices])
    status = forms.ChoiceField(label="Situação", required=False)

    def __init__(
        self, *args: Any, regimes: list[str], statuses: list[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["regime_id"].choices = [("", "Todos"), *((r, r) for r in regimes)]  # type: ignore[attr-defined]
        self.fields["status"].choices = [("", "Todas"), *statuses]  # type: ignore[attr-defined]
