"""``python -m lawcode doctor <regime>``: what a regime leaves unanswered before any screen is opened.

It is generated from the code that asks — the questions the apps ask (``lawcode.questions.APP_QUESTIONS``), the
entities whose extra facts a screen collects (``lawcode.factfields.COLLECTED_BY_APPS``), the application fields
(``lawcode.appfields``) and the citations the folder's YAML declares (``lawcode.coverage.declared_citations``) —
and those lists are held against ``apps/`` by lawcode/tests/test_doctor.py, so it cannot go stale::

    report = diagnose(get_regime("exemplo_sp_escolar"))
    report.errors        # what makes the regime unusable by the apps (exit status 1)
    report.warnings      # what the apps will do without (each says what happens on the screens)
    report.render()      # the Portuguese report the command prints

Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lawcode.citations import split_ref
from lawcode.coverage import build_matrix, declared_citations
from lawcode.factfields import COLLECTED_BY_APPS, ENTITIES
from lawcode.questions import APP_QUESTIONS
from lawcode.regime import Regime

# Declarations a question needs besides its rule (the apps read them to apply the answer).
NEEDS: dict[str, tuple[str, str]] = {
    "sanction": ("penalties", "penalties.yaml (as penalidades que a regra de sanção devolve)"),
    "document_standing": ("standing", "standing.yaml (os documentos obrigatórios e o efeito de cada um)"),
}


@dataclass(frozen=True)
class Finding:
    section: str
    text: str


@dataclass
class Report:
    regime_id: str
    errors: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    def render(self) -> str:
        lines = [f"Diagnóstico do regime {self.regime_id}"]
        if not self.errors and not self.warnings:
            return "\n".join(
                [*lines, "", "Nada a apontar: o regime responde a tudo o que as telas perguntam."]
            )
        for title, items in (
            ("ERROS (o regime não pode ser usado assim)", self.errors),
            ("Avisos", self.warnings),
        ):
            if not items:
                continue
            lines += ["", f"{title}:"]
            current = None
            for item in items:
                if item.section != current:
                    lines.append(f"  {item.section}")
                    current = item.section
                lines.append(f"    - {item.text}")
        lines += ["", f"{len(self.errors)} erro(s), {len(self.warnings)} aviso(s)."]
        return "\n".join(lines)


QUESTIONS_SECTION = "Perguntas que as telas fazem e o regime não responde"
DECLARATIONS_SECTION = "Rótulos e declarações ausentes"
CITATIONS_SECTION = "Citações declaradas que nenhuma regra usa"
FACTS_SECTION = "Fatos que as regras leem e nenhuma tela coleta"


def diagnose(regime: Regime) -> Report:
    report = Report(regime.id)
    _questions(regime, report)
    _declarations(regime, report)
    _citations(regime, report)
    _facts(regime, report)
    return report


def _questions(regime: Regime, report: Report) -> None:
    for asked in APP_QUESTIONS:
        if asked.question in regime.rules:
            continue
        text = f"{asked.question} — {asked.asked_pt}: sem resposta, {asked.unanswered_pt}"
        (report.errors if asked.required else report.warnings).append(Finding(QUESTIONS_SECTION, text))


def _declarations(regime: Regime, report: Report) -> None:
    for question, (attribute, what) in NEEDS.items():
        if question in regime.rules and getattr(regime, attribute) is None:
            report.errors.append(Finding(DECLARATIONS_SECTION, f"responde {question} mas falta {what}"))
    procedure = regime.procedure
    if procedure.clandestine.infraction is None:
        report.warnings.append(
            Finding(
                DECLARATIONS_SECTION,
                "procedure.yaml não sugere infração para o transporte clandestino (clandestine.infraction): "
                "o auto de quem não tem autorização começa sem enquadramento",
            )
        )
    if "sanction" in regime.rules and regime.penalties is not None:
        for code, entry in regime.catalog.items():
            special = procedure.procedure_for(code)
            if special is not None and not special.filing_step("first"):
                report.warnings.append(
                    Finding(
                        DECLARATIONS_SECTION,
                        f"o procedimento {special.key} da infração {code} ({entry.cite}) não tem etapa de defesa "
                        "na primeira instância: vale o prazo da pergunta appeal_deadline",
                    )
                )


def _citations(regime: Regime, report: Report) -> None:
    """YAML-declared citations that no rule, parameter, infraction or interpretation rests on (they are
    counted by coverage, but only the apps apply them), and dispositivos not_computable.yaml calls not
    computable although something implements them."""
    used: set[tuple[str, str | None]] = set()
    for spec in regime.rules.values():
        used.update(split_ref(ref, regime.acts.main) for ref in spec.cites)
    declared: dict[tuple[str, str | None], list[str]] = {}
    for file, ref in declared_citations(regime):
        declared.setdefault(split_ref(ref, regime.acts.main), []).append(file)
    for (act, dispositivo), files in sorted(
        declared.items(), key=lambda item: (item[0][0], item[0][1] or "")
    ):
        if (act, dispositivo) in used or act != regime.acts.main or dispositivo is None:
            continue
        report.warnings.append(
            Finding(
                CITATIONS_SECTION,
                f"{dispositivo}: declarado em {', '.join(sorted(set(files)))}; aplicado pelas telas, não por "
                "uma regra",
            )
        )
    for row in build_matrix(regime).rows:
        if row.implementations and row.not_computable is not None:
            report.warnings.append(
                Finding(
                    CITATIONS_SECTION,
                    f"{row.dispositivo}: not_computable.yaml o diz não computável, mas "
                    f"{row.implementations[0].render()} o implementa; retire-o de not_computable.yaml",
                )
            )


def _facts(regime: Regime, report: Report) -> None:
    schema = regime.vocabulary.facts
    for entity in ENTITIES:
        fields = schema.for_entity(entity)
        if fields and entity not in COLLECTED_BY_APPS:
            names = ", ".join(f"{key} ({spec.cite})" for key, spec in fields.items())
            report.warnings.append(
                Finding(
                    FACTS_SECTION,
                    f"facts.yaml declara campos de «{entity}» que nenhuma tela coleta: {names}; a regra os "
                    "recebe vazios",
                )
            )


GUIDE_BEGIN = "<!-- generated by lawcode.doctor.guide_tables: do not edit by hand -->"
GUIDE_END = "<!-- end of generated tables -->"


def guide_tables() -> str:
    """The guide's tables of what the apps ask and which facts they fill (docs/lawcode/new-regime.md, held by
    lawcode/tests/test_doctor.py): the same lists ``doctor`` reads."""
    from lawcode.appfields import APPLICATION_FIELDS, APPLICATION_KINDS
    from lawcode.questions import QUESTIONS

    lines = [
        GUIDE_BEGIN,
        "",
        "| question | facts | the apps ask it for | when the regime does not answer it |",
        "|---|---|---|---|",
    ]
    for asked in APP_QUESTIONS:
        facts = QUESTIONS[asked.question].facts_class.__name__
        need = " **(obrigatória)**" if asked.required else ""
        lines.append(f"| `{asked.question}`{need} | `{facts}` | {asked.asked_pt} | {asked.unanswered_pt} |")
    lines += [
        "",
        "Extra facts (`facts.yaml` `fields`) a screen collects, by entity; a field of any other entity reaches "
        "the rules empty (`doctor` lists it):",
        "",
        "| entity | collected by |",
        "|---|---|",
    ]
    lines += [f"| `{entity}` | {screen} |" for entity, screen in COLLECTED_BY_APPS.items()]
    not_collected = [entity for entity in ENTITIES if entity not in COLLECTED_BY_APPS]
    lines += [
        "",
        f"Not collected by any screen yet: {', '.join(f'`{e}`' for e in not_collected)}.",
        "",
        "Optional application fields (`facts.yaml` `application_fields`): "
        + ", ".join(f"`{f}`" for f in APPLICATION_FIELDS)
        + "; application kinds: "
        + ", ".join(f"`{k}`" for k in APPLICATION_KINDS)
        + ".",
        "",
        GUIDE_END,
    ]
    return "\n".join(lines)
