"""Forms of the set-up and team screens (messages in pt-BR; the services re-check every rule)."""

from __future__ import annotations

from typing import Any

from django import forms

from apps.tenancy.choices import UF, Role
from apps.tenancy.regimes import known_regime_ids, regime_summary
from apps.tenancy.validators import validate_ibge_code


def regime_choices() -> list[tuple[str, str]]:
    """Every regime lawcode knows, shown by its name and law (the id only travels as the option's value)."""
    choices = []
    for regime_id in known_regime_ids():
        name, law = regime_summary(regime_id)
        choices.append((regime_id, f"{name} ({law})"))
    return sorted(choices, key=lambda choice: choice[1])


class MunicipalityForm(forms.Form):
    ibge_code = forms.CharField(
        label="Código IBGE do município (7 dígitos)",
        min_length=7,
        max_length=7,
        validators=[validate_ibge_code],
        widget=forms.TextInput({"inputmode": "numeric"}),
    )
    name = forms.CharField(label="Nome do município", max_length=120)
    uf = forms.ChoiceField(label="UF", choices=[("", "Escolha a UF"), *UF.choices])
    regimes = forms.MultipleChoiceField(
        label="Regimes legais (leis municipais que o Outorga aplicará)",
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Regimes: escolha ao menos um regime legal para o município."},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["regimes"].choices = regime_choices()  # type: ignore[attr-defined]


class PublicContactForm(forms.Form):
    contact = forms.CharField(
        label="Contato da secretaria exibido na consulta pública",
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=(
            "Órgão responsável, telefone, e-mail e endereço de atendimento. Em branco, a consulta não mostra "
            "contato."
        ),
    )


class StaffInvitationForm(forms.Form):
    full_name = forms.CharField(label="Nome completo", max_length=200)
    email = forms.EmailField(label="E-mail (o convite será enviado para ele)")
    roles = forms.MultipleChoiceField(
        label="Papéis no município",
        choices=Role.choices,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Papéis: escolha ao menos um papel."},
    )


class RoleAssignForm(forms.Form):
    role = forms.ChoiceField(label="Acrescentar papel")

    def __init__(self, *args: Any, held: set[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = [(v, label) for v, label in Role.choices if v not in held]  # type: ignore[attr-defined]


class SetPasswordFromInvitationForm(forms.Form):
    """The invitee chooses a login and a password (checked by Django's validators in the service)."""

    username = forms.CharField(
        label="Usuário (com ele você entrará no Outorga)",
        max_length=150,
        widget=forms.TextInput({"autocomplete": "username", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label="Senha", strip=False, widget=forms.PasswordInput({"autocomplete": "new-password"})
    )
    password_confirm = forms.CharField(
        label="Repita a senha", strip=False, widget=forms.PasswordInput({"autocomplete": "new-password"})
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (
            data.get("password")
            and data.get("password_confirm")
            and data["password"] != data["password_confirm"]
        ):
            self.add_error("password_confirm", "Repita a senha: as duas senhas digitadas não são iguais.")
        return data


class RegimeAddForm(forms.Form):
    regime = forms.ChoiceField(
        label="Regime legal a acrescentar",
        error_messages={"required": "Regime: escolha um regime legal."},
    )
    starts_on = forms.DateField(
        label="Em vigor a partir de",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": "Em vigor a partir de: informe a data.",
            "invalid": "Em vigor a partir de: data inválida.",
        },
    )

    def __init__(self, *args: Any, exclude: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["regime"].choices = [  # type: ignore[attr-defined]
            ("", "Escolha o regime"),
            *(choice for choice in regime_choices() if choice[0] not in exclude),
        ]


class RegimeEndForm(forms.Form):
    regime = forms.ChoiceField(
        label="Regime legal a encerrar", error_messages={"required": "Regime: escolha um regime legal."}
    )
    ends_on = forms.DateField(
        label="Deixa de valer a partir de",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={
            "required": "Deixa de valer a partir de: informe a data.",
            "invalid": "Deixa de valer a partir de: data inválida.",
        },
    )

    def __init__(self, *args: Any, regimes: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["regime"].choices = [("", "Escolha o regime"), *regimes]  # type: ignore[attr-defined]
