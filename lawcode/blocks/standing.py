"""Document standing: what an expired or missing mandatory document means for a permit in force.

Each regime declares it in ``standing.yaml`` — which documents must stay in force, held by whom, and the
effect of a lapse, citing the article (or, where the law is silent, a named interpretation whose options are
effects)::

    standing:
      cite: [art15, art40_par3]          # where the law says the service needs the documents in force
      effect: irregular                   # or: {interpretation: INT-OLI-DOCUMENT-LAPSE}
      mandatory:
        - kind: cnh                       # a kind documents.yaml declares
          of: [operator, driver]          # operator (a person) | company | driver | vehicle
          licence_record: true            # the CNH on the driver's record counts as this document
          cite: art9_incIII
        - kind: crlv
          of: [vehicle]
          cite: art9_incXII
        - kind: criminal_record_certificate   # an age-limited kind (documents.yaml validity.age_limit):
          of: [operator]                      # checked only while its interpretation reads the window as
          cite: art9_incIX                    # ongoing; under "presentation" it never lapses the permit

A CNH item may carry a **tolerance**: the CTB makes driving with a CNH expired for more than 30 days the
infraction (art. 162, V), so whether a CNH expired for fewer days still counts as regular is a named
interpretation with the options ``strict`` (it lapses the day after its printed validity) and ``tolerated``
(it lapses ``days`` days later)::

        - kind: cnh
          of: [operator]
          licence_record: true
          cite: art9_incIII
          tolerance: {interpretation: INT-OLI-CNH-TOLERANCE, days: 30, cite: "ctb:art162_incV"}

The regime's ``document_standing`` rule is one line (``decide``). A regime with the rule and no standing.yaml,
or with standing.yaml and no rule, fails at load; so does an unknown kind, role, effect or key.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lawcode.calendar import format_date_pt
from lawcode.decision import Finding, RuleResult, Status
from lawcode.errors import InvalidFactError, RegimeDefinitionError
from lawcode.facts import Credential, StandingFacts, StandingSubject
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

if TYPE_CHECKING:
    from lawcode.citations import Citer
    from lawcode.context import Context
    from lawcode.documents import DocumentCatalog
    from lawcode.interpretations import Interpretation

STANDING_FILE = "standing.yaml"
ROLES = ("operator", "company", "driver", "vehicle")
# The engine's effects of a lapse (outcome of document_standing → how people read it). A regime picks one.
EFFECTS: dict[str, str] = {
    "irregular": "Irregular — não autorizado a operar até a regularização dos documentos",
    "suspended": "Suspenso até a regularização dos documentos",
}
WHOSE = {
    "operator": "do autorizatário",
    "company": "da empresa autorizatária",
    "driver": "do condutor",
    "vehicle": "do veículo",
}
_ROOT_KEYS = ("cite", "effect", "mandatory", "note")
_ITEM_KEYS = ("kind", "of", "cite", "licence_record", "tolerance")
_TOLERANCE_KEYS = ("interpretation", "days", "cite")
TOLERANCE_OPTIONS = ("strict", "tolerated")


@dataclass(frozen=True)
class Tolerance:
    """Days a lapsed document still counts as in force when ``interpretation`` reads ``tolerated``."""

    interpretation: str
    days: int
    cite: str


@dataclass(frozen=True)
class MandatoryDocument:
    kind: str
    label: str
    of: tuple[str, ...]
    cite: str
    licence_record: bool = False
    tolerance: Tolerance | None = None
    age_limit: str | None = None  # the kind's age-window interpretation (documents.yaml validity.age_limit)


@dataclass(frozen=True)
class StandingDeclaration:
    cite: tuple[str, ...]
    effect: str | None
    interpretation: str | None
    mandatory: tuple[MandatoryDocument, ...]
    note: str = ""

    def items_for(self, role: str) -> tuple[MandatoryDocument, ...]:
        return tuple(item for item in self.mandatory if role in item.of)

    def kinds(self) -> frozenset[str]:
        return frozenset(item.kind for item in self.mandatory)


# --- loading --------------------------------------------------------------------------------------------


def declared_cites(folder: Path) -> tuple[str, ...]:
    """Every dispositivo standing.yaml cites, for the rule's ``@rule(cites=...)`` (validated at load);
    RegimeDefinitionError when the file is missing: a rule without its declaration fails loudly."""
    path = Path(folder) / STANDING_FILE
    if not path.is_file():
        raise RegimeDefinitionError(
            f"{path}: missing; a regime answering document_standing declares what a lapsed document means",
            message_pt="falta standing.yaml: o que um documento obrigatório vencido ou ausente significa",
            file=str(path),
        )
    root = _root(path)
    refs = list(_refs(root.get("cite"), root, "cite"))
    items = root.get("mandatory")
    for node in items if isinstance(items, YamlList) else ():
        if isinstance(node, YamlMap):
            refs += _refs(node.get("cite"), node, "cite")
            tolerance = node.get("tolerance")
            if isinstance(tolerance, YamlMap):
                refs += _refs(tolerance.get("cite"), tolerance, "cite")
    return tuple(dict.fromkeys(refs))


def load_standing(
    folder: Path, citer: Citer, documents: DocumentCatalog, interpretations: Mapping[str, Interpretation]
) -> StandingDeclaration:
    path = Path(folder) / STANDING_FILE
    declared_cites(folder)  # the missing-file error
    root = _root(path)
    require_keys(root, ("cite", "effect", "mandatory"), "standing")
    cites = tuple(
        citer.validate(ref, file=root.source, line=root.line_of("cite"))
        for ref in _refs(root["cite"], root, "cite")
    )
    effect, interpretation = _effect(root, interpretations)
    items = root["mandatory"]
    if not isinstance(items, YamlList) or not items:
        raise RegimeDefinitionError(
            "standing.mandatory must list the documents that must stay in force",
            file=root.source,
            line=root.line_of("mandatory"),
        )
    mandatory = tuple(
        _item(
            require_map(node, root.source, "standing.mandatory[]", items.line),
            citer,
            documents,
            interpretations,
        )
        for node in items
    )
    return StandingDeclaration(cites, effect, interpretation, mandatory, str(root.get("note") or ""))


def _root(path: Path) -> YamlMap:
    top = require_map(load_yaml(path) or YamlMap(), str(path), STANDING_FILE)
    reject_unknown_keys(top, ("standing",), STANDING_FILE)
    require_keys(top, ("standing",), STANDING_FILE)
    root = require_map(top["standing"], str(path), "standing", top.line_of("standing"))
    reject_unknown_keys(root, _ROOT_KEYS, "standing")
    return root


def _refs(raw: Any, node: YamlMap, key: str) -> list[str]:
    items = list(raw) if isinstance(raw, YamlList) else [raw]
    if not items or any(not isinstance(item, str) or not item for item in items):
        raise RegimeDefinitionError(
            f"standing: '{key}' must name the dispositivos (a string or a list)",
            file=node.source,
            line=node.line_of(key),
        )
    return [str(item) for item in items]


def _effect(root: YamlMap, interpretations: Mapping[str, Interpretation]) -> tuple[str | None, str | None]:
    raw = root["effect"]
    line = root.line_of("effect")
    if isinstance(raw, YamlMap):
        reject_unknown_keys(raw, ("interpretation",), "standing.effect")
        require_keys(raw, ("interpretation",), "standing.effect")
        key = str(raw["interpretation"])
        chosen = interpretations.get(key)
        if chosen is None:
            raise RegimeDefinitionError(
                f"standing.effect: interpretation {key!r} is not declared", file=root.source, line=line
            )
        unknown = [option for option in chosen.options if option not in EFFECTS]
        if unknown:
            raise RegimeDefinitionError(
                f"standing.effect: options of {key} must be effects ({', '.join(EFFECTS)}); got {', '.join(unknown)}",
                file=root.source,
                line=line,
            )
        return None, key
    if raw not in EFFECTS:
        raise RegimeDefinitionError(
            f"standing.effect {raw!r} is not one of {', '.join(EFFECTS)}",
            message_pt=f"efeito {raw!r} desconhecido; use {' ou '.join(EFFECTS)}",
            file=root.source,
            line=line,
        )
    return str(raw), None


def _item(
    node: YamlMap, citer: Citer, documents: DocumentCatalog, interpretations: Mapping[str, Interpretation]
) -> MandatoryDocument:
    reject_unknown_keys(node, _ITEM_KEYS, "standing.mandatory[]")
    require_keys(node, ("kind", "of", "cite"), "standing.mandatory[]")
    kind = str(node["kind"])
    if kind not in documents:
        raise RegimeDefinitionError(
            f"standing: document kind {kind!r} is not declared in documents.yaml",
            file=node.source,
            line=node.line_of("kind"),
        )
    raw_of = node["of"]
    of = tuple(str(role) for role in (raw_of if isinstance(raw_of, YamlList) else [raw_of]))
    if not of or any(role not in ROLES for role in of):
        raise RegimeDefinitionError(
            f"standing: 'of' must list some of {', '.join(ROLES)}; got {', '.join(of)}",
            file=node.source,
            line=node.line_of("of"),
        )
    licence = node.get("licence_record", False)
    if not isinstance(licence, bool):
        raise RegimeDefinitionError(
            "standing: 'licence_record' must be true or false",
            file=node.source,
            line=node.line_of("licence_record"),
        )
    cite = citer.validate(str(node["cite"]), file=node.source, line=node.line_of("cite"))
    tolerance = _tolerance(node, citer, interpretations) if "tolerance" in node else None
    age_limit = documents.get(kind).validity.age_limit
    return MandatoryDocument(kind, documents.label(kind), of, cite, licence, tolerance, age_limit)


def _tolerance(node: YamlMap, citer: Citer, interpretations: Mapping[str, Interpretation]) -> Tolerance:
    raw = require_map(
        node["tolerance"], node.source, "standing.mandatory[].tolerance", node.line_of("tolerance")
    )
    reject_unknown_keys(raw, _TOLERANCE_KEYS, "standing.mandatory[].tolerance")
    require_keys(raw, _TOLERANCE_KEYS, "standing.mandatory[].tolerance")
    key, days = str(raw["interpretation"]), raw["days"]
    chosen = interpretations.get(key)
    if chosen is None or tuple(sorted(chosen.options)) != TOLERANCE_OPTIONS:
        raise RegimeDefinitionError(
            f"standing tolerance: {key!r} must be a declared interpretation with the options "
            f"{', '.join(TOLERANCE_OPTIONS)}",
            file=raw.source,
            line=raw.line_of("interpretation"),
        )
    if not isinstance(days, int) or isinstance(days, bool) or days <= 0:
        raise RegimeDefinitionError(
            "standing tolerance: 'days' must be a positive number of days",
            file=raw.source,
            line=raw.line_of("days"),
        )
    cite = citer.validate(str(raw["cite"]), file=raw.source, line=raw.line_of("cite"))
    return Tolerance(key, days, cite)


# --- deciding -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Held:
    """The best a subject holds of one mandatory kind on a day."""

    state: str  # valid | tolerated | expired | not_accepted | missing
    valid_until: dt.date | None = None
    grace_until: dt.date | None = None  # last day a lapsed copy is tolerated (a tolerance item's reading)

    @property
    def in_force(self) -> bool:
        return self.state in ("valid", "tolerated")

    @property
    def since(self) -> dt.date | None:
        """First day the lapse counts (after the tolerance, when there is one)."""
        last = self.grace_until or self.valid_until
        return last + dt.timedelta(days=1) if last is not None else None


def held(subject: StandingSubject, item: MandatoryDocument, as_of: dt.date, grace_days: int = 0) -> Held:
    """In force on ``as_of`` if any accepted copy issued by then covers it; else the latest lapse, tolerated
    for ``grace_days`` after it (a tolerance item read as ``tolerated``)."""
    copies = [c for c in subject.credentials if c.kind == item.kind and _issued_by(c, as_of)]
    if item.licence_record and subject.licence is not None and subject.licence.expiry is not None:
        copies.append(Credential(item.kind, subject.licence.expiry))
    accepted = [c for c in copies if c.accepted]
    if any(c.valid_until is None or c.valid_until >= as_of for c in accepted):
        until = [c.valid_until for c in accepted if c.valid_until is not None and c.valid_until >= as_of]
        no_expiry = any(c.valid_until is None for c in accepted)
        return Held("valid", None if no_expiry else max(until))
    if accepted:
        last = max(c.valid_until for c in accepted if c.valid_until is not None)
        if not grace_days:
            return Held("expired", last)
        grace = last + dt.timedelta(days=grace_days)
        return Held("tolerated" if as_of <= grace else "expired", last, grace)
    return Held("not_accepted" if copies else "missing")


def _issued_by(credential: Credential, as_of: dt.date) -> bool:
    return credential.issue_date is None or credential.issue_date <= as_of


def _message(item: MandatoryDocument, subject: StandingSubject, state: Held, cites: str = "") -> str:
    who = subject.label or WHOSE[subject.role]
    name = f"{item.label} {who}"
    if state.state == "valid":
        return f"{name}: em vigor" + (
            f" até {format_date_pt(state.valid_until)}." if state.valid_until else "."
        )
    if state.state in ("tolerated", "expired"):
        assert state.valid_until is not None
        lapsed = f"{name}: vencido desde {format_date_pt(state.valid_until + dt.timedelta(days=1))}"
        if state.grace_until is None:
            return lapsed + "."
        if state.state == "tolerated":
            return f"{lapsed}, tolerado até {format_date_pt(state.grace_until)} ({cites})."
        return f"{lapsed}; tolerância encerrada em {format_date_pt(state.grace_until)} ({cites})."
    if state.state == "not_accepted":
        return f"{name}: a cópia apresentada não foi aceita."
    return f"{name}: não apresentado."


def _grace_days(ctx: Context, item: MandatoryDocument) -> int:
    """The item's tolerance in days when its interpretation reads ``tolerated`` (else none)."""
    tolerance = item.tolerance
    if tolerance is None or ctx.interpretation(tolerance.interpretation) != "tolerated":
        return 0
    return tolerance.days


