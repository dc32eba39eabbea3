"""The report's filters: the last month shown, how many months, and the regime (all by default)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms

from apps.tenancy.regimes import regime_summary

PERIODS = [("24", "24 meses"), ("12", "12 meses"), ("6", "6 meses"), ("3", "3 meses")]
WINDOWS = [("15", "15 dias"), ("7", "7 dias"), ("30", "30 dias"), ("60", "60 dias")]
DEFAULT_WINDOW = 15


class ReportFilterForm(forms.Form):
    ate = forms.CharField(
        label="Até o mês",
        required=False,
        widget=forms.TextInput(attrs={"type": "month"}),
        help_text="Mês e ano (aaaa-mm); em branco, o mês atual.",
    )
    meses = forms.ChoiceField(label="Período", choices=PERIODS, required=False)
    regime = forms.ChoiceField(label="Regime", required=False)
    prazos = forms.ChoiceField(
        label="Prazos em risco",
        choices=WINDOWS,
        required=False,
        help_text="Prazos legais em aberto que vencem neste intervalo (e os já vencidos).",
    )

    def __init__(self, *args: Any, regimes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "Todos"), *((r, regime_summary(r)[0]) for r in regimes)]
        self.fields["regime"].choices = choices  # type: ignore[attr-defined]

    def clean_ate(self) -> dt.date | None:
        text = (self.cleaned_data.get("ate") or "").strip()
        if not text:
            return None
        try:
            return dt.datetime.strptime(text, "%Y-%m").date()
        except ValueError:
            raise forms.ValidationError("Informe o mês como aaaa-mm, por exemplo 2026-03.") from None

    def choices(self, as_of: dt.date) -> tuple[dt.date, int, str]:
        """(last month, number of months, regime); the defaults when the form is empty or invalid."""
        if not (self.is_bound and self.is_valid()):
            return as_of.replace(day=1), 24, ""
        last = self.cleaned_data["ate"] or as_of.replace(day=1)
        return (
            min(last, as_of.replace(day=1)),
            int(self.cleaned_data["meses"] or 24),
            self.cleaned_data["regime"],
        )

    def window(self) -> int:
        """Days ahead for the deadlines at risk (the default when the form is empty or invalid)."""
        if not (self.is_bound and self.is_valid()):
            return DEFAULT_WINDOW
        return int(self.cleaned_data["prazos"] or DEFAULT_WINDOW)
