"""``python -m lawcode new-regime``: the skeleton of a regime folder from the text of its laws.

Exercised on São José dos Campos-SP's taxi law (Lei 8.698/2012) and its armoured-cabin law (Lei 9.093/2014),
copied verbatim into fixtures/new_regime, in a temporary folder: the tool must never touch the repository.
"""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml

from lawcode.__main__ import main
from lawcode.coverage import build_matrix
from lawcode.errors import LawTextError, RegimeDefinitionError
from lawcode.new_regime import build_skeleton, new_regime
from lawcode.registry import load_regime

LAWS = Path(__file__).parent / "fixtures" / "new_regime"
TAXI = LAWS / "sao-jose-dos-campos-sp-lei-8698-2012-taxi.txt"
CABIN = LAWS / "sao-jose-dos-campos-sp-lei-9093-2014-taxi-cabine.txt"
REGIME_ID = "sao_jose_dos_campos_sp_taxi"
PROCEDURE = """\
due_process:
  instances:
    - key: first
      label: Recurso ao Diretor do DTP
      cite: art24
      judged_by: judging_authority
      engine_instance: {absent: ainda sem regra de prazo}
      suspensive: true
      suspensive_cite: art24
  fine_due_on_first_condemnation: {absent: ainda não lido}
auto: {absent: ainda não lido, omission: {absent: ainda não lido}}
clandestine: {absent: ainda não lido}
traffic_only_guard: {absent: ainda não lido}
complaint_basis: {cites: [art1]}
nullity: {absent: ainda não lido}
electronic_notice: {absent: ainda não lido}
"""
LABELS = """\
instrument: {name: Alvará, plural: Alvarás, short: alvará, short_plural: alvarás, gender: m, cite: art1,
  lookup: Alvará em vigor}
bodies:
  first: {name: Diretor do DTP, kind: single, decision: single, cite: art24}
verdicts: {judges: defence, condemn: Improcedente, acquit: Procedente, cite: art24}
application_kinds:
  vehicle_permit: {label: Alvará, cite: art1}
"""


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("elsewhere")
    buffer = io.StringIO()
    status = main(
        ["new-regime", "--law", str(TAXI), "--law", str(CABIN), "--id", REGIME_ID, "--out", str(out)], buffer
    )
    assert status == 0, buffer.getvalue()
    return out / REGIME_ID, buffer.getvalue()


