"""``python -m lawcode doctor``: generated from the lists of what the apps ask, and those lists held against the
apps' source here (read as text: lawcode stays free of Django), so neither can go stale."""

from __future__ import annotations

import ast
import copy
import io
import re
from pathlib import Path

import pytest

from lawcode.__main__ import main
from lawcode.doctor import FACTS_SECTION, GUIDE_BEGIN, GUIDE_END, QUESTIONS_SECTION, diagnose, guide_tables
from lawcode.factfields import COLLECTED_BY_APPS
from lawcode.questions import APP_QUESTIONS, QUESTIONS
from lawcode.regime import Regime
from lawcode.registry import all_regimes, get_regime

APPS = Path(__file__).resolve().parents[2] / "apps"


def _app_sources() -> list[Path]:
    if not APPS.is_dir():
        pytest.skip("apps/ is not beside lawcode/ (lawcode installed alone)")
    return [p for p in APPS.rglob("*.py") if "tests" not in p.parts and "migrations" not in p.parts]


def _string_literals(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def test_every_question_the_apps_ask_is_listed_and_every_listed_one_is_asked() -> None:
    asked: set[str] = set()
    for path in _app_sources():
        asked |= _string_literals(path) & set(QUESTIONS)
    listed = {q.question for q in APP_QUESTIONS}
    assert asked - listed == set(), "asked by apps/ but missing from lawcode.questions.APP_QUESTIONS"
    assert listed - asked == set(), "listed in APP_QUESTIONS but no code in apps/ asks it"


def test_the_entities_whose_facts_a_screen_collects_are_the_listed_ones() -> None:
    pattern = re.compile(r"""(?:extra_schema\([^)]*|for_entity\()\s*["']([a-z_]+)["']""")
    collected: set[str] = set()
    for path in _app_sources():
        collected.update(pattern.findall(path.read_text(encoding="utf-8")))
    assert collected == set(COLLECTED_BY_APPS)


@pytest.mark.parametrize("regime", all_regimes(), ids=lambda r: r.id)
def test_doctor_passes_for_every_shipped_regime(regime: Regime) -> None:
    report = diagnose(regime)
    assert report.errors == []


def test_doctor_names_an_unanswered_question_and_what_the_screen_does() -> None:
    report = diagnose(get_regime("olimpia_sp_escolar"))
    texts = [f.text for f in report.warnings if f.section == QUESTIONS_SECTION]
    assert any(t.startswith("notice_limit — ") and "nenhum prazo" in t for t in texts)


def test_doctor_names_facts_no_screen_collects() -> None:
    report = diagnose(get_regime("sao_jose_dos_campos_sp_taxi"))
    facts = [f.text for f in report.warnings if f.section == FACTS_SECTION]
    assert any("«infraction»" in t and "authority_suspension_days (art22_incIV)" in t for t in facts)


def test_a_regime_not_answering_a_required_question_fails() -> None:
    regime = copy.copy(get_regime("olimpia_sp_escolar"))
    object.__setattr__(regime, "rules", {k: v for k, v in regime.rules.items() if k != "vehicle_permit"})
    report = diagnose(regime)
    assert [f.text.split(" — ")[0] for f in report.errors] == ["vehicle_permit"]
    assert "vehicle_permit" in get_regime("olimpia_sp_escolar").rules  # the loaded regime is untouched


def test_the_command_prints_the_report_and_exits_zero_without_errors() -> None:
    out = io.StringIO()
    assert main(["doctor", "patrocinio_mg_aplicativo"], out) == 0
    text = out.getvalue()
    assert text.startswith("Diagnóstico do regime patrocinio_mg_aplicativo")
    assert "0 erro(s)" in text
    assert main(["doctor", "patrocinio_mg_aplicativo", "--strict"], io.StringIO()) == 1


GUIDE = Path(__file__).resolve().parents[2] / "docs" / "lawcode" / "new-regime.md"


def test_the_guide_shows_the_tables_doctor_reads() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    start, end = text.index(GUIDE_BEGIN), text.index(GUIDE_END) + len(GUIDE_END)
    assert text[start:end] == guide_tables(), "regenerate the tables from lawcode.doctor.guide_tables()"


def test_the_guide_catalogues_every_building_block() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    catalogue = text[text.index("## 6b. Building blocks") : text.index("## 6c.")]
    blocks = Path(__file__).resolve().parents[1] / "blocks"
    modules = {p.stem for p in blocks.glob("*.py") if p.stem != "__init__"}
    missing = {name for name in modules if f"| `{name}` |" not in catalogue}
    assert missing == set()
