from __future__ import annotations

from typing import Any

from django import forms

from apps.signing.kinds import registered_kinds
from apps.signing.models import SignatureLevel


class SigningPolicyForm(forms.Form):
    """One choice of level per kind of act the system issues (a field named after the kind)."""

    def __init__(self, *args: Any, current: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in registered_kinds():
            self.fields[kind.slug] = forms.ChoiceField(
                label=kind.label,
                choices=SignatureLevel.choices,
                initial=current.get(kind.slug, SignatureLevel.QUALIFIED),
            )
