"""procedure.yaml: every regime declares its proceeding and enforcement; nothing is defaulted, all is cited."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from lawcode.config import Config
from lawcode.errors import RegimeDefinitionError, UnknownDispositivoError
from lawcode.regime import Regime
from lawcode.registry import all_regimes

Copy = Callable[[dict[str, str]], Regime]
DEMO_PROCEDURE = (Path(__file__).parent / "fixtures" / "core" / "demo_sp" / "procedure.yaml").read_text(
    encoding="utf-8"
)


def procedure(old: str, new: str) -> dict[str, str]:
    assert old in DEMO_PROCEDURE, old
    return {"procedure.yaml": DEMO_PROCEDURE.replace(old, new, 1)}


def error_of(demo_copy: Copy, replacement: dict[str, str]) -> RegimeDefinitionError:
    with pytest.raises(RegimeDefinitionError) as error:
        demo_copy(replacement)
    return error.value


# --- the real regimes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("regime", all_regimes(), ids=lambda r: r.id)
def test_every_regime_declares_a_proceeding_whose_citations_resolve(regime: Regime) -> None:
    declared = regime.procedure
    on = max(regime.in_force, dt.date(2026, 3, 1))
    instances = declared.due_process.instances
    assert [i.key for i in instances] == ["first", "second", "third"][: len(instances)]
    refs = (
        [i.cite for i in instances] + [i.suspensive_cite for i in instances] + list(declared.complaint_basis)
    )
    refs += [item.cite for item in declared.auto.items]
    for provision in (declared.traffic_only_guard, declared.clandestine.provision, declared.auto.omission):
        assert provision.present or provision.absent_reason, provision.where
        refs += [provision.cite] if provision.cite else []
    for ref in refs:
        assert regime.resolve_citation(ref, on).render()
    if declared.clandestine.infraction is not None:
        assert declared.clandestine.infraction in regime.catalog
    assert declared.nullity.rules or declared.nullity.provision.absent_reason
    for rule in declared.nullity.rules:
        assert regime.resolve_citation(rule.cite, on).render() and rule.reason


def test_patrocinio_voids_the_case_when_the_penalty_notice_misses_its_90_days() -> None:
    from lawcode.registry import get_regime

    rule = get_regime("patrocinio_mg_aplicativo").procedure.nullity.rule("penalty_notice")
    assert rule is not None and rule.cite == "art19_par1" and "90 dias" in rule.reason
    assert get_regime("olimpia_sp_escolar").procedure.nullity.rule("penalty_notice") is None


# --- what loading refuses ------------------------------------------------------------------------------------


def test_a_folder_without_procedure_yaml_does_not_load(tmp_path: Path, demo_copy: Copy) -> None:
    demo_copy({})  # the copy loads as is
    (tmp_path / "demo_sp" / "procedure.yaml").unlink()
    from lawcode.registry import load_regime
    from lawcode.tests.conftest import DEMO_PACKAGE

    with pytest.raises(RegimeDefinitionError) as error:
        load_regime(tmp_path / "demo_sp", DEMO_PACKAGE)
    assert error.value.file is not None and error.value.file.endswith("procedure.yaml")
    assert "procedure.yaml is missing" in error.value.message


def test_a_missing_section_names_it(demo_copy: Copy) -> None:
    error = error_of(
        demo_copy,
        procedure("traffic_only_guard:\n  absent: A lei de teste não trata de infrações de trânsito.\n", ""),
    )
    assert (
        "missing 'traffic_only_guard'" in error.message
        and error.file
        and error.file.endswith("procedure.yaml")
    )


def test_a_provision_must_cite_or_say_why_it_is_absent(demo_copy: Copy) -> None:
    error = error_of(
        demo_copy, procedure("  absent: A lei de teste não trata de infrações de trânsito.", "  note: x")
    )
    assert "either 'cite'" in error.message and error.line == 20


def test_citing_and_declaring_absent_at_once_is_refused(demo_copy: Copy) -> None:
    error = error_of(
        demo_copy,
        procedure(
            "  absent: A lei de teste não trata de infrações de trânsito.", "  cite: art1\n  absent: x"
        ),
    )
    assert "not both" in error.message


def test_an_unknown_dispositivo_fails_with_its_line(demo_copy: Copy) -> None:
    with pytest.raises(UnknownDispositivoError) as error:
        demo_copy(procedure("cites: [art1]", "cites: [art99]"))
    assert error.value.line == 22


def test_instances_are_keyed_by_their_order(demo_copy: Copy) -> None:
    error = error_of(demo_copy, procedure("- key: first", "- key: second"))
    assert "keyed by their order" in error.message and error.line == 3


def test_suspensive_effect_must_be_said(demo_copy: Copy) -> None:
    error = error_of(demo_copy, procedure("      suspensive: true\n", ""))
    assert "missing 'suspensive'" in error.message


def test_an_unknown_auto_item_is_refused(demo_copy: Copy) -> None:
    auto = "auto:\n  cite: art1\n  items:\n    - {item: colour, cite: art1, label: cor}\n"
    error = error_of(
        demo_copy, procedure("auto:\n  absent: A lei de teste não lista o conteúdo do auto.\n", auto)
    )
    assert "'colour' is unknown" in error.message and error.line == 16


def test_omission_effect_needs_voids_when_cited(demo_copy: Copy) -> None:
    error = error_of(
        demo_copy,
        procedure(
            "  omission:\n    absent: A lei de teste não trata de omissões.", "  omission:\n    cite: art1"
        ),
    )
    assert "voids: true|false" in error.message


def test_the_clandestine_infraction_must_be_in_the_catalog(demo_copy: Copy) -> None:
    error = error_of(
        demo_copy,
        procedure("clandestino.\n", "clandestino.\n  infraction: DEM-99\n"),
    )
    assert "'DEM-99' is not in catalog.yaml" in error.message


def test_nullity_must_give_rules_or_say_why_there_are_none(demo_copy: Copy) -> None:
    error = error_of(
        demo_copy,
        procedure(
            "nullity:\n  absent: A lei de exemplo não anula o processo por prazo perdido.\n", "nullity: {}\n"
        ),
    )
    assert "nullity" in str(error)


def test_an_unknown_nullity_limit_is_refused_with_its_line(demo_copy: Copy) -> None:
    rules = "nullity:\n  rules:\n    - {limit: defence_deadline, cite: art1, reason: Prazo perdido.}\n"
    error = error_of(
        demo_copy,
        procedure("nullity:\n  absent: A lei de exemplo não anula o processo por prazo perdido.\n", rules),
    )
    assert "defence_deadline" in str(error) and "penalty_notice" in str(error) and error.line is not None


# --- electronic notice (domicílio eletrônico) ----------------------------------------------------------------

ELECTRONIC = DEMO_PROCEDURE[DEMO_PROCEDURE.index("electronic_notice:") : DEMO_PROCEDURE.index("nullity:")]


def test_every_regime_declares_its_electronic_notice_with_article_or_interpretation() -> None:
    for regime in all_regimes():
        electronic = regime.procedure.electronic_notice
        assert electronic is not None
        if electronic.basis is None:
            assert electronic.provision.absent_reason
            continue
        assert electronic.acts and electronic.terms and electronic.terms_basis is not None
        assert electronic.lapse is not None or electronic.lapse_absent


def test_patrocinio_allows_the_penalty_notice_electronically_with_a_ten_day_lapse_by_interpretation() -> None:
    from lawcode import get_regime

    regime = get_regime("patrocinio_mg_aplicativo")
    electronic = regime.procedure.electronic_notice
    made_available = dt.date(2026, 3, 2)
    assert electronic is not None and electronic.allows("final_decision", {})
    assert not electronic.allows("first_decision", {})
    refusal = electronic.refusal_pt(
        "first_decision", {}, lambda c: regime.resolve_citation(c, made_available).render()
    )
    assert "art. 19" in refusal
    assert electronic.lapse is not None
    assert electronic.lapse.ciencia_on(made_available, {}, regime.calendar_for(Config())) == dt.date(
        2026, 3, 12
    )
    chosen = {"INT-PAT-ELECTRONIC-LAPSE": "opening_only"}
    assert electronic.lapse.ciencia_on(made_available, chosen, regime.calendar_for(Config())) is None


def test_olimpia_does_not_allow_the_electronic_channel_and_says_why() -> None:
    from lawcode import get_regime

    electronic = get_regime("olimpia_sp_escolar").procedure.electronic_notice
    assert electronic is not None and not electronic.allows("infraction", {})
    assert "art. 34" in electronic.refusal_pt("infraction", {})


def test_sao_jose_allows_the_electronic_channel_only_under_the_chosen_interpretation() -> None:
    from lawcode import get_regime

    electronic = get_regime("sao_jose_dos_campos_sp_taxi").procedure.electronic_notice
    assert electronic is not None and not electronic.allows("infraction", {})
    assert electronic.allows("infraction", {"INT-SJC-NOTICE": "also_electronic"})


def test_a_missing_electronic_notice_section_is_a_loud_error(demo_copy: Copy) -> None:
    error = error_of(demo_copy, procedure(ELECTRONIC, ""))
    assert "electronic_notice" in error.message and error.file and error.file.endswith("procedure.yaml")


def test_an_unknown_act_for_the_electronic_channel_is_refused(demo_copy: Copy) -> None:
    error = error_of(
        demo_copy, procedure("acts: [infraction, final_decision]", "acts: [infraction, citation]")
    )
    assert "electronic_notice.acts" in error.message and "final_decision" in error.message


def test_the_lapse_must_cite_or_name_an_interpretation(demo_copy: Copy) -> None:
    error = error_of(demo_copy, procedure("  lapse:\n    cite: art1\n", "  lapse:\n"))
    assert "either 'cite'" in error.message and "interpretation" in error.message


def test_an_undeclared_interpretation_is_refused_in_portuguese(demo_copy: Copy) -> None:
    error = error_of(
        demo_copy, procedure("  lapse:\n    cite: art1\n", "  lapse:\n    interpretation: INT-GEN-NOPE\n")
    )
    assert "INT-GEN-NOPE" in error.message_pt and "interpretations.yaml" in error.message_pt


def test_the_terms_text_is_required(demo_copy: Copy) -> None:
    error = error_of(demo_copy, procedure("    text: Aceito receber as notificações no portal.\n", ""))
    assert "'text'" in error.message
