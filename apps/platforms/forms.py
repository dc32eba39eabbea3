from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.safestring import mark_safe

from apps.platforms.models import Platform
from apps.platforms.services.roster import MAX_UPLOAD_BYTES, TOO_LARGE
from apps.registry.identifiers import validate_cnpj
from apps.tenancy.models import Municipality


class CredentialIssueForm(forms.Form):
    platform_name = forms.CharField(label="Nome da plataforma", max_length=120)
    cnpj = forms.CharField(label="CNPJ da plataforma", max_length=18)
    label = forms.CharField(label="Descrição (para reconhecer o token)", max_length=120, required=False)
    webhook_url = forms.URLField(label="URL do webhook (opcional)", required=False, assume_scheme="https")

    def clean_cnpj(self) -> str:
        try:
            return validate_cnpj(self.cleaned_data["cnpj"])
        except ValidationError as exc:
            raise ValidationError(exc.messages) from None


class RosterUploadForm(forms.Form):
    """A platform's roster file, sent by the secretariat on the platform's behalf."""

    platform: forms.ModelChoiceField[Platform] = forms.ModelChoiceField(
        label="Plataforma", queryset=Platform.objects.none(), empty_label="Escolha a plataforma"
    )
    file = forms.FileField(
        label="Arquivo CSV",
        # The column names are the file's format, shown as data (<code>), not words of the page.
        help_text=mark_safe(  # noqa: S308  (a constant, no user input)
            "Colunas, nesta ordem: <code data-ux-code>cpf</code>, <code data-ux-code>nome</code>, "
            "<code data-ux-code>placa</code>, <code data-ux-code>categoria_cnh</code> e, se houver, "
            "<code data-ux-code>validade_cnh</code>."
        ),
    )

    def __init__(self, *args: Any, municipality: Municipality, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["platform"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Platform.objects.filter(
            credentials__municipality=municipality, credentials__revoked_at__isnull=True
        ).distinct()

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise ValidationError(TOO_LARGE)
        return upload
