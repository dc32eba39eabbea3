"""Forms of the enforcement screens. They shape input only; every rule is in the services (and the law)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.utils import timezone

from apps.enforcement.choices import NoticeChannel, NoticePurpose, ReturnedReason
from apps.enforcement.services import NO_INFRACTION_PT, AutoDetails, EvidenceUpload
from apps.registry.identifiers import validate_plate
from apps.registry.models import Driver
from apps.tenancy.regimes import regime_options

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
MAX_PHOTOS = 10
# Free texts of an auto: long enough for any account of the facts, short enough that a pasted 100 KB blob
# (or a script's) is refused instead of stored and printed on every notice.
TEXT_MAX_LENGTH = 4000


def _too_long(label: str) -> dict[str, str]:
    return {"max_length": f"{label}: no máximo %(limit_value)d caracteres (o texto tem %(show_value)d)."}


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several photos at once; each is checked by content in the service (type and 10 MB)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "widget",
            MultipleFileInput(
                attrs={"accept": "image/jpeg,image/png,application/pdf", "capture": "environment"}
            ),
        )
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        files = data if isinstance(data, list | tuple) else ([data] if data else [])
        if len(files) > MAX_PHOTOS:
            raise ValidationError(f"Provas: envie no máximo {MAX_PHOTOS} arquivos por vez.")
        return list(files)


class AutoForm(forms.Form):
    """The agent's phone form: one column, big fields, plate and infraction looked up as the agent types."""

    regime_id = forms.ChoiceField(label="Regime", required=False)
    plate = forms.CharField(
        label="Placa",
        max_length=10,
        widget=forms.TextInput(
            attrs={"autocapitalize": "characters", "autocomplete": "off", "inputmode": "text"}
        ),
    )
    infraction_code = forms.CharField(label="Infração (escolha no catálogo)", max_length=32, required=False)
    occurred_at = forms.DateTimeField(
        label="Data e hora da infração",
        input_formats=["%Y-%m-%dT%H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        error_messages={
            "required": "Data e hora da infração: informe quando ocorreu.",
            "invalid": "Data e hora da infração: use dia, mês, ano, hora e minuto.",
        },
    )
    place = forms.CharField(label="Local", max_length=300, required=False)
    description = forms.CharField(
        label="Descrição da infração",
        required=False,
        max_length=TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages=_too_long("Descrição da infração"),
    )
    circumstances = forms.CharField(
        label="Circunstâncias",
        required=False,
        max_length=TEXT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages=_too_long("Circunstâncias"),
    )
    driver = forms.TypedChoiceField(label="Condutor cadastrado", required=False, coerce=int, empty_value=None)
    driver_name = forms.CharField(label="Condutor (se não cadastrado)", max_length=200, required=False)
    offender_name = forms.CharField(label="Autuado (se sem autorização)", max_length=200, required=False)
    offender_address = forms.CharField(
        label="Endereço do autuado (se sem autorização)", max_length=300, required=False
    )
    agent_registration = forms.CharField(label="Sua matrícula", max_length=40, required=False)
    already_punished_as_traffic_only = forms.BooleanField(
        label="O fato já foi punido só como infração de trânsito", required=False
    )
    traffic_only_reference = forms.CharField(
        label="Auto de trânsito (número)", max_length=200, required=False
    )
    photos = MultipleFileField(
        label="Fotos e outras provas (JPEG, PNG ou PDF, até 10 MB cada)", required=False
    )
    photo_caption = forms.CharField(label="Legenda das fotos", max_length=300, required=False)

    def __init__(self, *args: Any, regimes: list[str], drivers: list[Driver], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["regime_id"].choices = regime_options(regimes)  # type: ignore[attr-defined]
        if len(regimes) <= 1:
            self.fields["regime_id"].widget = forms.HiddenInput()
        self.drivers = {d.pk: d for d in drivers}
        self.fields["driver"].choices = [("", "—"), *((d.pk, str(d.person)) for d in drivers)]  # type: ignore[attr-defined]

    def clean_plate(self) -> str:
        """Checked here too, so the agent sees every problem of the form at once (the service checks again)."""
        return validate_plate(self.cleaned_data["plate"])

    def clean_infraction_code(self) -> str:
        code: str = self.cleaned_data["infraction_code"].strip()
        if not code:
            raise ValidationError(NO_INFRACTION_PT)
        return code

    def clean_occurred_at(self) -> dt.datetime:
        value: dt.datetime = self.cleaned_data["occurred_at"]
        return timezone.make_aware(value) if timezone.is_naive(value) else value

    def details(self) -> AutoDetails:
        data = self.cleaned_data
        return AutoDetails(
            infraction_code=data["infraction_code"],
            plate=data["plate"],
            occurred_at=data["occurred_at"],
            place=data["place"],
            description=data["description"],
            circumstances=data["circumstances"],
            driver=self.drivers.get(data["driver"]) if data.get("driver") else None,
            driver_name=data["driver_name"],
            offender_name=data["offender_name"],
            offender_address=data["offender_address"],
            agent_registration=data["agent_registration"],
            already_punished_as_traffic_only=data["already_punished_as_traffic_only"],
            traffic_only_reference=data["traffic_only_reference"],
        )

    def evidence(self) -> list[EvidenceUpload]:
        caption = self.cleaned_data.get("photo_caption", "")
        return [EvidenceUpload(f, caption) for f in self.cleaned_data.get("photos", [])]


class NoticeForm(forms.Form):
    purpose = forms.ChoiceField(label="Finalidade", choices=NoticePurpose.choices)
    channel = forms.ChoiceField(
        label="Meio", choices=[c for c in NoticeChannel.choices if c[0] != NoticeChannel.EDITAL]
    )
    sent_on = forms.DateField(label="Expedida em", widget=DATE)
    signature_name = forms.CharField(label="Assinado por (pessoalmente)", max_length=200, required=False)
    refused = forms.BooleanField(label="Recusou-se a assinar", required=False)
    recipient_address = forms.CharField(
        label="Endereço (se diferente do cadastro)", max_length=300, required=False
    )
    note = forms.CharField(label="Texto adicional", required=False, widget=forms.Textarea(attrs={"rows": 2}))


class ReceiptForm(forms.Form):
    received_on = forms.DateField(label="Data do recebimento ou da devolução", widget=DATE)
    returned_reason = forms.ChoiceField(label="Devolvida?", choices=ReturnedReason.choices, required=False)


class TrafficOnlyForm(forms.Form):
    reference = forms.CharField(label="Auto de trânsito que já puniu o fato", max_length=200)


class EvidenceForm(forms.Form):
    file = forms.FileField(label="Arquivo (JPEG, PNG ou PDF, até 10 MB)")
    caption = forms.CharField(label="Legenda", max_length=300, required=False)


class EditalForm(forms.Form):
    purpose = forms.ChoiceField(label="Finalidade", choices=NoticePurpose.choices)
    cases = forms.MultipleChoiceField(label="Autuados não localizados", widget=forms.CheckboxSelectMultiple)
    published_on = forms.DateField(label="Publicado em", widget=DATE)
    publication_ref = forms.CharField(
        label="Veículo de publicação (ex.: DOM, edição, página)", max_length=300
    )

    def __init__(self, *args: Any, candidates: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.candidates = {str(c.pk): c for c in candidates}
        labels = [(str(c.pk), f"{c.number} — placa {c.plate} — {c.infraction_title}") for c in candidates]
        self.fields["cases"].choices = labels  # type: ignore[attr-defined]

    def chosen(self) -> list[Any]:
        return [self.candidates[pk] for pk in self.cleaned_data["cases"]]
