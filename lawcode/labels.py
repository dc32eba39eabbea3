"""What a regime's law calls things, declared in its ``labels.yaml`` (required): the instrument it issues, the
bodies that judge each instance, the vocabulary of the judging act, and the application kinds the law has.

The apps print none of these names themselves: every screen, PDF, e-mail and API answer reads them from here,
so a law that issues a "Termo de Permissão" judged by a collegiate board never shows "Alvará" or "JARI"::

    instrument:
      name: Alvará de Permissão          # as the law names it, capitalised
      plural: Alvarás de Permissão
      short: alvará                      # in running text: "o alvará 0001/2026 vence em …"
      short_plural: alvarás
      gender: m                          # m/f: "o alvará", "a autorização"
      cite: art5
      clauses:                           # printed on the instrument, each with its article
        - {text: Intransferível., cite: art8}
      lookup: Alvará de Permissão em vigor   # the public lookup's answer for a regular vehicle
    bodies:                              # one per instance of procedure.yaml
      first:
        name: Diretor do Departamento de Transportes Públicos
        kind: single                     # single | collegiate
        decision: single                 # single | vote | rapporteur
        cite: art22_par1
      second:
        name: Junta Administrativa de Recursos
        kind: collegiate
        members:                         # who sits, by origin (omit with composition_absent when the law is silent)
          - {origin: Poder Executivo, count: 3}
          - {origin: Representantes dos motoristas, count: 2}
        quorum: 3                        # members present for a valid decision
        decision: vote
        cite: art18
    verdicts:
      judges: defence                    # defence: the defence/appeal is judged; auto: the auto is judged
      condemn: Recurso improcedente — penalidade mantida
      acquit: Recurso procedente — auto cancelado
      cite: art35
    application_kinds:                   # the requerimentos the law has, each with its article
      vehicle_permit: {label: Alvará de veículo, cite: art5}
    deadlines:                           # a computed deadline as the law words it (required for notice_limit)
      notice_limit: {label: Prazo para a Notificação de Penalidade, cite: art19_par1}

A collegiate body whose law gives its members records one vote per member present (apps.dueprocess.votes
checks the quorum, the origins and the majority); one whose law is silent (``composition_absent``) may record
votes, checked for their majority only.

A missing section, an unknown key, a collegiate body without its composition or with a quorum larger than it,
or an undeclared citation is a RegimeDefinitionError naming the file and line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lawcode.appfields import APPLICATION_KINDS
from lawcode.citations import Citer
from lawcode.errors import RegimeDefinitionError
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

BODY_KINDS = ("single", "collegiate")
DECISIONS = ("single", "vote", "rapporteur")
JUDGED = ("defence", "auto")
CONTRACTIONS = {
    "a": {"o": "ao", "a": "à"},
    "de": {"o": "do", "a": "da"},
    "em": {"o": "no", "a": "na"},
    "por": {"o": "pelo", "a": "pela"},
}
_INSTRUMENT_KEYS = ("name", "plural", "short", "short_plural", "gender", "cite", "clauses", "lookup")
_BODY_KEYS = ("name", "kind", "members", "composition_absent", "quorum", "decision", "cite", "note")
_VERDICT_KEYS = ("judges", "condemn", "acquit", "cite")


@dataclass(frozen=True)
class Clause:
    text: str
    cite: str


@dataclass(frozen=True)
class Instrument:
    """The act the law issues for a vehicle (alvará, termo, autorização…), as the law names it."""

    name: str = "Outorga"
    plural: str = "Outorgas"
    short: str = "outorga"
    short_plural: str = "outorgas"
    gender: str = "f"
    cite: str = ""
    clauses: tuple[Clause, ...] = ()
    lookup: str = "Outorga em vigor"

    @property
    def article(self) -> str:
        """ "o" or "a", for running text ("o alvará", "a autorização")."""
        return "o" if self.gender == "m" else "a"

    def the(self, number: str = "", *, capital: bool = False, prep: str = "") -> str:
        """ "o alvará 0001/2026", "a autorização" — the instrument in running text, with its article, contracted
        with a preposition when one is given ("ao alvará", "da autorização", "pelo termo")."""
        article = CONTRACTIONS[prep][self.article] if prep else self.article
        text = f"{article} {self.short}" + (f" {number}" if number else "")
        return text[:1].upper() + text[1:] if capital else text

    @property
    def title(self) -> str:
        """The short name capitalised, for a heading or a subject line ("Alvará de permissão 0001/2026")."""
        return self.short[:1].upper() + self.short[1:]


@dataclass(frozen=True)
class Member:
    origin: str
    count: int


@dataclass(frozen=True)
class Body:
    """Who judges one instance: a single authority or a collegiate board with its members and quorum."""

    instance: str
    name: str
    kind: str
    decision: str
    cite: str
    members: tuple[Member, ...] = ()
    composition_absent: str = ""
    quorum: int | None = None

    @property
    def collegiate(self) -> bool:
        return self.kind == "collegiate"

    @property
    def seats(self) -> int:
        return sum(member.count for member in self.members)


@dataclass(frozen=True)
class Verdicts:
    """How the judging act's outcomes are worded: about the defence, or about the auto."""

    judges: str = "defence"
    condemn: str = ""
    acquit: str = ""
    cite: str = ""


