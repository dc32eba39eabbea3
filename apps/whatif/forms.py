"""The what-if form: the change (chosen among what the municipality's regimes declare) and the date."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

import lawcode
from apps.lawconfig.forms import DATE, DecimalCommaField
from apps.whatif.changes import ProposedChange, simulable_parameters
from apps.whatif.choices import ChangeKind

SEPARATOR = "|"


def change_choices(regimes: list[str]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Grouped choices: per regime, its numeric parameters and every option of its interpretations."""
    groups = []
    for regime_id in regimes:
        regime = lawcode.get_regime(regime_id)
        options = [
            (SEPARATOR.join((ChangeKind.PARAMETER, regime_id, p.name, "")), f"Novo valor: {p.description}")
            for p in simulable_parameters(regime_id)
        ]
        for int_id, interpretation in sorted(regime.interpretations.items()):
            options += [
                (
                    SEPARATOR.join((ChangeKind.INTERPRETATION, regime_id, int_id, key)),
                    f"{interpretation.question} — {text}",
                )
                for key, text in interpretation.options.items()
            ]
        groups.append((f"{regime.main_act.title}", options))
    return groups


class WhatIfForm(forms.Form):
    change = forms.ChoiceField(label="Mudança a simular")
    value = DecimalCommaField(
        label="Novo valor",
        required=False,
        help_text="Para um parâmetro: o valor que passaria a valer (ex.: 10 para 10 anos).",
    )
    effective_from = forms.DateField(
        label="Vigente a partir de",
        required=False,
        widget=DATE,
        help_text="Para um parâmetro: em branco, vale na data da situação.",
    )
    as_of = forms.DateField(label="Situação dos registros em", widget=DATE)

    def __init__(self, *args: Any, regimes: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["change"].choices = change_choices(regimes)  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "change" not in data:
            return data
        kind, regime_id, name, option = str(data["change"]).split(SEPARATOR)
        start, as_of = data.get("effective_from"), data.get("as_of")
        if kind == ChangeKind.PARAMETER and data.get("value") is None:
            raise ValidationError({"value": "Informe o novo valor do parâmetro."})
        if start and as_of and start > as_of:
            raise ValidationError(
                {"effective_from": "A vigência deve começar até a data da situação, ou nada mudaria."}
            )
        data["regime_id"] = regime_id
        data["proposed"] = ProposedChange(
            kind=kind,
            name=name,
            value=data.get("value") if kind == ChangeKind.PARAMETER else None,
            effective_from=start if kind == ChangeKind.PARAMETER else None,
            option=option,
        )
        return data
