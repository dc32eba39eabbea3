"""labels.yaml: what a regime's law calls its instrument, its bodies, its verdicts and its application kinds —
required, validated at load, every citation checked."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from lawcode.errors import RegimeDefinitionError, UnknownDispositivoError
from lawcode.regime import Regime
from lawcode.registry import get_regime, load_regime, regime_ids
from lawcode.tests.conftest import DEMO_FOLDER, DEMO_PACKAGE

Copy = Callable[[dict[str, str]], Regime]

INSTRUMENT = """instrument:
  name: Termo de Permissão
  plural: Termos de Permissão
  short: termo de permissão
  short_plural: termos de permissão
  gender: m
  cite: art2
  lookup: Termo de Permissão em vigor
"""
VERDICTS = """verdicts:
  judges: auto
  condemn: Auto procedente — penalidade mantida
  acquit: Auto improcedente — defesa acolhida
  cite: art1
"""
KINDS = """application_kinds:
  vehicle_permit: {label: Termo de Permissão do veículo, cite: art2}
"""
COLLEGIATE = """bodies:
  first:
    name: Junta Mista de Julgamento
    kind: collegiate
    members:
      - {origin: Prefeitura, count: 3}
      - {origin: Mototaxistas, count: 2}
    quorum: 3
    decision: vote
    cite: art1
"""


def labels(bodies: str = COLLEGIATE, verdicts: str = VERDICTS, kinds: str = KINDS) -> str:
    return INSTRUMENT + bodies + verdicts + kinds


def test_a_collegiate_body_loads_with_its_members_and_quorum(demo_copy: Copy) -> None:
    declared = demo_copy({"labels.yaml": labels()}).vocabulary.labels
    body = declared.body("first")
    assert body.collegiate and body.seats == 5 and body.quorum == 3 and body.decision == "vote"
    assert [(m.origin, m.count) for m in body.members] == [("Prefeitura", 3), ("Mototaxistas", 2)]
    assert declared.instrument.the("0001/2026", prep="a") == "ao termo de permissão 0001/2026"
    assert declared.verdicts.judges == "auto"
    assert list(declared.application_kinds) == ["vehicle_permit"]


def test_the_shipped_demo_declares_its_instrument(demo: Regime) -> None:
    assert demo.vocabulary.labels.instrument.name == "Alvará"
    assert demo.vocabulary.labels.body("first").name == "Secretário de Demo"


def test_a_regime_without_labels_yaml_does_not_load(tmp_path: Path) -> None:
    folder = tmp_path / "demo_sp"
    shutil.copytree(DEMO_FOLDER, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "labels.yaml").unlink()
    with pytest.raises(RegimeDefinitionError, match="labels.yaml is missing"):
        load_regime(folder, DEMO_PACKAGE)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (labels(bodies="bodies: {}\n"), "no body for the instance 'first'"),
        (labels(bodies=COLLEGIATE.replace("quorum: 3", "quorum: 6")), "quorum 6 exceeds the 5 members"),
        (
            labels(bodies=COLLEGIATE.replace("decision: vote", "decision: single")),
            "decides by vote or rapporteur",
        ),
        (
            labels(bodies=COLLEGIATE.replace("kind: collegiate", "kind: board")),
            "must be one of single, collegiate",
        ),
        (
            labels(
                bodies=COLLEGIATE
                + "  second:\n    name: X\n    kind: single\n    decision: single\n    cite: art1\n"
            ),
            "procedure.yaml has no such instance",
        ),
        (labels(verdicts=VERDICTS.replace("judges: auto", "judges: appeal")), "must be one of defence, auto"),
        (
            labels(kinds="application_kinds:\n  taxi_permit: {label: X, cite: art2}\n"),
            "unknown key 'taxi_permit'",
        ),
        (labels(verdicts=""), "labels.yaml is missing 'verdicts'"),
        (
            labels(
                bodies="bodies:\n  first:\n    name: Junta\n    kind: collegiate\n    decision: vote\n    cite: art1\n"
            ),
            "needs its members",
        ),
    ],
)
def test_a_malformed_declaration_is_loud(demo_copy: Copy, text: str, message: str) -> None:
    with pytest.raises(RegimeDefinitionError, match=message):
        demo_copy({"labels.yaml": text})


def test_an_undeclared_article_is_loud(demo_copy: Copy) -> None:
    with pytest.raises(UnknownDispositivoError):
        demo_copy({"labels.yaml": labels().replace("cite: art2\n  lookup", "cite: art99\n  lookup")})


@pytest.mark.parametrize("regime_id", regime_ids())
def test_every_shipped_regime_names_a_body_for_each_of_its_instances(regime_id: str) -> None:
    regime = get_regime(regime_id)
    for instance in regime.procedure.due_process.instances:
        assert regime.vocabulary.labels.body(instance.key).name


def test_a_deadline_is_worded_as_the_law_words_it(demo_copy: Copy) -> None:
    text = labels() + "deadlines:\n  notice_limit: {label: Prazo para enviar a NAI, cite: art1}\n"
    declared = demo_copy({"labels.yaml": text}).vocabulary.labels
    assert declared.deadline_label("notice_limit") == "Prazo para enviar a NAI"
    assert declared.deadline_label("appeal_deadline") == "Prazo para recurso"


def test_an_unknown_deadline_is_loud(demo_copy: Copy) -> None:
    with pytest.raises(RegimeDefinitionError, match="unknown key 'vehicle_permit'"):
        demo_copy({"labels.yaml": labels() + "deadlines:\n  vehicle_permit: {label: X, cite: art1}\n"})
