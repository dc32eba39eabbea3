"""``new-regime`` on the forms real municipal laws are published in (fixtures/new_regime/): a consolidated text
with bracketed earlier wordings and editorial notes, "Penalidade: …" lines after each inciso, severity headings
inside an article, a title in capitals, a publication line of a Diário Oficial, amendment dates from
publication, numbers spelled out, and a Windows-1252 file whose accents must survive."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from lawcode.errors import LawTextError
from lawcode.new_regime import build_skeleton, new_regime, spelled_number
from lawcode.scenarios import regime_from_folder
from lawcode.texts import parse_law_text

FIXTURES = Path(__file__).parent / "fixtures" / "new_regime"
CONSOLIDATED = FIXTURES / "consolidada.txt"
CP1252 = FIXTURES / "consolidada-cp1252.txt"
REGIME_ID = "exemplopolis_sp_mototaxi"

PROCEDURE = """\
due_process:
  instances:
    - key: first
      label: Defesa
      cite: art5
      judged_by: judging_authority
      engine_instance: {absent: ainda sem regra de prazo}
      suspensive: true
      suspensive_cite: art5
  fine_due_on_first_condemnation: {absent: ainda não lido}
auto: {absent: ainda não lido, omission: {absent: ainda não lido}}
clandestine: {absent: ainda não lido}
traffic_only_guard: {absent: ainda não lido}
complaint_basis: {cites: [art1]}
nullity: {absent: ainda não lido}
electronic_notice: {absent: ainda não lido}
"""
LABELS = """\
instrument: {name: Autorização, plural: Autorizações, short: autorização, short_plural: autorizações, gender: f,
  cite: art1, lookup: Autorização em vigor}
bodies:
  first: {name: Secretário de Transportes, kind: single, decision: single, cite: art5}
verdicts: {judges: defence, condemn: Improcedente, acquit: Procedente, cite: art5}
application_kinds:
  vehicle_permit: {label: Autorização, cite: art1}
