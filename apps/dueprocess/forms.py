"""Forms of the due-process screens; the services do the checking, these only parse the input."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile

from apps.dueprocess.choices import Instance, Verdict
from lawcode.labels import Body

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


MAX_ATTACHMENTS = 10
MAX_VOTES = 9  # rows offered when the law is silent on the collegiate body's size


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class AttachmentsField(forms.FileField):
    """Several documents at once; each is checked by content in the service (JPEG/PNG/PDF, 10 MB)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "widget", MultipleFileInput(attrs={"accept": "image/jpeg,image/png,application/pdf"})
        )
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        files = data if isinstance(data, list | tuple) else ([data] if data else [])
        if len(files) > MAX_ATTACHMENTS:
            raise ValidationError(f"Anexos: envie no máximo {MAX_ATTACHMENTS} arquivos.")
        return list(files)


class AppealForm(forms.Form):
    instance = forms.ChoiceField(label="Instância", choices=Instance.choices)
    filed_on = forms.DateField(label="Data do protocolo", widget=DATE)
    appellant_name = forms.CharField(
        label="Recorrente (se diferente do autuado)", max_length=200, required=False
    )
    text = forms.CharField(label="Razões", widget=forms.Textarea(attrs={"rows": 6}))
    attachments = AttachmentsField(label="Anexos (JPEG, PNG ou PDF, até 10 MB cada)", required=False)

    def __init__(self, *args: object, instances: list[tuple[str, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["instance"].choices = instances  # type: ignore[attr-defined]


class JudgmentForm(forms.Form):
    # Radio buttons with nothing checked: a verdict is always a deliberate choice, never a default.
    verdict = forms.ChoiceField(
        label="Decisão",
        choices=Verdict.choices,
        widget=forms.RadioSelect,
        error_messages={"required": "Decisão: escolha uma das decisões."},
    )
    decided_on = forms.DateField(label="Data do julgamento", widget=DATE)
    reasoning = forms.CharField(label="Fundamentação", widget=forms.Textarea(attrs={"rows": 8}))

    def __init__(
        self,
        *args: Any,
        choices: Sequence[Any] = (),
        verdicts: Sequence[tuple[str, str]] | None = None,
        body: Body | None = None,
        vote_labels: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        """``choices``: the quantities the law lets the authority fix (services.Choice); one field each, checked
        against the legal range by the service (which names the field and the article). ``verdicts``: the
        verdicts open to this appeal (verdicts.verdicts_for)."""
        super().__init__(*args, **kwargs)
        if verdicts is not None:
            self.fields["verdict"].choices = list(verdicts)  # type: ignore[attr-defined]
        self.choices = list(choices)
        for choice in self.choices:
            self.fields[choice.field] = forms.CharField(
                label=f"{choice.describe()} ({choice.article}) — se condenar",
                required=False,
                widget=forms.TextInput(attrs={"inputmode": "numeric" if choice.whole else "decimal"}),
            )
        self.vote_rows = (
            self._vote_fields(body, vote_labels or {}) if body is not None and body.collegiate else 0
        )

    def _vote_fields(self, body: Body, labels: dict[str, str]) -> int:
        """One row per seat of the collegiate body (member, origin, vote; a blank row is a member absent)."""
        rows = body.seats or MAX_VOTES
        origins = [("", "Escolha"), *((m.origin, m.origin) for m in body.members)]
        for index in range(1, rows + 1):
            self.fields[f"vote_{index}_member"] = forms.CharField(
                label=f"Membro {index}: nome", max_length=200, required=False
            )
            if body.members:
                self.fields[f"vote_{index}_origin"] = forms.ChoiceField(
                    label=f"Membro {index}: representa", choices=origins, required=False
                )
            else:
                self.fields[f"vote_{index}_origin"] = forms.CharField(
                    label=f"Membro {index}: representa", max_length=120, required=False
                )
            self.fields[f"vote_{index}_vote"] = forms.ChoiceField(
                label=f"Membro {index}: voto", choices=[("", "Escolha"), *labels.items()], required=False
            )
            if body.decision == "rapporteur":
                self.fields[f"vote_{index}_rapporteur"] = forms.BooleanField(
                    label=f"Membro {index}: é o relator", required=False
                )
        return rows

    def votes(self) -> list[dict[str, Any]]:
        """The members present and their votes, for services.appeal_judge (which checks them)."""
        out = []
        for index in range(1, self.vote_rows + 1):
            member = (self.cleaned_data.get(f"vote_{index}_member") or "").strip()
            if member:
                out.append(
                    {
                        "member": member,
                        "origin": self.cleaned_data.get(f"vote_{index}_origin") or "",
                        "vote": self.cleaned_data.get(f"vote_{index}_vote") or "",
                        "rapporteur": bool(self.cleaned_data.get(f"vote_{index}_rapporteur")),
                    }
                )
        return out

    def chosen(self) -> dict[str, str]:
        return {choice.key: self.cleaned_data.get(choice.field) or "" for choice in self.choices}


class RegularizationForm(forms.Form):
    regularized_on = forms.DateField(label="Data da regularização", widget=DATE)
    description = forms.CharField(label="O que foi regularizado", widget=forms.Textarea(attrs={"rows": 3}))
    evidence = forms.FileField(
        label="Comprovante (PDF, JPEG ou PNG, até 10 MB)",
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,application/pdf"}),
    )


class SeizureReleaseForm(forms.Form):
    released_on = forms.DateField(label="Liberado em", widget=DATE)
    note = forms.CharField(label="Condições cumpridas", required=False)
