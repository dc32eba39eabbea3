"""Acts, external acts and citation rendering (Portuguese) on the real regimes' texts."""

from __future__ import annotations

import datetime as dt

import pytest

from lawcode.acts import ActRegistry, external_acts, short_act_name
from lawcode.citations import Citation, Citer, split_ref
from lawcode.errors import UnknownDispositivoError
from lawcode.fiscal import ufesp_table
from lawcode.registry import get_regime


@pytest.fixture(scope="module")
def olimpia() -> Citer:
    return get_regime("olimpia_sp_escolar").citer


@pytest.fixture(scope="module")
def votuporanga() -> Citer:
    return get_regime("votuporanga_sp_escolar").citer


def render(citer: Citer, ref: str, on: dt.date) -> str:
    return citer.resolve(ref, on=on).render()


def test_regime_citations_render_like_a_lawyer_writes_them(olimpia: Citer) -> None:
    day = dt.date(2026, 3, 1)
    assert render(olimpia, "art13_incII", day) == "Lei 5.171/2025 (Olímpia), art. 13, II"
    assert render(olimpia, "art25_par2", day) == "Lei 5.171/2025 (Olímpia), art. 25, § 2º"
    assert render(olimpia, "art22_parun", day) == "Lei 5.171/2025 (Olímpia), art. 22, parágrafo único"
    assert render(olimpia, "ctb:art138_incV", day) == "CTB, art. 138, V"
    assert render(olimpia, "lei9784:art66_par3", day) == "Lei 9.784/1999, art. 66, § 3º"


def test_amended_wording_is_named_in_the_citation(votuporanga: Citer) -> None:
    assert (
        render(votuporanga, "art4_incII_c", dt.date(2026, 3, 1))
        == "Lei 5.722/2015 (Votuporanga), art. 4º, II, c"
    )
    assert (
        render(votuporanga, "art4_par2", dt.date(2017, 1, 1)) == "Lei 5.722/2015 (Votuporanga), art. 4º, § 2º"
    )
    assert render(votuporanga, "art4_par2", dt.date(2019, 1, 1)) == (
        "Lei 5.722/2015 (Votuporanga), art. 4º, § 2º (redação da Lei 6.151/2018)"
    )
    assert render(votuporanga, "art21A", dt.date(2019, 1, 1)) == (
        "Lei 5.722/2015 (Votuporanga), art. 21-A (incluído pela Lei 6.151/2018)"
    )


def test_unknown_dispositivos_and_acts_fail(olimpia: Citer) -> None:
    for bad in ("art41", "art13_incVII", "art9_incXV", "ctb:art140", "ctb:art138_incVI", "nolaw:art1", ""):
        with pytest.raises(UnknownDispositivoError):
            olimpia.validate(bad)


def test_whole_act_citation_only_where_allowed(olimpia: Citer) -> None:
    assert (
        olimpia.resolve("contran_789_2020", on=dt.date(2026, 1, 1)).render() == "Resolução CONTRAN 789/2020"
    )
    with pytest.raises(UnknownDispositivoError):
        olimpia.validate("olimpia-5171-2025")  # the regime's own law is cited by dispositivo


def test_split_ref() -> None:
    assert split_ref("art13_incII", "main") == ("main", "art13_incII")
    assert split_ref("ctb:art138", "main") == ("ctb", "art138")
    assert split_ref("lc95", "main") == ("lc95", None)


def test_required_external_dispositivos_are_declared() -> None:
    acts = external_acts()
    required = {
        "ctb": [
            "art135",
            "art136",
            *[f"art136_inc{r}" for r in ("I", "II", "III", "IV", "V", "VI", "VII")],
            "art137",
            "art138",
            *[f"art138_inc{r}" for r in ("I", "II", "III", "IV", "V")],
            "art139",
            "art143",
            "art143_incV",
            "art147_par5",
            "art281_par1_incII",
            "art282",
            "art282_par1",
            "art282_par4",
            "art282_par6",
            "art329",
        ],
        "lei9784": ["art59", "art66", "art66_par1", "art66_par2", "art66_par3", "art67"],
        "lc95": ["art8", "art8_par1"],
        "codigo_civil": ["art132", "art132_par3"],
        "lei12587": ["art4_incX", "art11B"],
        "lgpd": ["art7", "art14", "art23"],
        "lai": ["art31"],
    }
    for key, ids in required.items():
        for dispositivo in ids:
            assert acts[key].has(dispositivo), f"{key}:{dispositivo}"
    for key in ("contran_789_2020", "contran_918_2022", "contran_989_2022", "contran_780_2019"):
        assert acts[key].whole_act


def test_every_ufesp_row_cites_a_declared_sefaz_act() -> None:
    acts = external_acts()
    rows = ufesp_table()
    assert [row.year for row in rows] == list(range(2015, 2027))
    for row in rows:
        assert acts[row.act_key].whole_act, row.act_key
        assert acts[row.act_key].in_force == dt.date(row.year, 1, 1)


def test_own_act_cannot_shadow_an_external_act() -> None:
    from lawcode.errors import RegimeDefinitionError

    with pytest.raises(RegimeDefinitionError):
        ActRegistry.with_external([external_acts()["ctb"]], "ctb")


def test_short_act_name() -> None:
    assert short_act_name("Lei nº 6.151, de 20.03.2018") == "Lei 6.151/2018"
    assert short_act_name("Lei nº 5.171, de 24 de setembro de 2025") == "Lei 5.171/2025"


def test_citation_dict_round_trip(votuporanga: Citer) -> None:
    citation = votuporanga.resolve("art4_par2", on=dt.date(2019, 1, 1))
    assert Citation.from_dict(citation.to_dict()) == citation
    assert citation.to_dict()["text"] == citation.render()


def test_several_citations_name_each_act_once_per_run(olimpia: Citer) -> None:
    from lawcode.citations import render_citations

    day = dt.date(2026, 3, 1)
    cites = [
        olimpia.resolve(ref, on=day) for ref in ("art22_incI", "art21", "ctb:art138_incIV", "ctb:art329")
    ]
    assert (
        render_citations(cites)
        == "Lei 5.171/2025 (Olímpia), art. 22, I; art. 21; CTB, art. 138, IV (redação da Lei 14.071/2020); art. 329"
    )


def test_external_wording_versions_follow_their_amendment(olimpia: Citer) -> None:
    before = olimpia.resolve("ctb:art138_incIV", on=dt.date(2021, 4, 11))
    after = olimpia.resolve("ctb:art138_incIV", on=dt.date(2021, 4, 12))
    assert (before.version, before.render()) == ("original", "CTB, art. 138, IV")
    assert after.render() == "CTB, art. 138, IV (redação da Lei 14.071/2020)"
    assert olimpia.resolve("ctb:art138_incII", on=dt.date(2026, 1, 1)).version == "original"
