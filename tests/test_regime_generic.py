"""Nothing regime-specific outside lawcode/regimes/: no regime id and no branch on one in the apps, the project,
the templates or the engine core. Demo seeders, the demo/test casebook, tests and migrations may name regimes.

A new municipality is a folder; if this test fails, what the failing line knows belongs in that folder (its
procedure.yaml, catalog, parameters…), read generically through ``lawcode.get_regime(regime_id)``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lawcode.registry import regime_ids

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("apps", "outorga", "templates", "lawcode")
SUFFIXES = {".py", ".html", ".txt", ".js", ".yaml", ".yml", ".json", ".md"}
# Files that may name regimes: they build demo data or tests for them.
DEMO_SUPPORT = {"demo.py", "casebook.py"}
# A comparison of a regime (id) with a literal, in Python or in a Django template.
BRANCH = re.compile(r"""\bregime(?:_id)?\s*(?:==|!=|\bin\b|\bnot in\b)\s*[\(\[\{]?\s*["']""")


def _exempt(path: Path) -> bool:
    relative = path.relative_to(ROOT)
    parts = relative.parts
    return (
        parts[:2] == ("lawcode", "regimes")
        or "tests" in parts
        or "migrations" in parts
        or path.name in DEMO_SUPPORT
        or path.name.startswith("test_")
        or path.name == "conftest.py"
    )


def scanned_files() -> list[Path]:
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and "__pycache__" not in path.parts
                and not _exempt(path)
            ):
                found.append(path)
    return found


def offences(paths: list[Path], ids: list[str], root: Path = ROOT) -> list[str]:
    """``file:line: text`` for every line naming a regime id or branching on a regime."""
    named = re.compile("|".join(re.escape(regime_id) for regime_id in ids))
    out = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if named.search(line) or BRANCH.search(line):
                out.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return out


def test_the_registry_has_regimes_to_look_for() -> None:
    assert regime_ids()


def test_no_regime_id_or_regime_branch_outside_the_regime_folders() -> None:
    found = offences(scanned_files(), regime_ids())
    assert found == [], "regime-specific code outside lawcode/regimes/:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        '{% if regime == "olimpia_sp_escolar" %}',
        "if case.regime_id in ('x_sp_taxi', 'y'):",
        'TABLE = {"patrocinio_mg_aplicativo": "art11_parun"}',
        "if regime_id != 'some_regime':",
    ],
)
def test_the_guard_catches_what_it_is_for(tmp_path: Path, line: str) -> None:
    path = tmp_path / "probe.py"
    path.write_text(line + "\n", encoding="utf-8")
    assert offences([path], ["olimpia_sp_escolar", "patrocinio_mg_aplicativo"], root=tmp_path)


def test_generic_code_passes(tmp_path: Path) -> None:
    path = tmp_path / "probe.py"
    path.write_text(
        "regime = lawcode.get_regime(case.regime_id)\nif regime.procedure.traffic_only_guard.present:\n"
    )
    assert offences([path], ["olimpia_sp_escolar"], root=tmp_path) == []


@pytest.mark.parametrize(
    "relative",
    [
        "apps/x/demo.py",
        "apps/licensing/casebook.py",
        "apps/x/tests/test_y.py",
        "apps/x/migrations/0001_initial.py",
        "lawcode/regimes/a/rules/b.py",
        "lawcode/tests/test_registry.py",
    ],
)
def test_demo_seeders_tests_and_migrations_are_exempt(relative: str) -> None:
    assert _exempt(ROOT / relative)


def test_app_and_engine_code_is_scanned() -> None:
    assert not _exempt(ROOT / "apps" / "dueprocess" / "procedure.py")
    assert not _exempt(ROOT / "lawcode" / "registry.py")


# The names a law gives its instrument and its bodies. They live in the regime's labels.yaml (lawcode/labels.py)
# and reach the screens through it: a town whose law issues a "Termo de Permissão" judged by a collegiate board
# must never read "Alvará" or "JARI". URL slugs and parameters without accents ("alvaras/", "?alvara=") are
# addresses, not names, and stay.
LEGAL_NAME = re.compile(
    r"[Aa]lvar[áÁ]|ALVAR[ÁA]S?\b|\bJARI\b|\bJunta\b|[Aa]utoridade julgadora|"
    r"(?i:termos? de (permiss|autoriza))|\bAMM\b|(?i:autoridade julgadora)"
)
LEGAL_NAME_SCANNED = ("apps", "templates", "outorga")


def legal_name_offences(paths: list[Path], root: Path = ROOT) -> list[str]:
    """``file:line: text`` for every line naming an instrument or a body the way one law does."""
    out = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if LEGAL_NAME.search(line):
                out.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return out


def test_no_legal_name_of_one_law_in_the_apps_or_templates() -> None:
    paths = [p for p in scanned_files() if p.relative_to(ROOT).parts[0] in LEGAL_NAME_SCANNED]
    found = legal_name_offences(paths)
    assert found == [], (
        "a legal name hard-coded outside lawcode/regimes/ (declare it in the regime's labels.yaml and read it "
        "through apps.tenancy.regimes / the |instrument filter):\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    "line",
    [
        "<h1>Alvarás</h1>",
        'label="Número do alvará"',
        'JUDGE = "Junta de recursos (2ª instância / JARI)"',
        "    JUDGING_AUTHORITY = 'judging_authority', 'Autoridade julgadora (1ª instância)'",
        "canvas.drawString(x, y, 'TERMO DE PERMISSÃO')",
        "title = f'Termo de Permissão {permit.number}'",
        "Baixar a AMM (PDF)",
    ],
)
def test_the_legal_name_guard_catches_what_it_is_for(tmp_path: Path, line: str) -> None:
    path = tmp_path / "probe.html"
    path.write_text(line + "\n", encoding="utf-8")
    assert legal_name_offences([path], root=tmp_path)


@pytest.mark.parametrize(
    "line",
    [
        'path(f"{PREFIX}alvaras/<int:pk>/", views.permit_detail)',
        "<h1>{{ municipality|instrument:'plural' }}</h1>",
        "?municipio={{ town }}&alvara={{ number|urlencode }}",
        "juntando a documentação",
    ],
)
def test_addresses_and_regime_lookups_pass_the_legal_name_guard(tmp_path: Path, line: str) -> None:
    path = tmp_path / "probe.html"
    path.write_text(line + "\n", encoding="utf-8")
    assert legal_name_offences([path], root=tmp_path) == []
