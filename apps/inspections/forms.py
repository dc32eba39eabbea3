"""Forms of the inspection screens. The result form is built from the regime's checklist: one required
conforme / não conforme choice per item (labelled with its articles) and a note, required when the item fails."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.db.models import QuerySet

from apps.accounts.models import User
from apps.inspections.choices import InspectionKind
from apps.inspections.services import ItemResult
from apps.licensing.models import Application

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
OK, NOT_OK = "ok", "fail"
ITEM_CHOICES = [(OK, "Conforme"), (NOT_OK, "Não conforme")]


class ScheduleForm(forms.Form):
    scheduled_for = forms.DateField(label="Data da vistoria", widget=DATE)
    kind = forms.ChoiceField(
        label="Tipo de vistoria",
        required=False,
        choices=[(k, label) for k, label in InspectionKind.choices if k != InspectionKind.REINSPECTION],
    )
    application = forms.ModelChoiceField(
        label="Requerimento aguardando vistoria",
        required=False,
        queryset=Application.objects.none(),
        empty_label="Nenhum (vistoria avulsa)",
    )
    inspector = forms.ModelChoiceField(
        label="Vistoriador", required=False, queryset=User.objects.none(), empty_label="A definir"
    )

    def __init__(
        self, *args: Any, applications: QuerySet[Application], inspectors: QuerySet[User], **kwargs: Any
    ):
        super().__init__(*args, **kwargs)
        self.fields["application"].queryset = applications  # type: ignore[attr-defined]
        self.fields["inspector"].queryset = inspectors  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("application") and not data.get("kind"):
            self.add_error("kind", "Tipo de vistoria: escolha um, ou indique o requerimento.")
        return data


class RescheduleForm(forms.Form):
    scheduled_for = forms.DateField(label="Nova data", widget=DATE)


class ResultForm(forms.Form):
    """performed_on, notes, and per item ``item_<code>`` (required choice) and ``note_<code>``."""

    performed_on = forms.DateField(label="Data da vistoria", widget=DATE)
    notes = forms.CharField(
        label="Observações gerais", required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args: Any, items: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.checklist_items = items
        for item in items:
            self.fields[f"item_{item['code']}"] = forms.ChoiceField(
                label=item["label"],
                choices=ITEM_CHOICES,
                widget=forms.RadioSelect,
                error_messages={"required": f"«{item['label']}»: marque conforme ou não conforme."},
            )
            self.fields[f"note_{item['code']}"] = forms.CharField(
                label="Observação (obrigatória se não conforme)", required=False, max_length=500
            )

    def clean(self) -> dict[str, Any]:
        """A non-conforming item needs its note: it is what the operator must fix and what a defence contests."""
        data = super().clean() or {}
        for item in self.checklist_items:
            code = item["code"]
            if data.get(f"item_{code}") == NOT_OK and not str(data.get(f"note_{code}", "")).strip():
                self.add_error(f"note_{code}", f"«{item['label']}»: descreva o que não está conforme.")
        return data

    def item_results(self) -> dict[str, ItemResult]:
        data = self.cleaned_data
        return {
            item["code"]: ItemResult(
                ok=data[f"item_{item['code']}"] == OK, note=data.get(f"note_{item['code']}", "")
            )
            for item in self.checklist_items
        }

    def rows(self) -> list[dict[str, Any]]:
        """One entry per checklist item with its bound fields, for the template."""
        return [
            {
                **item,
                "choice": self[f"item_{item['code']}"],
                "note": self[f"note_{item['code']}"],
                "value": self[f"item_{item['code']}"].value(),
            }
            for item in self.checklist_items
        ]


class CalendarForm(forms.Form):
    year = forms.IntegerField(label="Ano", min_value=2000, max_value=2100)
    month = forms.IntegerField(label="Mês", min_value=1, max_value=12)

    @classmethod
    def for_query(cls, query: Any, today: dt.date) -> CalendarForm:
        data = {"year": query.get("ano") or today.year, "month": query.get("mes") or today.month}
        return cls(data)
