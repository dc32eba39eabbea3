from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from apps.audit.models import AuditEvent
from apps.tenancy.models import Municipality
from apps.tenancy.services import municipality_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("code", ["353390", "35339080", "35339O8", ""])
def test_it_rejects_malformed_ibge_codes(code: str) -> None:
    with pytest.raises(ValidationError) as error:
        municipality_create(actor=None, ibge_code=code, name="X", uf="SP", regimes=[])
    assert "ibge_code" in error.value.message_dict


def test_it_rejects_an_ibge_code_of_another_state() -> None:
    with pytest.raises(ValidationError) as error:
        municipality_create(actor=None, ibge_code="3148103", name="Patrocínio", uf="SP", regimes=[])
    assert "começa com 35" in str(error.value)


def test_it_rejects_unknown_regimes() -> None:
    with pytest.raises(ValidationError) as error:
        municipality_create(actor=None, ibge_code="3533908", name="Olímpia", uf="SP", regimes=["atlantida"])
    assert "atlantida" in str(error.value)
    assert not Municipality.objects.exists()
    assert not AuditEvent.objects.exists()


def test_it_keeps_ibge_codes_unique(olimpia: Municipality) -> None:
    with pytest.raises((ValidationError, IntegrityError)), transaction.atomic():
        municipality_create(actor=None, ibge_code="3533908", name="Outra", uf="SP", regimes=[], slug="outra")


def test_it_derives_the_slug(olimpia: Municipality) -> None:
    assert olimpia.slug == "olimpia-sp"
    assert str(olimpia) == "Olímpia-SP"
