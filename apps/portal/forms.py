"""Portal forms. Choices always come from the user's PortalScope, so a form cannot even name another
operator's vehicle or permit; the services re-check everything anyway."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile

from apps.accounts.validators import validate_cpf
from apps.licensing import appfields
from apps.licensing.choices import ApplicationKind
from apps.licensing.models import Permit
from apps.portal.choices import PORTAL_APPLICATION_KINDS, PortalRole
from apps.portal.selectors import PortalScope
from apps.registry.choices import InfractionSeverity
from apps.registry.models import Attendant, Driver, Operator, Vehicle
from apps.tenancy.models import Municipality
from outorga.submit import attach_refusal

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class DocumentRenewForm(forms.Form):
    file = forms.FileField(label="Arquivo do documento renovado (PDF, JPEG ou PNG, até 10 MB)")
    issue_date = forms.DateField(label="Data de emissão", widget=DATE)
    expiry_date = forms.DateField(label="Validade impressa (se houver)", widget=DATE, required=False)


class SubmissionRejectForm(forms.Form):
    reason = forms.CharField(
        label="Motivo da recusa",
        max_length=500,
        help_text="O autorizatário lê este motivo no portal (ex.: cópia ilegível, documento de outro veículo).",
    )


class ApplicationStartForm(forms.Form):
    kind = forms.ChoiceField(
        label="O que você quer pedir?",
        choices=[(kind, ApplicationKind(kind).label) for kind in PORTAL_APPLICATION_KINDS],
    )
    permit = forms.ModelChoiceField(
        label="Autorização de referência",
        queryset=Permit.objects.none(),
        required=False,
        help_text="Renovação, substituição, veículo provisório e cancelamento.",
    )
    vehicle = forms.ModelChoiceField(label="Veículo", queryset=Vehicle.objects.none(), required=False)
    reason = forms.CharField(
        label="Motivo", max_length=500, required=False, widget=forms.Textarea({"rows": 3})
    )
    requested_until = forms.DateField(label="Prazo pedido até", widget=DATE, required=False)
    platform_notified_on = forms.DateField(
        label="Data da comunicação à plataforma", widget=DATE, required=False
    )
    enrolled_students = forms.IntegerField(label="Alunos matriculados", min_value=0, required=False)
    carries_children_under_4_or_pcd = forms.NullBooleanField(
        label="Transporta crianças menores de 4 anos ou pessoas com deficiência?",
        required=False,
        widget=forms.Select(choices=[("unknown", "Não se aplica"), ("true", "Sim"), ("false", "Não")]),
    )

    def __init__(self, *args: Any, scope: PortalScope, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["permit"].queryset = scope.permits_in_force()  # type: ignore[attr-defined]
        self.fields["permit"].label_from_instance = lambda p: f"{p.number} — {p.vehicle.plate_display}"  # type: ignore[attr-defined]
        self.fields["vehicle"].queryset = scope.vehicles()  # type: ignore[attr-defined]
        self.regime_id = scope.operator.regime_id
        appfields.limit_form(self, self.regime_id)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") and (refusal := appfields.refusal(self.regime_id, data["kind"], data)):
            attach_refusal(self, refusal)
        return data

    def targets(self) -> dict[str, Any]:
        """The keyword arguments licensing.application_create takes, without the empty ones."""
        names = (
            "permit",
            "vehicle",
            "reason",
            "requested_until",
            "platform_notified_on",
            "enrolled_students",
            "carries_children_under_4_or_pcd",
        )
        return {
            name: self.cleaned_data[name] for name in names if self.cleaned_data.get(name) not in (None, "")
        }


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Zero or more files in one input (Django's documented pattern for multiple uploads)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        files = data if isinstance(data, list | tuple) else [data] if data else []
        return [super(MultipleFileField, self).clean(item, initial) for item in files]


class AppealForm(forms.Form):
    text = forms.CharField(
        label="Razões da defesa ou do recurso", widget=forms.Textarea({"rows": 8}), max_length=20000
    )
    attachments = MultipleFileField(
        label="Anexos (PDF, JPEG ou PNG; até 5 arquivos de 10 MB)", required=False
    )


class PortalInvitationForm(forms.Form):
    """Staff form: invite the holder, a driver or an attendant of one operator to the portal by e-mail."""

    operator = forms.ModelChoiceField(label="Autorizatário", queryset=Operator.objects.none())
    role = forms.ChoiceField(label="Papel", choices=PortalRole.choices)
    driver = forms.ModelChoiceField(
        label="Condutor (se o papel for condutor)", queryset=Driver.objects.none(), required=False
    )
    attendant = forms.ModelChoiceField(
        label="Monitor (se o papel for monitor)", queryset=Attendant.objects.none(), required=False
    )
    email = forms.EmailField(label="E-mail (em branco: o do cadastro)", required=False)
    full_name = forms.CharField(label="Nome (em branco: o do cadastro)", max_length=200, required=False)

    def __init__(self, *args: Any, municipality: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._choose_from("operator", Operator.objects.filter(municipality=municipality).with_holder())
        self._choose_from("driver", Driver.objects.filter(municipality=municipality, active=True))
        self._choose_from("attendant", Attendant.objects.filter(municipality=municipality, active=True))

    def _choose_from(self, name: str, queryset: Any) -> None:
        field = self.fields[name]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = queryset


class PortalClaimForm(forms.Form):
    """Public form: someone already registered asks for their portal login by CPF."""

    municipality = forms.ModelChoiceField(
        label="Município onde você é cadastrado",
        queryset=Municipality.objects.all(),
        empty_label="Escolha o município",
    )
    cpf = forms.CharField(
        label="CPF", max_length=14, widget=forms.TextInput({"inputmode": "numeric", "autocomplete": "off"})
    )
    email = forms.EmailField(label="E-mail informado no seu cadastro na prefeitura")

    def clean_cpf(self) -> str:
        digits = "".join(ch for ch in self.cleaned_data["cpf"] if ch.isdigit())
        validate_cpf(digits)
        return digits


class DriverChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.person.name} — {obj.get_role_display()}"


class TrafficInfractionDeclareForm(forms.Form):
    """An infraction on the record of one of the account's drivers (the prefeitura confirms it later)."""

    driver = DriverChoiceField(label="Condutor", queryset=Driver.objects.none())
    date = forms.DateField(label="Data da infração", widget=DATE)
    severity = forms.ChoiceField(label="Natureza (CTB art. 258)", choices=InfractionSeverity.choices)
    description = forms.CharField(label="Descrição (enquadramento no CTB)", max_length=200, required=False)

    def __init__(self, *args: Any, drivers: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["driver"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = drivers
