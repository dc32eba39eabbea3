"""The move of every yearly sequence into tenancy.Counter keeps each municipality's last number."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [
    ("tenancy", "0003_counter"),
    ("licensing", "0002_alter_applicationevent_kind"),
    ("enforcement", "0001_initial"),
    ("public", "0001_initial"),
    ("finance", "0002_units_declared_by_the_regime"),
]
AFTER = [
    ("licensing", "0003_numbers_from_tenancy_counter"),
    ("enforcement", "0002_numbers_from_tenancy_counter"),
    ("public", "0002_numbers_from_tenancy_counter"),
    ("finance", "0003_numbers_from_tenancy_counter"),
]


def _migrate(targets: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_last_numbers_survive_the_move_to_one_counter_table() -> None:
    old = _migrate(BEFORE)
    municipality = old.get_model("tenancy", "Municipality").objects.create(
        ibge_code="3533908", name="Olímpia", uf="SP", regimes=["olimpia_sp_escolar"]
    )
    old.get_model("licensing", "PermitSequence").objects.create(municipality=municipality, year=2026, last=41)
    old.get_model("enforcement", "CaseSequence").objects.create(municipality=municipality, year=2026, last=7)
    old.get_model("finance", "GuideSequence").objects.create(municipality=municipality, year=2025, last=300)
    try:
        new = _migrate(AFTER)
        counters = new.get_model("tenancy", "Counter").objects.filter(municipality_id=municipality.pk)
        assert sorted(counters.values_list("kind", "year", "last")) == [
            ("infraction_case", 2026, 7),
            ("payment_guide", 2025, 300),
            ("permit", 2026, 41),
        ]
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