@dataclass(frozen=True)
class ApplicationKind:
    key: str
    label: str
    cite: str


@dataclass(frozen=True)
class Deadline:
    question: str
    label: str
    cite: str


# Deadlines whose meaning differs from law to law (which notice the limit is for): a regime answering one of
# these questions must word it in labels.yaml.
WORDED_DEADLINES = ("notice_limit",)


@dataclass(frozen=True)
class Labels:
    instrument: Instrument = field(default_factory=Instrument)
    bodies: Mapping[str, Body] = field(default_factory=dict)
    verdicts: Verdicts = field(default_factory=Verdicts)
    application_kinds: Mapping[str, ApplicationKind] = field(default_factory=dict)
    deadlines: Mapping[str, Deadline] = field(default_factory=dict)
    source: str = ""

    def deadline_label(self, question: str) -> str:
        """The deadline as the law words it; the question's generic description when the law does not."""
        declared = self.deadlines.get(question)
        if declared is not None:
            return declared.label
        from lawcode.questions import QUESTIONS

        return QUESTIONS[question].description_pt

    def body(self, instance: str) -> Body:
        """The body judging ``instance``; RegimeDefinitionError when labels.yaml does not declare it."""
        found = self.bodies.get(instance)
        if found is None:
            raise RegimeDefinitionError(
                f"labels.yaml declares no body for the instance {instance!r}",
                message_pt=f"labels.yaml não declara quem julga a instância {instance!r}",
                file=self.source or None,
            )
        return found


def _text(node: YamlMap, key: str, what: str) -> str:
    value = node[key]
    if not isinstance(value, str) or not value.strip():
        raise RegimeDefinitionError(
            f"{what}.{key} must be a non-empty text",
            message_pt=f"{what}.{key} deve ser um texto não vazio",
            file=node.source,
            line=node.line_of(key),
        )
    return value.strip()


def _choice(node: YamlMap, key: str, allowed: tuple[str, ...], what: str) -> str:
    value = _text(node, key, what)
    if value not in allowed:
        raise RegimeDefinitionError(
            f"{what}.{key} must be one of {', '.join(allowed)} (found {value!r})",
            message_pt=f"{what}.{key} deve ser um de {', '.join(allowed)}",
            file=node.source,
            line=node.line_of(key),
        )
    return value


