from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.tenancy.choices import Role
from apps.tenancy.permissions import ALL_ROLES, matrix, register, roles_allowed


def test_it_has_eight_roles_with_portuguese_labels() -> None:
    assert len(ALL_ROLES) == 8
    # Neutral: each regime names its own bodies (labels.yaml); the role only routes the queue.
    assert Role.APPEAL_BOARD.label == "Julgamento em 2ª instância"


def test_it_reserves_personal_data_to_administrators_and_the_dpo() -> None:
    assert roles_allowed("accounts.user", "view") == {Role.ADMINISTRATOR, Role.AUDITOR_DPO}


def test_it_refuses_unknown_roles() -> None:
    with pytest.raises(ImproperlyConfigured):
        register("tests.thing", {"view": {"mayor"}})
    assert "tests.thing" not in matrix()


def test_it_refuses_registering_a_model_twice() -> None:
    with pytest.raises(ImproperlyConfigured):
        register("tenancy.municipality", {"view": ALL_ROLES})