def _yaml(folder: Path, name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((folder / name).read_text(encoding="utf-8"))
    return loaded


def test_it_writes_the_folder_with_both_laws_verbatim(written: tuple[Path, str]) -> None:
    folder, _ = written
    names = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert names == {
        "law.txt",
        "sao-jose-dos-campos-9093-2014.txt",
        "regime.yaml",
        "procedure.yaml",
        "not_computable.yaml",
        "candidate_parameters.yaml",
        "parameters.yaml",
        "interpretations.yaml",
        "catalog.yaml",
        "calendar.yaml",
        "__init__.py",
        "rules/__init__.py",
    }
    assert (folder / "law.txt").read_text(encoding="utf-8") == TAXI.read_text(encoding="utf-8")


def test_regime_yaml_holds_the_acts_and_the_dates_found(written: tuple[Path, str]) -> None:
    meta = _yaml(written[0], "regime.yaml")
    assert (meta["id"], meta["municipality"], meta["uf"], meta["kind"]) == (
        REGIME_ID,
        "São José dos Campos",
        "SP",
        "taxi",
    )
    taxi, cabin = meta["acts"]
    assert (taxi["key"], taxi["title"], taxi["enacted"]) == (
        "sao-jose-dos-campos-8698-2012",
        "Lei nº 8.698, de 18 de maio de 2012",
        dt.date(2012, 5, 18),
    )
    assert taxi["published"] is None  # the text does not say: left for a person, never guessed
    assert (cabin["enacted"], cabin["published"], cabin["in_force"]) == (
        dt.date(2014, 2, 27),
        dt.date(2014, 2, 28),
        dt.date(2014, 2, 28),
    )


def test_it_reports_the_lines_it_could_not_place(written: tuple[Path, str]) -> None:
    _, report = written
    assert "law.txt: Lei nº 8.698, de 18 de maio de 2012 — 141 dispositivos" in report
    # The penalty of each inciso of art. 23 sits on its own line after a blank: outside any dispositivo.
    assert (
        "linha 210 não colocada em nenhum dispositivo (depois de art23_incI): Penalidade: multa de R$ 77,24"
        in report
    )
    # So does the table of renewal months of art. 6º.
    assert "linha 90 não colocada em nenhum dispositivo (depois de art6): Final 0 e 1" in report


def test_every_dispositivo_is_listed_to_do(written: tuple[Path, str]) -> None:
    text = (written[0] / "not_computable.yaml").read_text(encoding="utf-8")
    assert _yaml(written[0], "not_computable.yaml") == {"not_computable": {}}
    assert "#   art23_incXXII: A FAZER — " in text
    assert "#   sao-jose-dos-campos-9093-2014:art1_parun: A FAZER — " in text
    assert text.count(": A FAZER — ") == 141 + 4


def _candidates(folder: Path) -> list[dict[str, Any]]:
    return list(_yaml(folder, "candidate_parameters.yaml")["candidates"])


@pytest.mark.parametrize(
    ("cite", "value", "unit"),
    [
        ("art14", 10, "years"),  # vehicles at most 10 years old
        ("art19", 1563, "count"),  # one taxi per 1,563 inhabitants
        ("art19_par2", 2, "count"),  # two permits for the districts
        ("art4_par3", 2, "years"),  # the transferor barred for 2 years
        ("art4_par4", 3, "years"),  # re-transfer only after 3 years
        ("art2_par1_incII", 10, "percent"),  # executive taxis: at most 10% of the members
        ("art9", 1, "count"),  # one taxi per driver ("01 táxi")
        ("art10_par2", 2, "count"),  # two changes of auxiliary a year
        ("art14_par2", 2, "count"),  # "duas substituições de veículo", spelled out
        ("art23_par3", 2, "count"),  # fines "em dobro" on specific recidivism
        ("art24_par2", Decimal("1544.85"), "brl"),  # clandestine transport
        ("art24_par3_incVI", 90, "days"),  # the 90-day ceiling of the process
        ("sao-jose-dos-campos-9093-2014:art1", 107, None),
    ],
)
def test_candidate_parameters_carry_their_citation(
    written: tuple[Path, str], cite: str, value: object, unit: str | None
) -> None:
    found = [(Decimal(str(c["value"])), c["unit"]) for c in _candidates(written[0]) if c["cite"] == cite]
    if unit is None:  # "artigo 107 da Lei 9.503" is a reference, not a parameter
        assert all(v != value for v, _ in found)
    else:
        assert (value, unit) in found, found


def test_a_fine_on_a_loose_line_is_cited_to_the_inciso_above_and_flagged(written: tuple[Path, str]) -> None:
    loose = [c for c in _candidates(written[0]) if c["line"] == 210]
    assert [(c["cite"], Decimal(str(c["value"])), c["unit"], c["placed"]) for c in loose] == [
        ("art23_incI", Decimal("77.24"), "brl", False),
        ("art23_incI", Decimal("386.21"), "brl", False),
    ]


def test_the_skeleton_does_not_load_until_procedure_yaml_is_written(written: tuple[Path, str]) -> None:
    folder = written[0]
    with pytest.raises(RegimeDefinitionError) as error:
        load_regime(folder, "skeleton_sjc")
    assert "procedure.yaml" in error.value.message and "due_process" in error.value.message


def test_once_written_every_dispositivo_shows_as_a_gap(tmp_path: Path) -> None:
    new_regime([TAXI, CABIN], REGIME_ID, tmp_path)
    folder = tmp_path / REGIME_ID
    (folder / "procedure.yaml").write_text(PROCEDURE, encoding="utf-8")
    (folder / "facts.yaml").write_text("application_fields: {}\n", encoding="utf-8")
    (folder / "labels.yaml").write_text(LABELS, encoding="utf-8")
    from lawcode.scenarios import regime_from_folder

    matrix = build_matrix(regime_from_folder(folder))
    declared = [row.dispositivo for row in matrix.rows if not row.is_gap]
    assert len(matrix.rows) == 145 and len(matrix.gaps) == 145 - len(declared)
    assert set(declared) <= {"art1", "art24"}  # only what the procedure.yaml just written cites


def test_it_never_overwrites_a_folder(tmp_path: Path) -> None:
    (tmp_path / REGIME_ID).mkdir()
    with pytest.raises(RegimeDefinitionError) as error:
        new_regime([TAXI], REGIME_ID, tmp_path)
    assert "already exists" in error.value.message


def test_an_id_out_of_the_convention_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RegimeDefinitionError):
        build_skeleton([TAXI], "SaoJose", tmp_path)


def test_a_text_the_parser_cannot_read_fails_with_its_line(tmp_path: Path) -> None:
    broken = tmp_path / "lei.txt"
    broken.write_text("LEI Nº 1, DE 01/02/2020\nArt. 2º Dois.\nArt. 1º Um.\n", encoding="utf-8")
    with pytest.raises(LawTextError) as error:
        new_regime([broken], "exemplo_sp_escolar", tmp_path / "out")
    assert error.value.line == 3
    assert not (tmp_path / "out").exists()