def _count(node: YamlMap, key: str, what: str) -> int:
    value = node[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise RegimeDefinitionError(
            f"{what}.{key} must be a whole number ≥ 1",
            message_pt=f"{what}.{key} deve ser um número inteiro maior que zero",
            file=node.source,
            line=node.line_of(key),
        )
    return value


def _instrument(node: YamlMap, citer: Citer) -> Instrument:
    what = "labels.yaml instrument"
    reject_unknown_keys(node, _INSTRUMENT_KEYS, what)
    require_keys(node, ("name", "plural", "short", "short_plural", "gender", "cite", "lookup"), what)
    clauses: list[Clause] = []
    raw = node.get("clauses") or YamlList()
    if not isinstance(raw, YamlList):
        raise RegimeDefinitionError(
            f"{what}.clauses must be a list of {{text, cite}}",
            message_pt=f"{what}.clauses deve ser uma lista de {{text, cite}}",
            file=node.source,
            line=node.line_of("clauses"),
        )
    for index, item in enumerate(raw):
        clause = require_map(item, node.source, f"{what}.clauses item", raw.line_at(index))
        reject_unknown_keys(clause, ("text", "cite"), f"{what}.clauses item")
        require_keys(clause, ("text", "cite"), f"{what}.clauses item")
        ref = citer.validate(clause["cite"], file=node.source, line=clause.line_of("cite"))
        clauses.append(Clause(_text(clause, "text", f"{what}.clauses item"), ref))
    return Instrument(
        name=_text(node, "name", what),
        plural=_text(node, "plural", what),
        short=_text(node, "short", what),
        short_plural=_text(node, "short_plural", what),
        gender=_choice(node, "gender", ("m", "f"), what),
        cite=citer.validate(node["cite"], file=node.source, line=node.line_of("cite")),
        clauses=tuple(clauses),
        lookup=_text(node, "lookup", what),
    )


def _body(instance: str, node: YamlMap, citer: Citer) -> Body:
    what = f"labels.yaml bodies.{instance}"
    reject_unknown_keys(node, _BODY_KEYS, what)
    require_keys(node, ("name", "kind", "decision", "cite"), what)
    kind = _choice(node, "kind", BODY_KINDS, what)
    decision = _choice(node, "decision", DECISIONS, what)
    members: list[Member] = []
    if kind == "single":
        if decision != "single" or "members" in node or "quorum" in node:
            raise RegimeDefinitionError(
                f"{what}: a single authority decides alone (decision: single, no members or quorum)",
                message_pt=f"{what}: autoridade singular decide sozinha (decision: single, sem membros nem quórum)",
                file=node.source,
                line=node.line,
            )
    else:
        if decision == "single":
            raise RegimeDefinitionError(
                f"{what}: a collegiate body decides by vote or rapporteur, not single",
                message_pt=f"{what}: órgão colegiado decide por votação (vote) ou relator (rapporteur)",
                file=node.source,
                line=node.line_of("decision"),
            )
        if "members" not in node and "composition_absent" not in node:
            raise RegimeDefinitionError(
                f"{what}: a collegiate body needs its members (origin, count) and quorum, or composition_absent "
                "saying the law is silent",
                message_pt=f"{what}: órgão colegiado exige membros (origem, quantidade) e quórum, ou "
                "composition_absent dizendo que a lei é omissa",
                file=node.source,
                line=node.line,
            )
        raw = node.get("members") or YamlList()
        for index, item in enumerate(raw if isinstance(raw, YamlList) else ()):
            member = require_map(item, node.source, f"{what}.members item", raw.line_at(index))
            reject_unknown_keys(member, ("origin", "count"), f"{what}.members item")
            require_keys(member, ("origin", "count"), f"{what}.members item")
            members.append(Member(_text(member, "origin", what), _count(member, "count", what)))
        if members and "quorum" not in node:
            require_keys(node, ("quorum",), what)
    quorum = _count(node, "quorum", what) if "quorum" in node else None
    seats = sum(member.count for member in members)
    if quorum is not None and members and quorum > seats:
        raise RegimeDefinitionError(
            f"{what}: quorum {quorum} exceeds the {seats} members",
            message_pt=f"{what}: quórum {quorum} maior que os {seats} membros",
            file=node.source,
            line=node.line_of("quorum"),
        )
    return Body(
        instance=instance,
        name=_text(node, "name", what),
        kind=kind,
        decision=decision,
        cite=citer.validate(node["cite"], file=node.source, line=node.line_of("cite")),
        members=tuple(members),
        composition_absent=_text(node, "composition_absent", what) if "composition_absent" in node else "",
        quorum=quorum,
    )


def _verdicts(node: YamlMap, citer: Citer) -> Verdicts:
    what = "labels.yaml verdicts"
    reject_unknown_keys(node, _VERDICT_KEYS, what)
    require_keys(node, _VERDICT_KEYS, what)
    return Verdicts(
        judges=_choice(node, "judges", JUDGED, what),
        condemn=_text(node, "condemn", what),
        acquit=_text(node, "acquit", what),
        cite=citer.validate(node["cite"], file=node.source, line=node.line_of("cite")),
    )


def _application_kinds(node: YamlMap, citer: Citer) -> dict[str, ApplicationKind]:
    what = "labels.yaml application_kinds"
    reject_unknown_keys(node, APPLICATION_KINDS, what)
    kinds: dict[str, ApplicationKind] = {}
    for key, item in node.items():
        entry = require_map(item, node.source, f"{what}.{key}", node.line_of(key))
        reject_unknown_keys(entry, ("label", "cite"), f"{what}.{key}")
        require_keys(entry, ("label", "cite"), f"{what}.{key}")
        ref = citer.validate(entry["cite"], file=node.source, line=entry.line_of("cite"))
        kinds[str(key)] = ApplicationKind(str(key), _text(entry, "label", f"{what}.{key}"), ref)
    if not kinds:
        raise RegimeDefinitionError(
            f"{what}: declare at least one kind",
            message_pt=f"{what}: declare ao menos um tipo de requerimento",
            file=node.source,
            line=node.line,
        )
    return kinds


def _deadlines(node: YamlMap, citer: Citer) -> dict[str, Deadline]:
    from lawcode.questions import COMPUTED, QUESTIONS

    what = "labels.yaml deadlines"
    known = tuple(name for name, spec in QUESTIONS.items() if spec.outcomes == COMPUTED)
    reject_unknown_keys(node, known, what)
    out: dict[str, Deadline] = {}
    for key, item in node.items():
        entry = require_map(item, node.source, f"{what}.{key}", node.line_of(key))
        reject_unknown_keys(entry, ("label", "cite"), f"{what}.{key}")
        require_keys(entry, ("label", "cite"), f"{what}.{key}")
        ref = citer.validate(entry["cite"], file=node.source, line=entry.line_of("cite"))
        out[str(key)] = Deadline(str(key), _text(entry, "label", f"{what}.{key}"), ref)
    return out


def check_deadline_labels(labels: Labels, questions: set[str], regime_id: str) -> None:
    """A regime answering a deadline whose meaning varies by law words it in labels.yaml."""
    for question in WORDED_DEADLINES:
        if question in questions and question not in labels.deadlines:
            raise RegimeDefinitionError(
                f"{regime_id}: the rules answer {question!r}; word it in labels.yaml deadlines "
                f"({question}: {{label, cite}}) — which notice is it the limit for?",
                message_pt=f"labels.yaml: declare em deadlines o nome que a lei dá ao prazo {question!r}",
                file=labels.source or None,
            )


def load_labels(folder: Path, citer: Citer) -> Labels:
    """labels.yaml of ``folder`` (required): every section is needed by some screen."""
    path = folder / "labels.yaml"
    if not path.exists():
        raise RegimeDefinitionError(
            "labels.yaml is missing: declare the instrument, the bodies of each instance, the verdicts and the "
            "application kinds as the law names them (docs/lawcode/design.md, 'labels.yaml')",
            message_pt="falta labels.yaml: declare o instrumento, os órgãos de cada instância, os veredictos e os "
            "tipos de requerimento com os nomes da lei",
            file=str(path),
        )
    root = require_map(load_yaml(path) or YamlMap(), str(path), "labels.yaml")
    sections = ("instrument", "bodies", "verdicts", "application_kinds")
    reject_unknown_keys(root, (*sections, "deadlines"), "labels.yaml")
    require_keys(root, sections, "labels.yaml")
    bodies_node = require_map(root["bodies"], str(path), "labels.yaml bodies", root.line_of("bodies"))
    bodies = {
        str(instance): _body(
            str(instance),
            require_map(node, str(path), f"bodies.{instance}", bodies_node.line_of(instance)),
            citer,
        )
        for instance, node in bodies_node.items()
    }
    return Labels(
        instrument=_instrument(
            require_map(root["instrument"], str(path), "instrument", root.line_of("instrument")), citer
        ),
        bodies=bodies,
        verdicts=_verdicts(
            require_map(root["verdicts"], str(path), "verdicts", root.line_of("verdicts")), citer
        ),
        application_kinds=_application_kinds(
            require_map(
                root["application_kinds"], str(path), "application_kinds", root.line_of("application_kinds")
            ),
            citer,
        ),
        deadlines=_deadlines(
            require_map(root["deadlines"], str(path), "deadlines", root.line_of("deadlines")), citer
        )
        if "deadlines" in root
        else {},
        source=str(path),
    )


def check_bodies(labels: Labels, instances: tuple[str, ...], regime_id: str) -> None:
    """Each instance of procedure.yaml has its body in labels.yaml, and no body judges an unknown instance."""
    for instance in instances:
        labels.body(instance)
    for instance in labels.bodies:
        if instance not in instances:
            raise RegimeDefinitionError(
                f"{regime_id}: labels.yaml bodies.{instance}: procedure.yaml has no such instance "
                f"(declared: {', '.join(instances)})",
                message_pt=f"labels.yaml: a instância {instance!r} não existe em procedure.yaml",
                file=labels.source or None,
            )