"""


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_skeleton([CONSOLIDATED], REGIME_ID, tmp_path_factory.mktemp("out"))


def test_a_title_in_capitals_and_a_diario_oficial_line_give_the_dates(skeleton) -> None:  # type: ignore[no-untyped-def]
    act = skeleton.acts[0]
    assert act.title == "Lei nº 3815, de 5 de abril de 2018"
    assert (act.enacted, act.published, act.in_force) == (
        dt.date(2018, 4, 5),
        dt.date(2018, 4, 6),
        dt.date(2018, 4, 6),
    )


def test_an_earlier_wording_in_brackets_is_kept_apart_and_dates_the_amendment(skeleton) -> None:  # type: ignore[no-untyped-def]
    act = skeleton.acts[0]
    art2 = act.law.get("art2")
    assert [w.text for w in art2.versions] == [
        "O condutor deve ter idade mínima de dezoito anos.",
        "O condutor deve ter idade mínima de vinte e um anos e habilitação há mais de dois anos.",
    ]
    amendments = {a.key: a.in_force for a in act.amendments}
    assert amendments["lei3900_2018"] == dt.date(
        2018, 6, 21
    )  # the day after "até 20.06.2018", not the marker's
    assert art2.versions[0].valid_until == dt.date(2018, 6, 20)
    assert "[até" not in art2.versions[-1].text


def test_an_amendment_marker_saying_its_publication_is_dated_by_it(skeleton) -> None:  # type: ignore[no-untyped-def]
    amendments = {a.key: a.in_force for a in skeleton.acts[0].amendments}
    assert amendments["lei4100_2019"] == dt.date(2019, 3, 12)


def test_editorial_notes_are_reported_not_read_as_law(skeleton) -> None:  # type: ignore[no-untyped-def]
    act = skeleton.acts[0]
    notes = {note.after: note for note in act.notes}
    assert notes["art4_incIV"].until is None and "acrescentado" in notes["art4_incIV"].text
    assert "Este inciso" not in act.law.get("art4_incIV").versions[-1].text


def test_penalty_lines_and_severity_headings_stay_with_their_incisos(skeleton) -> None:  # type: ignore[no-untyped-def]
    law = skeleton.acts[0].law
    assert [i for i in law.ids() if i.startswith("art4_")] == [
        "art4_incI",
        "art4_incII",
        "art4_incIII",
        "art4_incIV",
    ]
    assert (
        law.get("art4_incIII")
        .versions[-1]
        .text.endswith("Penalidade: multa de 20 UFM e suspensão de 30 dias.")
    )
    assert "GRAVES" not in law.get("art4_incII").versions[-1].text


def test_the_numbers_that_matter_are_candidates(skeleton) -> None:  # type: ignore[no-untyped-def]
    by_cite: dict[str, list[Decimal]] = {}
    for candidate in skeleton.candidates:
        by_cite.setdefault(candidate.cite, []).append(candidate.value)
    assert by_cite["art2"][:2] == [Decimal(21), Decimal(2)]  # "vinte e um anos", "dois anos"
    assert Decimal(125) in by_cite["art3"]  # "cento e vinte e cinco cilindradas"
    assert by_cite["art5"] == [
        Decimal(v) for v in (15, 10, 20, 10, 90)
    ]  # the clandestine chain and its ceiling
    earlier = [c for c in skeleton.candidates if c.until is not None]
    assert [(c.value, c.until) for c in earlier] == [(Decimal(18), dt.date(2018, 6, 20))]


@pytest.mark.parametrize(
    ("words", "value"),
    [("vinte e um", 21), ("cem", 100), ("cento e trinta e cinco", 135), ("dois mil e quinhentos", 2500),
     ("noventa", 90), ("duas", 2), ("quinze", 15), ("trezentas e doze", 312)],
)  # fmt: skip
def test_numbers_spelled_out_up_to_cem_and_beyond(words: str, value: int) -> None:
    assert spelled_number(words) == value


def test_a_windows_1252_text_keeps_its_accents_in_the_to_do_list(tmp_path: Path) -> None:
    new_regime([CP1252], REGIME_ID, tmp_path)
    folder = tmp_path / REGIME_ID
    todo = (folder / "not_computable.yaml").read_text(encoding="utf-8")
    assert "art1: A FAZER — O serviço de mototáxi depende de autorização prévia." in todo
    assert "Exemplópolis" in (folder / "regime.yaml").read_text(encoding="utf-8")


def test_the_written_skeleton_loads_with_both_wordings(tmp_path: Path) -> None:
    new_regime([CONSOLIDATED], REGIME_ID, tmp_path)
    folder = tmp_path / REGIME_ID
    (folder / "procedure.yaml").write_text(PROCEDURE, encoding="utf-8")
    (folder / "facts.yaml").write_text("application_fields: {}\n", encoding="utf-8")
    (folder / "labels.yaml").write_text(LABELS, encoding="utf-8")
    regime = regime_from_folder(folder)
    assert "dezoito" in str(regime.resolve_citation("art2", dt.date(2018, 5, 1)).wording)
    assert "vinte e um" in str(regime.resolve_citation("art2", dt.date(2018, 7, 1)).wording)


def test_a_bracket_never_closed_fails_with_its_line() -> None:
    text = "LEI Nº 1, DE 01/02/2020\nArt. 1º Um.\n[até 01.01.2020: (redação original)\nArt. 2º Dois.\n"
    with pytest.raises(LawTextError) as error:
        parse_law_text(text, source="lei.txt", in_force=dt.date(2020, 2, 1))
    assert error.value.line == 3 and "colchetes" in error.value.message_pt


def test_severity_headings_inside_an_article_draft_the_catalog(skeleton, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert skeleton.acts[0].severity == {
        "art4_incI": "leve",
        "art4_incII": "leve",
        "art4_incIII": "grave",
        "art4_incIV": "grave",
    }
    new_regime([CONSOLIDATED], REGIME_ID, tmp_path)
    catalog = (tmp_path / REGIME_ID / "catalog.yaml").read_text(encoding="utf-8")
    assert "infractions: []" in catalog
    assert (
        "# A FAZER: art4_incIII (grave) — transportar mais de um passageiro; Penalidade: multa de 20 UFM"
        in catalog
    )
