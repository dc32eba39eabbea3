from __future__ import annotations

import pytest

from apps.lawconfig.models import MunicipalClosure
from apps.registry.demo import alphanumeric_cnpj
from apps.registry.identifiers import validate_cnpj
from apps.registry.models import Ban, Company, Document, Operator, Vehicle
from apps.tenancy.demo import seed_demo


def test_alphanumeric_cnpj_helper_matches_the_official_example() -> None:
    assert alphanumeric_cnpj("12ABC34501DE") == "12ABC34501DE35"
    assert validate_cnpj(alphanumeric_cnpj("12ABC345DM01"))


@pytest.mark.django_db
def test_seed_demo_adds_registry_and_lawconfig_rows_once(settings: object, tmp_path: object) -> None:
    settings.MEDIA_ROOT = tmp_path  # type: ignore[attr-defined]
    seed_demo()
    counts = (
        Company.objects.count(),
        Operator.objects.count(),
        Vehicle.objects.count(),
        Document.objects.count(),
        Ban.objects.count(),
        MunicipalClosure.objects.count(),
    )
    assert Company.objects.filter(cnpj=alphanumeric_cnpj("12ABC345DM01")).exists()
    assert Ban.objects.filter(person__name__startswith="Rui Impedido").exists()
    assert MunicipalClosure.objects.filter(kind="early_closing").exists()
    seed_demo()
    again = (
        Company.objects.count(),
        Operator.objects.count(),
        Vehicle.objects.count(),
        Document.objects.count(),
        Ban.objects.count(),
        MunicipalClosure.objects.count(),
    )
    assert again == counts
