from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from apps.registry.identifiers import validate_cnpj


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
