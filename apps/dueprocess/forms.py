"""Forms of the due-process screens; the services do the checking, these only parse the input."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from apps.dueprocess.choices import Instance, Verdict

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def add_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Show a service refusal on the field it names (or on the whole form when the form has no such field)."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for field, messages in error.message_dict.items():
        form.add_error(field if field in form.fields else None, messages)


class AppealForm(forms.Form):
    instance = forms.ChoiceField(label="Instância", choices=Instance.choices)
    filed_on = forms.DateField(label="Data do protocolo", widget=DATE)
    appellant_name = forms.CharField(
        label="Recorrente (se diferente do autuado)", max_length=200, required=False
    )
    text = forms.CharField(label="Razões", widget=forms.Textarea(attrs={"rows": 6}))

    def __init__(self, *args: object, instances: list[tuple[str, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["instance"].choices = instances  # type: ignore[attr-defined]


class JudgmentForm(forms.Form):
    verdict = forms.ChoiceField(label="Decisão", choices=Verdict.choices)
    decided_on = forms.DateField(label="Data do julgamento", widget=DATE)
    reasoning = forms.CharField(label="Fundamentação", widget=forms.Textarea(attrs={"rows": 8}))