def _checked(ctx: Context, item: MandatoryDocument) -> bool:
    """An age-limited certidão lapses the permit only when its window is read as ongoing; read as binding the
    presentation alone, the certidão accepted at registration stays good for the standing."""
    return item.age_limit is None or ctx.interpretation(item.age_limit) == "ongoing"


def _judge(ctx: Context, item: MandatoryDocument, subject: StandingSubject) -> tuple[Held, Finding]:
    """What the subject holds of the item today, and the finding saying so (citing the tolerance it used)."""
    state = held(subject, item, ctx.as_of, _grace_days(ctx, item))
    cites = [item.cite]
    if state.grace_until is not None and item.tolerance is not None:
        cites.append(item.tolerance.cite)
    message = _message(item, subject, state, "; ".join(c.render() for c in ctx.cites(cites[1:])))
    status = Status.MET if state.in_force else Status.NOT_MET
    return state, ctx.finding(f"document_{item.kind}_{subject.role}", status, message, cites=cites)


def decide(ctx: Context, declaration: StandingDeclaration | None, facts: StandingFacts) -> RuleResult:
    """``regular`` when every mandatory document of every subject is in force on ``ctx.as_of`` (or within its
    tolerance); else the declared effect, with one finding per document and the effect's finding citing the
    article."""
    if declaration is None:
        raise RegimeDefinitionError(f"regime {ctx.regime.id} answers document_standing without standing.yaml")
    findings: list[Finding] = []
    lapsed: list[dict[str, Any]] = []
    tolerated: list[dict[str, Any]] = []
    for index, subject in enumerate(facts.subjects):
        for item in (item for item in declaration.items_for(subject.role) if _checked(ctx, item)):
            state, finding = _judge(ctx, item, subject)
            findings.append(finding)
            if state.state == "tolerated":
                tolerated.append(
                    {"finding": finding.code, "until": state.grace_until, "message": finding.message}
                )
            elif not state.in_force:
                lapsed.append(_lapse(item, state, index, subject.role, finding.message))
        _check_kinds(declaration, subject, index)
    if not lapsed:
        explanation = (
            "Regular: " + "; ".join(str(t["message"]).rstrip(".") for t in tolerated) + "."
            if tolerated
            else None
        )
        regular: dict[str, Any] = {"status": "regular", "lapsed": [], "tolerated": tolerated}
        return RuleResult("regular", findings, regular, explanation=explanation)
    effect = declaration.effect or ctx.interpretation(str(declaration.interpretation))
    reason = f"{EFFECTS[effect]}: " + "; ".join(entry["message"] for entry in lapsed)
    findings.append(ctx.finding("document_standing", Status.NOT_MET, reason, cites=declaration.cite))
    since = [entry["since"] for entry in lapsed if entry["since"] is not None]
    result = {
        "status": effect,
        "effect_label": EFFECTS[effect],
        "since": min(since) if since else None,
        "lapsed": lapsed,
        "reason": reason,
    }
    return RuleResult(effect, findings, result, explanation=reason)


def _lapse(item: MandatoryDocument, state: Held, index: int, role: str, message: str) -> dict[str, Any]:
    return {
        "kind": item.kind,
        "label": item.label,
        "role": role,
        "subject": index,
        "state": state.state,
        "since": state.since,
        "message": message.rstrip("."),
    }


def _check_kinds(declaration: StandingDeclaration, subject: StandingSubject, index: int) -> None:
    """A credential of a kind the declaration does not list is a caller's mistake, never silently ignored."""
    known = declaration.kinds()
    for position, credential in enumerate(subject.credentials):
        if credential.kind not in known:
            raise InvalidFactError(
                f"subjects[{index}].credentials[{position}].kind",
                f"{credential.kind!r} is not a mandatory document (standing.yaml lists {', '.join(sorted(known))})",
                problem_pt=f"Documento {credential.kind!r} não é obrigatório para a situação do alvará.",
            )
