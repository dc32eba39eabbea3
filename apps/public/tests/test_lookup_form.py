"""The lookup page's fields are written without the template engine (apps.public.forms: DirectTextInput,
DirectSelect): the HTML must be, character for character, what Django's widget templates render."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.utils.safestring import mark_safe

from apps.public.forms import DirectSelect, DirectTextInput, LookupForm
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db  # the project's autouse fixtures reach the database

ATTRS: list[dict[str, Any]] = [
    {},
    {"id": "id_q", "required": True, "aria-invalid": "true", "hidden": False},
    {"placeholder": 'A "quoted" <b>&amp;</b>', "data-n": 3, "title": mark_safe("<i>já seguro</i>")},
]
VALUES: list[Any] = [None, "", "ABC1D23", '"><script>alert(1)</script>', 0, 12]
CHOICES: list[Any] = [
    [("", "Escolha o município do alvará"), ("3533908", "Olímpia-SP"), ("3557105", "Votuporanga-SP")],
    [("a", "A & B"), ("Grupo <1>", [("1", "um"), ("2", "dois")]), (3, "três")],
    [],
]


@pytest.mark.parametrize("attrs", ATTRS)
@pytest.mark.parametrize("value", VALUES)
def test_the_direct_text_input_writes_what_the_template_renders(attrs: dict[str, Any], value: Any) -> None:
    widget = DirectTextInput(attrs={"autocapitalize": "characters", "inputmode": "text"})
    expected = forms.TextInput.render(widget, "q", value, attrs=dict(attrs))
    assert widget.render("q", value, attrs=dict(attrs)) == expected


@pytest.mark.parametrize("attrs", ATTRS)
@pytest.mark.parametrize("value", [None, "", "3533908", "3557105", "2", 3, "nenhum"])
@pytest.mark.parametrize("choices", CHOICES)
def test_the_direct_select_writes_what_the_template_renders(
    attrs: dict[str, Any], value: Any, choices: list[Any]
) -> None:
    widget = DirectSelect(choices=choices)
    expected = forms.Select.render(widget, "municipio", value, attrs=dict(attrs))
    assert widget.render("municipio", value, attrs=dict(attrs)) == expected


@pytest.mark.parametrize(
    "data", [None, {"q": "abc1d23"}, {"q": "0001/2026", "municipio": "3533908"}, {"q": "", "municipio": "x"}]
)
def test_the_lookup_forms_fields_are_the_same_as_with_djangos_widgets(
    olimpia: Municipality, data: dict[str, str] | None
) -> None:
    direct = LookupForm(data)
    templated = LookupForm(data)
    templated.fields["q"].widget.__class__ = forms.TextInput
    templated.fields["municipio"].widget.__class__ = forms.Select
    for form in (direct, templated):
        form.is_valid()  # a bound form's errors add aria-invalid to its fields
    for name in ("q", "municipio"):
        assert str(direct[name]) == str(templated[name])
    assert "Olímpia-SP" in str(direct["municipio"])
