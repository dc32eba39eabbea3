"""Command line: ``python -m lawcode test|explain|coverage|interpretations|doctor|new-regime``.

    python -m lawcode test lawcode/regimes              # every scenarios/**/*.yaml below the folder
    python -m lawcode explain FILE --case NAME          # full decision trace in Portuguese
    python -m lawcode coverage --regime ID --check      # fails on dispositivos nobody implements
    python -m lawcode interpretations --regime ID       # the register of interpretations
    python -m lawcode doctor [ID] [--regime-dir DIR]    # what the apps will ask that the regime leaves open
    python -m lawcode new-regime --law FILE --id ID     # a regime folder's skeleton from its law's text

Exit status: 0 on success, 1 when a scenario fails, nothing ran, the matrix has gaps or is stale, or the
input is invalid.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from lawcode.coverage import build_matrix, check_regime, matrix_path, render_markdown, write_matrix
from lawcode.doctor import diagnose
from lawcode.errors import LawcodeError, ScenarioError
from lawcode.new_regime import new_regime
from lawcode.regime import Regime
from lawcode.registry import REGIMES_DIR, all_regimes, get_regime
from lawcode.scenarios import (
    CaseResult,
    RegimeLocator,
    ScenarioFile,
    describe_error,
    find_scenario_files,
    load_scenario_file,
    regime_from_folder,
    run_case,
    try_case,
)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the CLI and return its exit status (``out`` defaults to stdout; tests pass a buffer)."""
    stream = out if out is not None else sys.stdout
    args = _parser().parse_args(argv)
    try:
        status: int = args.handler(args, stream)
    except LawcodeError as exc:
        print(f"erro: {exc.message_pt}", file=stream)
        return 1
    return status


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lawcode", description="Ferramentas do motor de leis.")
    commands = parser.add_subparsers(dest="command", required=True)
    test = commands.add_parser("test", help="roda arquivos de cenários (YAML)")
    test.add_argument(
        "paths", nargs="+", type=Path, help="arquivos .yaml ou pastas (busca scenarios/**/*.yaml)"
    )
    test.set_defaults(handler=_cmd_test)
    explain = commands.add_parser("explain", help="mostra a decisão completa de cada caso, em português")
    explain.add_argument("file", type=Path)
    explain.add_argument("--case", dest="case_name", help="apenas o caso com este nome")
    explain.set_defaults(handler=_cmd_explain)
    coverage = commands.add_parser("coverage", help="matriz de cobertura dos dispositivos da lei")
    coverage.add_argument("--regime", help="id do regime (padrão: todos)")
    coverage.add_argument("--write", action="store_true", help="grava docs/lawcode/<regime>.md")
    coverage.add_argument(
        "--check", action="store_true", help="falha se houver lacuna ou arquivo desatualizado"
    )
    coverage.add_argument(
        "--docs",
        type=Path,
        default=None,
        help="pasta dos arquivos (padrão: docs/lawcode; com --regime-dir fora de lawcode/regimes, a pasta que "
        "contém o regime)",
    )
    coverage.add_argument("--regime-dir", type=Path, help="pasta de um regime fora de lawcode/regimes")
    coverage.set_defaults(handler=_cmd_coverage)
    interpretations = commands.add_parser("interpretations", help="lista as interpretações registradas")
    interpretations.add_argument("--regime", help="id do regime (padrão: todos)")
    interpretations.add_argument("--regime-dir", type=Path, help="pasta de um regime fora de lawcode/regimes")
    interpretations.set_defaults(handler=_cmd_interpretations)
    doctor = commands.add_parser(
        "doctor", help="o que as telas perguntarão e o regime não responde (todos os regimes sem argumento)"
    )
    doctor.add_argument("regime", nargs="?", help="id do regime (padrão: todos)")
    doctor.add_argument("--regime-dir", type=Path, help="pasta de um regime fora de lawcode/regimes")
    doctor.add_argument("--strict", action="store_true", help="falha também com avisos")
    doctor.set_defaults(handler=_cmd_doctor)
    new = commands.add_parser("new-regime", help="esqueleto da pasta de um regime a partir do texto da lei")
    new.add_argument(
        "--law", type=Path, action="append", required=True, help="texto da lei (repita: 1º = principal)"
    )
    new.add_argument("--id", dest="regime_id", required=True, help="id do regime: <município>_<uf>_<tipo>")
    new.add_argument(
        "--out", type=Path, default=None, help="pasta onde criar <id>/ (padrão: lawcode/regimes)"
    )
    new.add_argument("--municipality", help="nome do município (padrão: o encontrado no texto)")
    new.set_defaults(handler=_cmd_new_regime)
    return parser


# ---------------------------------------------------------------------------------------------------- test


