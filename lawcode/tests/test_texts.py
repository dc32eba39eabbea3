"""The law-text parser against the three real texts and small crafted ones."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from lawcode.errors import DispositivoNotInForceError, LawTextError, UnknownDispositivoError
from lawcode.texts import Amendment, LawText, label_for, parse_law_text, roman_to_int

REGIMES = Path(__file__).resolve().parents[1] / "regimes"
LEI_6151 = Amendment("lei6151_2018", "Lei nº 6.151, de 20.03.2018", dt.date(2018, 3, 20))


def parse(folder: str, in_force: dt.date, amendments: tuple[Amendment, ...] = ()) -> LawText:
    path = REGIMES / folder / "law.txt"
    return parse_law_text(
        path.read_text(encoding="utf-8"), source=str(path), in_force=in_force, amendments=amendments
    )


@pytest.fixture(scope="module")
def olimpia() -> LawText:
    return parse("olimpia_sp_escolar", dt.date(2025, 9, 24))


@pytest.fixture(scope="module")
def votuporanga() -> LawText:
    return parse("votuporanga_sp_escolar", dt.date(2015, 12, 22), (LEI_6151,))


@pytest.fixture(scope="module")
def patrocinio() -> LawText:
    return parse("patrocinio_mg_aplicativo", dt.date(2025, 12, 22))


def articles(law: LawText) -> list[str]:
    return [i for i in law.ids() if "_" not in i]


def test_olimpia_has_every_dispositivo_in_text_order(olimpia: LawText) -> None:
    ids = olimpia.ids()
    assert len(ids) == 145
    assert articles(olimpia) == [f"art{n}" for n in range(1, 41)]
    for expected in (
        "art9_incXIV",
        "art25_par3",
        "art40_incI",
        "art40_par2",
        "art22_parun",
        "art30_incVIII",
        "art21_par2",
        "art39_par2",
        "art8_parun",
    ):
        assert expected in ids
    assert ids.index("art40_incI") < ids.index("art40_par1") < ids.index("art40_par3")
    assert ids[-1] == "art40_par3"


def test_olimpia_keeps_text_and_drops_header_and_signatures(olimpia: LawText) -> None:
    assert olimpia.get("art13_incII").text == (
        "veículo com no máximo 15 anos de fabricação, como critério de autorização municipal;"
    )
    assert olimpia.get("art40_par3").text.endswith("em desconformidade com a presente Lei.")
    assert olimpia.get("art1").text.startswith("Os serviços de transporte coletivo escolar particular")


def test_votuporanga_ids_with_inserted_articles_and_alineas(votuporanga: LawText) -> None:
    ids = votuporanga.ids()
    assert len(ids) == 94
    for expected in (
        "art1A_par2",
        "art4A_par2",
        "art4_par4_incV",
        "art4_incII_h",
        "art4_incI_c",
        "art21A",
        "art5A",
        "art6_d",
        "art15_parun",
        "art1_parun",
    ):
        assert expected in ids
    assert ids.index("art1A") < ids.index("art2") and ids.index("art21") < ids.index("art21A") < ids.index(
        "art22"
    )
    assert "art24" not in ids  # "Paço Municipal…" and the signatures are not dispositivos


def test_votuporanga_reworded_dispositivos_have_two_dated_wordings(votuporanga: LawText) -> None:
    reworded = [d.id for d in votuporanga.dispositivos.values() if len(d.versions) == 2]
    assert reworded == ["art1", "art1_parun", "art4", "art4_par2", "art19", "art21"]
    versions = votuporanga.get("art4_par2").versions
    assert [(w.version_key, w.valid_from, w.valid_until) for w in versions] == [
        ("original", dt.date(2015, 12, 22), dt.date(2018, 3, 19)),
        ("lei6151_2018", dt.date(2018, 3, 20), None),
    ]


def test_votuporanga_wording_is_chosen_by_date(votuporanga: LawText) -> None:
    before = votuporanga.wording("art4_par2", on=dt.date(2017, 1, 1))
    after = votuporanga.wording("art4_par2", on=dt.date(2019, 1, 1))
    assert before.version_key == "original" and "60 (sessenta) meses" in before.text
    assert after.version_key == "lei6151_2018" and "não se aplicando o disposto na alínea" in after.text
    assert "Redação dada" not in after.text
    assert votuporanga.wording("art4_par2", on=dt.date(2018, 3, 19)).version_key == "original"
    assert votuporanga.wording("art4_par2", on=dt.date(2018, 3, 20)).version_key == "lei6151_2018"


def test_votuporanga_inserted_dispositivo_does_not_exist_before_the_amendment(votuporanga: LawText) -> None:
    assert votuporanga.wording("art4A_par2", on=dt.date(2018, 3, 20)).inserted
    with pytest.raises(DispositivoNotInForceError) as error:
        votuporanga.wording("art4A_par2", on=dt.date(2018, 3, 19))
    assert "2018-03-20" in error.value.message


def test_votuporanga_unamended_children_of_reworded_article_are_original(votuporanga: LawText) -> None:
    wording = votuporanga.wording("art4_incII_c", on=dt.date(2016, 1, 1))
    assert wording.version_key == "original" and wording.text.startswith("não exceder a 15 (quinze) anos")


def test_patrocinio_hard_wrapped_lines_are_joined(patrocinio: LawText) -> None:
    ids = patrocinio.ids()
    assert len(ids) == 79
    for expected in (
        "art4_incI_j",
        "art4_incII_e",
        "art4_par3",
        "art11A",
        "art11A_parun",
        "art19_par2",
        "art7_parun",
        "art9_par1",
        "art1_parun_incVI",
        "art27",
    ):
        assert expected in ids
    assert patrocinio.get("art4_incII_a").text == (
        "possuir 04 (quatro) portas, ar-condicionado e idade máxima 10 (dez) anos de uso, contados a partir do "
        "seu ano fabricação;"
    )
    assert patrocinio.get("art27").text.endswith("1.0000.22.075257-0/000.")


def test_patrocinio_chapter_titles_are_not_appended_to_dispositivos(patrocinio: LawText) -> None:
    assert patrocinio.get("art3_parun").text.endswith("capacidade permitida de ocupação dos veículos.")
    assert "SEÇÃO" not in patrocinio.get("art4_par3").text


def test_structure_parents_and_ancestors(votuporanga: LawText) -> None:
    assert votuporanga.ancestors("art4_par4_incV") == ["art4_par4", "art4"]
    assert votuporanga.ancestors("art4_incI_c") == ["art4_incI", "art4"]
    assert votuporanga.children("art4_par4") == [f"art4_par4_inc{r}" for r in ("I", "II", "III", "IV", "V")]
    assert votuporanga.all_ids_including_parents() == votuporanga.ids()


@pytest.mark.parametrize(
    ("dispositivo", "label"),
    [
        ("art13_incII", "art. 13, II"),
        ("art25_par2", "art. 25, § 2º"),
        ("art22_parun", "art. 22, parágrafo único"),
        ("art4_incII_c", "art. 4º, II, c"),
        ("art4A_par2", "art. 4º-A, § 2º"),
        ("art11A", "art. 11-A"),
        ("art4_par4_incV", "art. 4º, § 4º, V"),
    ],
)
def test_labels_in_portuguese(dispositivo: str, label: str) -> None:
    assert label_for(dispositivo) == label


@pytest.mark.parametrize("bad", ["par2", "art", "art13_inc", "art13_incIIII", "13", "art13-II"])
def test_malformed_ids_are_rejected(bad: str) -> None:
    with pytest.raises(UnknownDispositivoError):
        label_for(bad)


def test_roman_numerals_must_be_canonical() -> None:
    assert roman_to_int("XIV") == 14 and roman_to_int("IX") == 9
    with pytest.raises(ValueError):
        roman_to_int("IIII")


def crafted(text: str, amendments: tuple[Amendment, ...] = ()) -> LawText:
    return parse_law_text(text, source="crafted.txt", in_force=dt.date(2020, 1, 1), amendments=amendments)


def test_duplicate_dispositivo_without_amendment_marker_fails_with_line() -> None:
    with pytest.raises(LawTextError) as error:
        crafted("Art. 1º Texto.\nI – um;\nI – outro;\n")
    assert error.value.line == 3 and "art1_incI" in error.value.message


def test_undeclared_amendment_marker_fails() -> None:
    text = "Art. 1º Texto.\n\nArt. 1º Novo texto.(Redação dada pela Lei nº 9, de 01.01.2021)\n"
    with pytest.raises(LawTextError) as error:
        crafted(text)
    assert "regime.yaml" in error.value.message and error.value.line == 3


def test_rewording_before_any_original_fails() -> None:
    amendment = Amendment("lei9", "Lei nº 9, de 01.01.2021", dt.date(2021, 1, 1))
    with pytest.raises(LawTextError):
        crafted("Art. 1º Texto.\n§ 1º Novo.(Redação dada pela Lei nº 9, de 01.01.2021)\n", (amendment,))


def test_unmarked_child_of_inserted_article_starts_with_it() -> None:
    amendment = Amendment("lei9", "Lei nº 9, de 01.01.2021", dt.date(2021, 1, 1))
    law = crafted(
        "Art. 1º Texto.\nArt. 1º-A Novo.(Inserido pela Lei nº 9, de 01.01.2021)\nI – item;\n", (amendment,)
    )
    assert law.get("art1A_incI").versions[0].valid_from == dt.date(2021, 1, 1)


def test_text_without_articles_fails() -> None:
    with pytest.raises(LawTextError):
        crafted("Só um cabeçalho\nSem artigos\n")


def test_repealed_dispositivo_ends_the_day_before_the_repeal() -> None:
    amendment = Amendment("lei9", "Lei nº 9, de 01.01.2021", dt.date(2021, 1, 1))
    law = crafted(
        "Art. 1o Texto.\nI – um;\nII – (Revogado pela Lei nº 9, de 01.01.2021)\nArt. 2º Outro.\n",
        (amendment,),
    )
    assert law.ids() == ["art1", "art1_incI", "art1_incII", "art2"]
    assert law.wording("art1_incII", on=dt.date(2020, 12, 31)).version_key == "original"
    with pytest.raises(DispositivoNotInForceError):
        law.wording("art1_incII", on=dt.date(2021, 1, 1))
    assert law.wording("art1_incI", on=dt.date(2021, 1, 1)).text == "um;"


@pytest.mark.parametrize(
    "text",
    [
        "Art. 1º Texto:\nI – um;\nIII – três;\n",
        "Art. 2º Texto.\nArt. 1º Outro.\n",
        "Art. 1º Texto:\na) um;\nc) três;\n",
        "Art. 1º Texto.\n§ 2º Sem o primeiro.\n",
        "Art. 1º Requisitos:\nI – possuir veículo com\nV - anos de uso;\n",
    ],
)
def test_numbering_gaps_reveal_misread_lines(text: str) -> None:
    with pytest.raises(LawTextError) as error:
        crafted(text)
    assert "out of sequence" in error.value.message


def test_lettered_dispositivos_follow_their_base_number() -> None:
    law = crafted("Art. 1º Texto.\n§ 1º Um.\n§ 1º-A Um-A.\n§ 2º Dois.\nArt. 1º-A Outro.\nArt. 2º Fim.\n")
    assert law.ids() == ["art1", "art1_par1", "art1_par1A", "art1_par2", "art1A", "art2"]


def test_a_wrapped_line_ending_in_a_date_does_not_end_the_law() -> None:
    law = crafted(
        "Art. 1º Nos termos do ato assinado\nem Brasília, 3 de janeiro de 2012.\nArt. 2º Fim.\n"
        "Prefeitura de Exemplo, em 2 de janeiro de 2020.\nFULANO\n"
    )
    assert law.ids() == ["art1", "art2"]
    assert law.get("art1").text.endswith("em Brasília, 3 de janeiro de 2012.")
    assert law.get("art2").text == "Fim."
