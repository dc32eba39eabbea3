"""The proceeding comes from each regime's procedure.yaml; nothing is defaulted and a misfit fails loudly."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest

import lawcode
from apps.dueprocess import procedure
from apps.dueprocess.choices import Instance
from apps.tenancy.choices import Role
from lawcode.errors import RegimeDefinitionError
from lawcode.registry import regime_ids


@pytest.mark.parametrize("regime_id", regime_ids())
def test_the_proceeding_is_the_declared_one(regime_id: str) -> None:
    declared = lawcode.get_regime(regime_id).procedure.due_process
    shown = procedure.proceeding(regime_id)
    assert list(shown.instances) == [instance.key for instance in declared.instances]
    assert shown.last_instance() == declared.last.key
    for instance in declared.instances:
        spec = shown.instances[instance.key]
        assert (spec.label, spec.cite, spec.engine_name) == (
            instance.label,
            instance.cite,
            instance.engine_instance.cite,
        )
        assert procedure.instance_label(regime_id, instance.key) == instance.label
        assert procedure.judging_role(regime_id, instance.key) == Role(instance.judged_by)
    assert shown.fine_due_on_first_condemnation == declared.fine_due_on_first_condemnation.cite


def _with_first_instance(monkeypatch: pytest.MonkeyPatch, **changes: Any) -> str:
    regime = lawcode.get_regime(regime_ids()[0])
    due = regime.procedure.due_process
    first = dataclasses.replace(due.instances[0], **changes)
    altered = dataclasses.replace(due, instances=(first, *due.instances[1:]))
    fake = SimpleNamespace(procedure=dataclasses.replace(regime.procedure, due_process=altered))
    monkeypatch.setattr(lawcode, "get_regime", lambda _regime_id: fake)
    return first.where


def test_a_judge_the_queues_do_not_route_to_fails_naming_the_declaration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    where = _with_first_instance(monkeypatch, judged_by=Role.APPEAL_BOARD.value)
    with pytest.raises(RegimeDefinitionError) as error:
        procedure.proceeding("any")
    assert error.value.file == where and "procedure.yaml" in where
    assert "judging_authority" in error.value.message


def test_an_instance_the_apps_do_not_store_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_first_instance(monkeypatch, key="third")
    with pytest.raises(RegimeDefinitionError) as error:
        procedure.proceeding("any")
    assert "stores only first, second" in error.value.message


def test_an_instance_the_regime_lacks_has_no_judge() -> None:
    one_instance = next(r for r in regime_ids() if not procedure.proceeding(r).has(Instance.SECOND))
    with pytest.raises(RegimeDefinitionError):
        procedure.judging_role(one_instance, Instance.SECOND)
