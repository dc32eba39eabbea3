"""Coverage matrix: every dispositivo of a regime's law text → what implements it, generated from the code.

For each act of the regime that carries a text (its law, in text order, articles with their paragraphs,
incisos and alíneas), the matrix lists the rules (``@rule(cites=...)``), procedures (rules answering a
deadline/procedure question), parameters (the ``cite`` of each value), catalog infractions, interpretations
(their ``basis``) and the declarations of the folder's YAML files (procedure.yaml, penalties.yaml,
standing.yaml, documents.yaml, units.yaml, facts.yaml, labels.yaml, inspection_checklist.yaml: every ``cite`` they
hold) that
rest on it — or the reason in ``not_computable.yaml`` why nothing can
compute it. A dispositivo with neither is a **gap**::

    matrix = build_matrix(get_regime("exemplo_sp_escolar"))
    matrix.gaps                      # rows nobody implements
    render_markdown(matrix)          # docs/lawcode/exemplo_sp_escolar.md
    check_regime(regime, docs_dir)   # problems: gaps, plus a stale or missing committed file

The rendering is deterministic, so the committed Markdown can be compared with a fresh one (``--check``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path

from lawcode.acts import Act
from lawcode.citations import split_ref
from lawcode.questions import COMPUTED, QUESTIONS
from lawcode.regime import Regime
from lawcode.texts import ORIGINAL, Wording

SOURCE_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DOCS_DIR = SOURCE_ROOT / "docs" / "lawcode"
NOT_COMPUTABLE = "não computável"

# Order in which implementing items are listed in a row (and their Portuguese names).
KIND_ORDER = ("regra", "procedimento", "parâmetro", "infração", "interpretação", "declaração")


@dataclass(frozen=True, order=True)
class Implementation:
    """One item resting on a dispositivo: its kind (Portuguese) and its name."""

    kind: str
    name: str
    detail: str = ""

    def sort_key(self) -> tuple[int, str, str]:
        return (KIND_ORDER.index(self.kind), self.name, self.detail)

    def render(self) -> str:
        return f"{self.kind} `{self.name}`" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True)
class CoverageRow:
    act_key: str
    dispositivo: str
    label: str
    wording: str
    implementations: tuple[Implementation, ...]
    not_computable: str | None

    @property
    def is_gap(self) -> bool:
        return not self.implementations and self.not_computable is None


@dataclass(frozen=True)
class ActCoverage:
    act_key: str
    title: str
    rows: tuple[CoverageRow, ...]


@dataclass(frozen=True)
class CoverageMatrix:
    regime_id: str
    regime_name: str
    acts: tuple[ActCoverage, ...]

    @property
    def rows(self) -> list[CoverageRow]:
        return [row for act in self.acts for row in act.rows]

    @property
    def gaps(self) -> list[CoverageRow]:
        return [row for row in self.rows if row.is_gap]


# ----------------------------------------------------------------------------------------------------
# Building the matrix
# ----------------------------------------------------------------------------------------------------


def build_matrix(regime: Regime) -> CoverageMatrix:
    """The coverage matrix of ``regime``, from its rules, parameters, catalog, interpretations and lists."""
    index = implementation_index(regime)
    not_computable = {
        split_ref(ref, regime.acts.main): reason for ref, reason in regime.not_computable.items()
    }
    acts = tuple(
        ActCoverage(act.key, act.title, tuple(_rows(act, index, not_computable))) for act in _own_acts(regime)
    )
    return CoverageMatrix(regime.id, regime.name, acts)


def _own_acts(regime: Regime) -> list[Act]:
    """The acts whose text the regime carries (its law first); external acts are cited, not covered."""
    own = [act for act in regime.acts.acts.values() if act.text is not None]
    return sorted(own, key=lambda act: (act.key != regime.acts.main, act.key))


def _rows(
    act: Act,
    index: Mapping[tuple[str, str | None], set[Implementation]],
    not_computable: Mapping[tuple[str, str | None], str],
) -> Iterable[CoverageRow]:
    for dispositivo in act.all_ids_including_parents():
        key = (act.key, dispositivo)
        yield CoverageRow(
            act_key=act.key,
            dispositivo=dispositivo,
            label=act.label(dispositivo),
            wording=wording_summary(act, dispositivo),
            implementations=tuple(sorted(index.get(key, ()), key=Implementation.sort_key)),
            not_computable=not_computable.get(key),
        )


def implementation_index(regime: Regime) -> dict[tuple[str, str | None], set[Implementation]]:
    """(act key, dispositivo) → every item of the regime that cites it."""
    index: dict[tuple[str, str | None], set[Implementation]] = defaultdict(set)
    for ref, item in _cited_items(regime):
        index[split_ref(ref, regime.acts.main)].add(item)
    return index


def _cited_items(regime: Regime) -> Iterable[tuple[str, Implementation]]:
    for spec in regime.rules.values():
        kind = "procedimento" if QUESTIONS[spec.question].outcomes == COMPUTED else "regra"
        where = f"{_short_module(spec.module, regime.package)}.{spec.function.__name__}"
        yield from ((ref, Implementation(kind, spec.question, where)) for ref in spec.cites)
    for name, parameter in regime.parameters.items():
        yield from ((value.cite, Implementation("parâmetro", name)) for value in parameter.values)
    for code, entry in regime.catalog.items():
        yield entry.cite, Implementation("infração", code)
    for int_id, interpretation in regime.interpretations.items():
        yield from ((ref, Implementation("interpretação", int_id)) for ref in interpretation.basis)
    for file, ref in declared_citations(regime):
        yield ref, Implementation("declaração", file)


# Fields that hold a name, not a citation, although they are shaped like one (the engine's instance name).
_NOT_CITATIONS = frozenset({"engine_instance"})


def declared_citations(regime: Regime) -> list[tuple[str, str]]:
    """(file, reference) for every citation the folder's YAML declarations hold, found by walking the loaded
    declarations (any field named ``cite``, ``cites`` or ``*_cite``), so a new declaration is counted without
    touching this module."""
    from lawcode.checklists import CHECKLIST_FILE, load_checklist

    sources: list[tuple[str, object]] = [("procedure.yaml", regime.procedure)]
    if regime.penalties is not None:
        sources.append(("penalties.yaml", regime.penalties.kinds))
    if regime.standing is not None:
        sources.append(("standing.yaml", regime.standing))
    sources.append(("documents.yaml", regime.vocabulary.documents))
    sources.append(("units.yaml", regime.vocabulary.units))
    sources.append(("facts.yaml", getattr(regime.vocabulary, "facts", None)))
    sources.append(("labels.yaml", getattr(regime.vocabulary, "labels", None)))
    checklist = regime.folder / CHECKLIST_FILE
    if checklist.is_file():
        sources.append((CHECKLIST_FILE, load_checklist(checklist, regime.citer, regime.id)))
    found: set[tuple[str, str]] = set()
    for file, value in sources:
        found.update((file, ref) for ref in _walk_cites(value, set()))
    return sorted(found)


def _walk_cites(value: object, seen: set[int]) -> Iterable[str]:
    if id(value) in seen or value is None or isinstance(value, (str, int, float, bool)):
        return
    seen.add(id(value))
    if isinstance(value, Mapping):
        for item in value.values():
            yield from _walk_cites(item, seen)
        return
    if isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _walk_cites(item, seen)
        return
    if not is_dataclass(value):
        return
    for spec in fields(value):
        if spec.name in _NOT_CITATIONS or spec.name.startswith("_"):
            continue
        item = getattr(value, spec.name)
        if spec.name in ("cite", "cites") or spec.name.endswith("_cite"):
            refs = [item] if isinstance(item, str) else list(item) if isinstance(item, (list, tuple)) else []
            yield from (ref for ref in refs if isinstance(ref, str) and ref)
        else:
            yield from _walk_cites(item, seen)


def _short_module(module: str, package: str) -> str:
    return module[len(package) + 1 :] if module.startswith(package + ".") else module


def wording_summary(act: Act, dispositivo: str) -> str:
    """ "original" for a never-amended dispositivo; else each wording with the dates it was in force."""
    assert act.text is not None
    versions = act.text.get(dispositivo).versions
    if len(versions) == 1 and versions[0].version_key == ORIGINAL:
        return "original"
    return "; ".join(_wording_label(act, wording) for wording in versions)


def _wording_label(act: Act, wording: Wording) -> str:
    name = (
        "original"
        if wording.version_key == ORIGINAL
        else f"redação da {act.version_cite_as(wording.version_key)}"
    )
    start = wording.valid_from.strftime("%d/%m/%Y")
    if wording.valid_until is None:
        return f"{name} (desde {start})"
    return f"{name} ({start} a {wording.valid_until.strftime('%d/%m/%Y')})"


# ----------------------------------------------------------------------------------------------------
# Markdown and the check
# ----------------------------------------------------------------------------------------------------


def render_markdown(matrix: CoverageMatrix) -> str:
    """The matrix as a Portuguese Markdown page (deterministic: same code → same bytes)."""
    rows = matrix.rows
    computable = sum(1 for row in rows if row.implementations)
    excluded = sum(1 for row in rows if not row.implementations and row.not_computable is not None)
    lines = [
        f"# Matriz de cobertura — {matrix.regime_name}",
        "",
        f"Regime `{matrix.regime_id}`. Página gerada a partir do código por "
        f"`python -m lawcode coverage --regime {matrix.regime_id} --write`; não edite à mão.",
        "",
        f"{len(rows)} dispositivos: {computable} implementados, {excluded} não computáveis, "
        f"{len(matrix.gaps)} lacunas.",
    ]
    for act in matrix.acts:
        lines += [
            "",
            f"## {act.title}",
            "",
            "| Dispositivo | Id | Redação | Implementado por |",
            "|---|---|---|---|",
        ]
        lines += [_table_row(row) for row in act.rows]
    return "\n".join(lines) + "\n"


def _table_row(row: CoverageRow) -> str:
    return (
        f"| {_cell(row.label)} | `{row.dispositivo}` | {_cell(row.wording)} | {_cell(_implemented_by(row))} |"
    )


def _implemented_by(row: CoverageRow) -> str:
    if row.implementations:
        return "; ".join(item.render() for item in row.implementations)
    if row.not_computable is not None:
        return f"{NOT_COMPUTABLE} — {row.not_computable}"
    return "**LACUNA** — nenhuma regra, parâmetro, infração ou interpretação; nem justificativa"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def matrix_path(regime_id: str, docs_dir: Path | None = None) -> Path:
    return (docs_dir or DEFAULT_DOCS_DIR) / f"{regime_id}.md"


def write_matrix(regime: Regime, docs_dir: Path | None = None) -> Path:
    """Write docs/lawcode/<regime_id>.md and return its path."""
    path = matrix_path(regime.id, docs_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_markdown(build_matrix(regime)), encoding="utf-8")
    return path


def check_regime(regime: Regime, docs_dir: Path | None = None) -> list[str]:
    """Problems that must fail CI: every gap (with what to do), and a missing or stale committed matrix."""
    matrix = build_matrix(regime)
    problems = [_gap_message(regime, row) for row in matrix.gaps]
    path = matrix_path(regime.id, docs_dir)
    expected = render_markdown(matrix)
    command = f"python -m lawcode coverage {_selector(regime)} --write"
    if not path.is_file():
        problems.append(f"{_shown(path)} não existe; gere-o com {command}")
    elif path.read_text(encoding="utf-8") != expected:
        problems.append(f"{_shown(path)} está desatualizado em relação ao código; regenere-o com {command}")
    return problems


def _selector(regime: Regime) -> str:
    """How the CLI names this regime: by id inside lawcode/regimes/, by its folder anywhere else."""
    inside = regime.folder.resolve().parent == (SOURCE_ROOT / "lawcode" / "regimes").resolve()
    return f"--regime {regime.id}" if inside else f"--regime-dir {_shown(regime.folder)}"


def _gap_message(regime: Regime, row: CoverageRow) -> str:
    ref = row.dispositivo if row.act_key == regime.acts.main else f"{row.act_key}:{row.dispositivo}"
    return (
        f"lacuna: {ref} ({row.label}) não é implementado por nada nem consta de "
        f"{_shown(regime.folder / 'not_computable.yaml')}; cite-o numa regra, parâmetro, infração ou interpretação, "
        "ou registre o motivo de não ser computável"
    )


def _shown(path: Path) -> str:
    """Paths in messages relative to the repository when they are inside it."""
    resolved = path.resolve()
    return str(resolved.relative_to(SOURCE_ROOT)) if resolved.is_relative_to(SOURCE_ROOT) else str(path)
