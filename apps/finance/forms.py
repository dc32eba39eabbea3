from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

import lawcode
from apps.finance.choices import FeeKind, GuideStatus, PaymentMethod
from apps.finance.models import REAIS, PaymentGuideQuerySet
from apps.tenancy.regimes import regime_options

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def money_field(label: str) -> forms.DecimalField:
    """Reais with centavos, typed the Brazilian way ("150,00")."""
    return forms.DecimalField(label=label, max_digits=12, decimal_places=2, min_value=0, localize=True)


class GuideFilterForm(forms.Form):
    STATUS_CHOICES = [("", "Todas"), *GuideStatus.choices, ("overdue", "Vencidas (em aberto)")]

    q = forms.CharField(label="Número, contribuinte ou CPF/CNPJ", required=False, max_length=100)
    status = forms.ChoiceField(label="Situação", required=False, choices=STATUS_CHOICES)
    fee_kind = forms.ChoiceField(label="Taxa", required=False, choices=[("", "Todas"), *FeeKind.choices])
    issued_from = forms.DateField(label="Emitidas de", required=False, widget=DATE)
    issued_to = forms.DateField(label="até", required=False, widget=DATE)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("issued_from") and data.get("issued_to") and data["issued_from"] > data["issued_to"]:
            raise ValidationError("Período de emissão: a data inicial deve ser anterior ou igual à final.")
        return data

    def apply(self, guides: PaymentGuideQuerySet, today: Any) -> PaymentGuideQuerySet:
        data = self.cleaned_data
        if data.get("q"):
            guides = guides.filter(_search(data["q"]))
        if data.get("status") == "overdue":
            guides = guides.filter(status=GuideStatus.OPEN, due_on__lt=today)
        elif data.get("status"):
            guides = guides.filter(status=data["status"])
        if data.get("fee_kind"):
            guides = guides.filter(fee_kind=data["fee_kind"])
        if data.get("issued_from"):
            guides = guides.filter(issued_on__gte=data["issued_from"])
        if data.get("issued_to"):
            guides = guides.filter(issued_on__lte=data["issued_to"])
        return guides


def _search(text: str) -> Any:
    from django.db.models import Q

    query = Q(number__icontains=text.strip()) | Q(payer_name__icontains=text.strip())
    document = re.sub(r"[\s.\-/]", "", text).upper()
    if len(document) >= 3 and document.isalnum():
        query |= Q(payer_document__startswith=document)
    return query


class PaymentForm(forms.Form):
    paid_on = forms.DateField(label="Data do pagamento", widget=DATE)
    amount_brl = money_field("Valor pago (R$)")
    method = forms.ChoiceField(label="Forma de pagamento", choices=PaymentMethod.choices)
    reference = forms.CharField(
        label="Comprovante / identificador (E2E do PIX, autenticação)", required=False, max_length=100
    )


class CancelForm(forms.Form):
    reason = forms.CharField(label="Motivo do cancelamento", max_length=255)


class RefundForm(forms.Form):
    amount_brl = money_field("Valor a restituir (R$)")
    due_on = forms.DateField(label="Restituir até", widget=DATE)
    reason = forms.CharField(label="Motivo (ex.: recurso deferido, processo nº …)", max_length=255)


class RefundPaidForm(forms.Form):
    paid_on = forms.DateField(label="Data da restituição", widget=DATE)
    reference = forms.CharField(label="Comprovante", required=False, max_length=100)


class FinanceSettingsForm(forms.Form):
    pix_key = forms.CharField(label="Chave PIX da prefeitura", max_length=77)
    receiver_name = forms.CharField(
        label="Nome do recebedor (até 25 caracteres, sem acentos no QR code)", max_length=60
    )
    receiver_city = forms.CharField(label="Cidade do recebedor (até 15 caracteres)", max_length=60)
    guide_due_days = forms.IntegerField(
        label="Vencimento da guia (dias corridos após a emissão)", min_value=1, max_value=90
    )


def unit_choices(regimes: list[str]) -> list[tuple[str, str]]:
    """Reais, then every unit the regimes declare (units.yaml), labelled as the law names them."""
    choices = {REAIS: "R$"}
    for regime_id in regimes:
        for key, unit in lawcode.get_regime(regime_id).vocabulary.units.items():
            choices.setdefault(key, f"{unit.label} — {unit.name}")
    return list(choices.items())


class FeeScheduleForm(forms.Form):
    """A fee the municipality configures (in reais or a unit its regimes declare, cited to the article)."""

    regime_id = forms.ChoiceField(label="Regime")
    fee_kind = forms.ChoiceField(label="Taxa", choices=FeeKind.choices)
    quantity = forms.DecimalField(
        label="Quantidade", max_digits=12, decimal_places=4, min_value=0, localize=True
    )
    unit = forms.ChoiceField(label="Unidade")
    cite = forms.CharField(label="Dispositivo que fixa a taxa (ex.: art8)", max_length=80)
    valid_from = forms.DateField(label="Vigente a partir de", widget=DATE)

    prefix = "fee"  # shares a page with the PIX settings form

    def __init__(self, *args: Any, regimes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["regime_id"].choices = regime_options(regimes)  # type: ignore[attr-defined]
        self.fields["unit"].choices = unit_choices(regimes)  # type: ignore[attr-defined]
