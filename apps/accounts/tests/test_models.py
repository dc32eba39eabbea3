from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from apps.accounts.choices import UserKind
from apps.accounts.models import User
from apps.accounts.services import user_create
from apps.audit.models import AuditEvent

pytestmark = pytest.mark.django_db

PASSWORD = "frase-longa-de-teste"


def test_it_rejects_a_cpf_with_wrong_check_digits() -> None:
    with pytest.raises(ValidationError) as error:
        user_create(actor=None, username="x", password=PASSWORD, full_name="X", cpf="52998224724")
    assert "CPF inválido" in str(error.value)
    assert not User.objects.filter(username="x").exists()


def test_it_accepts_a_valid_cpf_and_phone() -> None:
    user = user_create(
        actor=None, username="y", password=PASSWORD, full_name="Y", cpf="52998224725", phone="1732221234"
    )
    assert user.cpf == "52998224725"
    assert user.kind == UserKind.STAFF
    assert str(user) == "Y"


def test_it_keeps_personal_data_out_of_the_audit_log() -> None:
    user = user_create(
        actor=None, username="z", password=PASSWORD, full_name="Zé", cpf="52998224725", phone="1732221234"
    )
    event = AuditEvent.objects.get(action="user.create", object_id=str(user.pk))
    assert event.after == {"username": "z", "full_name": "Zé", "kind": "staff", "is_active": True}
    assert "52998224725" not in str(event.after)
