"""The demo leaves a substitution notice in Patrocínio's queue (art. 11-A) and none where the law lacks it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from apps.platforms.models import SubstitutionReport
from apps.tenancy.demo import seed_demo

pytestmark = pytest.mark.django_db(transaction=False)


def test_the_demo_seeds_a_substitution_only_in_patrocinio_and_is_idempotent(
    settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    seed_demo()
    seed_demo()
    towns = list(SubstitutionReport.objects.values_list("municipality__ibge_code", flat=True))
    assert towns == ["3148103"]
