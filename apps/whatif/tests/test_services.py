"""A what-if lists exactly the permits a scenario-tested change flips (Olímpia art. 13, II: 15 → 10 years)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.licensing.models import Permit
from apps.licensing.tests.conftest import AS_OF
from apps.platforms.tests.conftest import run_tasks
from apps.tenancy.models import Municipality
from apps.whatif.changes import ProposedChange
from apps.whatif.choices import RunState, SubjectKind
from apps.whatif.models import WhatIfOutcome
from apps.whatif.services import whatif_request, whatif_run_execute

pytestmark = pytest.mark.django_db
AGE_10 = ProposedChange(kind="parameter", name="max_vehicle_age", value=Decimal(10))


def test_the_age_limit_at_10_flips_only_the_2012_vehicle_with_its_article(
    olimpia: Municipality, admin_olimpia: User, olimpia_fleet: dict[str, Permit]
) -> None:
    run = whatif_request(
        actor=admin_olimpia, municipality=olimpia, regime_id="olimpia_sp_escolar", change=AGE_10, as_of=AS_OF
    )
    assert run.state == RunState.QUEUED and run.expected >= 2
    run = whatif_run_execute(run_id=run.pk)
    assert run.state == RunState.DONE and run.evaluated == run.expected
    (flipped,) = WhatIfOutcome.objects.filter(run=run, subject_kind=SubjectKind.PERMIT)
    assert flipped.permit == olimpia_fleet["old"]
    assert (flipped.before, flipped.after) == ("Deferido", "Indeferido")
    assert "acima do máximo de 10" in flipped.finding
    assert "art. 13, II" in flipped.articles
    assert "fabricado a partir de 2016" in flipped.counterfactual
    assert run.total("permit", "changed") == 1 and run.total("vehicle", "changed") == 1
    assert run.totals["permit"]["transitions"] == {"Deferido → Indeferido": 1}
    assert run.change_label.startswith("Idade máxima do veículo, em anos de fabricação: 15 anos → 10 anos")
    actions = set(AuditEvent.objects.filter(object_id=str(run.pk)).values_list("action", flat=True))
    assert {"whatif.requested", "whatif.finished"} <= actions


def test_the_worker_runs_a_queued_what_if_once(
    olimpia: Municipality, admin_olimpia: User, olimpia_fleet: dict[str, Permit]
) -> None:
    run = whatif_request(
        actor=admin_olimpia, municipality=olimpia, regime_id="olimpia_sp_escolar", change=AGE_10, as_of=AS_OF
    )
    run_tasks()
    run.refresh_from_db()
    assert run.state == RunState.DONE
    assert whatif_run_execute(run_id=run.pk).state == RunState.DONE  # a second delivery changes nothing
    assert WhatIfOutcome.objects.filter(run=run).count() == 1


def test_an_unchanged_law_flips_nothing(
    olimpia: Municipality, admin_olimpia: User, olimpia_fleet: dict[str, Permit], **_: Any
) -> None:
    same = ProposedChange(kind="parameter", name="max_vehicle_age", value=Decimal(15))
    run = whatif_request(
        actor=admin_olimpia, municipality=olimpia, regime_id="olimpia_sp_escolar", change=same, as_of=AS_OF
    )
    run = whatif_run_execute(run_id=run.pk)
    assert run.total("permit", "judged") == 2
    assert not WhatIfOutcome.objects.filter(run=run).exists()
