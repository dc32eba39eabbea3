"""Forms of the PSP screens: the charge's terms (tax code), a decision of the review queue, a CNAB upload."""

from __future__ import annotations

from django import forms

from apps.finance.forms import money_field


class ChargeTermsForm(forms.Form):
    fine_percent = forms.DecimalField(
        label="Multa após o vencimento (%)", max_digits=5, decimal_places=2, min_value=0, localize=True
    )
    interest_percent_month = forms.DecimalField(
        label="Juros de mora (% ao mês, dias corridos)",
        max_digits=5,
        decimal_places=2,
        min_value=0,
        localize=True,
    )
    discount_percent = forms.DecimalField(
        label="Desconto por pagamento antecipado (%)",
        max_digits=5,
        decimal_places=2,
        min_value=0,
        localize=True,
    )
    discount_days_before_due = forms.IntegerField(
        label="Desconto válido até quantos dias antes do vencimento", min_value=0, max_value=60
    )
    days_payable_after_due = forms.IntegerField(
        label="Dias em que a cobrança pode ser paga após o vencimento", min_value=0, max_value=365
    )
    cite = forms.CharField(
        label="Dispositivo do código tributário que fixa os encargos",
        max_length=200,
        help_text="Ex.: Lei Complementar nº 100/2010 (Código Tributário Municipal), art. 210",
    )


class ReviewDecisionForm(forms.Form):
    DECISIONS = [
        ("settle", "Baixar na guia"),
        ("refund", "Devolver ao pagador"),
        ("archive", "Arquivar com justificativa"),
    ]
    decision = forms.ChoiceField(label="Decisão", choices=DECISIONS)
    guide_number = forms.CharField(
        label="Número da guia (para baixar em outra guia)", required=False, max_length=16
    )
    note = forms.CharField(label="Justificativa", max_length=300, required=False)


class CnabUploadForm(forms.Form):
    file = forms.FileField(label="Arquivo de retorno CNAB 240 (segmentos T e U)")


class CnabApplyForm(forms.Form):
    content = forms.CharField(widget=forms.HiddenInput, strip=False)


__all__ = ["ChargeTermsForm", "CnabApplyForm", "CnabUploadForm", "ReviewDecisionForm", "money_field"]