def _cmd_test(args: argparse.Namespace, out: TextIO) -> int:
    files = find_scenario_files(args.paths)
    locator = RegimeLocator()
    passed = failed = 0
    for path in files:
        try:
            scenario = load_scenario_file(path)
        except ScenarioError as exc:
            print(f"FAIL {_display(path)} — {exc.message_pt}", file=out)
            failed += 1
            continue
        for result in (run_case(case, locator) for case in scenario.cases):
            print(_result_line(scenario, result), file=out)
            passed, failed = (passed + 1, failed) if result.passed else (passed, failed + 1)
    print(f"{passed} passed, {failed} failed", file=out)
    if passed + failed == 0:
        shown = " ".join(str(path) for path in args.paths)
        print(f"erro: nenhum cenário encontrado em {shown} (procuro scenarios/**/*.yaml)", file=out)
        return 1
    return 1 if failed else 0


def _result_line(scenario: ScenarioFile, result: CaseResult) -> str:
    label = f"{scenario.regime} {_display(scenario.path)}::{result.case.name}"
    if result.passed:
        return f"PASS {label}"
    return f"FAIL {label} — {'; '.join(result.failures)}"


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


# ---------------------------------------------------------------------------------------------------- explain


def _cmd_explain(args: argparse.Namespace, out: TextIO) -> int:
    scenario = load_scenario_file(args.file)
    cases = [case for case in scenario.cases if args.case_name in (None, case.name)]
    if not cases:
        names = ", ".join(case.name for case in scenario.cases)
        print(f"erro: caso {args.case_name!r} não existe em {args.file}; casos: {names}", file=out)
        return 1
    status = 0
    locator = RegimeLocator()
    for case in cases:
        print(f"=== {scenario.regime} {_display(case.file)}::{case.name} (linha {case.line})", file=out)
        decision, error = try_case(case, locator)
        if decision is not None:
            print(decision.explain(), file=out)
        elif error is not None:
            print(f"Erro — {describe_error(error)}", file=out)
            status = status if case.expect.error else 1
        print(file=out)
    return status


# ---------------------------------------------------------------------------------------------------- coverage


def _selected_regimes(args: argparse.Namespace) -> list[Regime]:
    if args.regime_dir is not None:
        return [regime_from_folder(args.regime_dir)]
    if args.regime is not None:
        return [get_regime(args.regime)]
    return all_regimes()


def _cmd_coverage(args: argparse.Namespace, out: TextIO) -> int:
    status = 0
    docs = _docs_dir(args)
    for regime in _selected_regimes(args):
        if args.write:
            print(f"gravado {_display(write_matrix(regime, docs))}", file=out)
        if args.check:
            status = max(status, _check_coverage(regime, docs, out))
        if not args.write and not args.check:
            print(render_markdown(build_matrix(regime)), file=out)
    return status


def _docs_dir(args: argparse.Namespace) -> Path | None:
    """Where the coverage page goes: --docs; else, for a regime folder outside lawcode/regimes, next to it (so
    trying a regime elsewhere never writes into the repository); else docs/lawcode."""
    docs: Path | None = args.docs
    regime_dir: Path | None = args.regime_dir
    if docs is not None or regime_dir is None:
        return docs
    folder = regime_dir.resolve()
    return None if folder.parent == REGIMES_DIR.resolve() else folder.parent


def _check_coverage(regime: Regime, docs: Path | None, out: TextIO) -> int:
    problems = check_regime(regime, docs)
    for problem in problems:
        print(f"FAIL {regime.id} — {problem}", file=out)
    if problems:
        return 1
    rows = len(build_matrix(regime).rows)
    print(
        f"OK {regime.id} — {rows} dispositivos cobertos; {_display(matrix_path(regime.id, docs))} em dia",
        file=out,
    )
    return 0


# ---------------------------------------------------------------------------------------------------- interpretations


def _cmd_interpretations(args: argparse.Namespace, out: TextIO) -> int:
    for regime in _selected_regimes(args):
        print(f"== {regime.id} — {regime.name} ({len(regime.interpretations)} interpretações)", file=out)
        for int_id, item in sorted(regime.interpretations.items()):
            print(f"\n{int_id}: {item.question}", file=out)
            for key, text in item.options.items():
                marker = " (padrão)" if key == item.default else ""
                print(f"  - {key}{marker}: {text}", file=out)
            print(f"  fundamento: {', '.join(item.basis) or '—'}", file=out)
            print(f"  razão: {item.rationale}", file=out)
        print(file=out)
    return 0


# ---------------------------------------------------------------------------------------------------- doctor


def _cmd_doctor(args: argparse.Namespace, out: TextIO) -> int:
    if args.regime_dir is not None:
        regimes = [regime_from_folder(args.regime_dir)]
    else:
        regimes = [get_regime(args.regime)] if args.regime else all_regimes()
    status = 0
    for regime in regimes:
        report = diagnose(regime)
        print(report.render(), file=out)
        print(file=out)
        if report.errors or (args.strict and report.warnings):
            status = 1
    return status


# ---------------------------------------------------------------------------------------------------- new-regime


def _cmd_new_regime(args: argparse.Namespace, out: TextIO) -> int:
    for line in new_regime(args.law, args.regime_id, args.out or REGIMES_DIR, args.municipality):
        print(line, file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
