"""The engine's vocabulary of optional application answers matches the application forms and kinds."""

from __future__ import annotations

from apps.licensing.appfields import LABELS
from apps.licensing.choices import ApplicationKind
from apps.licensing.forms import ApplicationCreateForm
from lawcode.appfields import APPLICATION_FIELDS, APPLICATION_KINDS


def test_every_kind_a_regime_may_name_is_a_kind_the_product_files() -> None:
    assert set(APPLICATION_KINDS) == set(ApplicationKind.values)


def test_every_field_a_regime_may_name_is_on_the_form_with_its_label() -> None:
    declared = ApplicationCreateForm.base_fields
    assert set(APPLICATION_FIELDS) <= set(declared) and set(LABELS) == set(APPLICATION_FIELDS)
    assert {name: declared[name].label for name in APPLICATION_FIELDS} == LABELS
