"""Named interpretations: every point where a law is ambiguous or garbled, with options and a default.

``interpretations.yaml`` of a regime::

    INT-OLI-RECIDIVISM-ANCHOR:
      question: A "reincidência em 6 meses" conta a partir de quê?
      options:
        prior_infraction_date: Da data da infração anterior.
        prior_final_decision: Da data em que a decisão anterior se tornou definitiva.
      default: prior_final_decision
      rationale: ...
      basis: [art23_parun, art25_par3]       # validated citations

A municipality overrides the choice in ``Config.interpretations``; ``ctx.interpretation(id)`` returns the
chosen option key and records it in the decision.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from lawcode.errors import RegimeDefinitionError, UnknownInterpretationError
from lawcode.params import CiteValidator
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

INTERPRETATION_ID = re.compile(r"^INT-(OLI|VOT|PAT|GEN|[A-Z]{3})-[A-Z0-9]+(?:-[A-Z0-9]+)*$")
_KEYS = ("question", "options", "default", "rationale", "basis", "note")


@dataclass(frozen=True)
class Interpretation:
    """A named interpretation; ``options`` maps option key → Portuguese text."""

    id: str
    question: str
    options: dict[str, str]
    default: str
    rationale: str
    basis: tuple[str, ...]
    source: str = ""

    def option_text(self, option: str) -> str:
        return self.options[option]

    def check_option(self, option: str, *, where: str = "") -> str:
        """``option`` if declared, else UnknownInterpretationError listing the options."""
        if option not in self.options:
            raise UnknownInterpretationError(
                f"{self.id} has no option {option!r}{where}; options: {', '.join(self.options)}",
                message_pt=f"a interpretação {self.id} não tem a opção {option!r}; opções: {', '.join(self.options)}",
                field=self.id,
            )
        return option


def load_interpretations(path: Path, validate_cite: CiteValidator) -> dict[str, Interpretation]:
    """Load interpretations.yaml (missing file → none); RegimeDefinitionError/UnknownDispositivoError on errors."""
    if not path.exists():
        return {}
    data = load_yaml(path)
    if data is None:
        return {}
    root = require_map(data, str(path), "interpretations.yaml")
    return {
        key: _parse(key, require_map(node, root.source, key, root.line_of(key)), validate_cite)
        for key, node in root.items()
    }


def _parse(int_id: str, node: YamlMap, validate_cite: CiteValidator) -> Interpretation:
    if not INTERPRETATION_ID.match(int_id):
        raise RegimeDefinitionError(
            f"interpretation id {int_id!r} must look like INT-OLI-TOPIC (INT-<OLI|VOT|PAT|GEN>-<TOPIC>)",
            message_pt=f"id de interpretação inválido: {int_id!r}",
            file=node.source,
            line=node.line,
        )
    reject_unknown_keys(node, _KEYS, int_id)
    require_keys(node, ("question", "options", "default", "rationale", "basis"), int_id)
    options = _options(int_id, node)
    return Interpretation(
        int_id,
        str(node["question"]).strip(),
        options,
        str(node["default"]),
        str(node["rationale"]).strip(),
        _basis(int_id, node, validate_cite),
        f"{node.source}:{node.line}",
    )


def _options(int_id: str, node: YamlMap) -> dict[str, str]:
    """At least two options, the default among them."""
    options = require_map(node["options"], node.source, f"{int_id}.options", node.line_of("options"))
    if len(options) < 2:
        raise RegimeDefinitionError(
            f"{int_id} needs at least two options", file=node.source, line=node.line_of("options")
        )
    default = str(node["default"])
    if default not in options:
        raise RegimeDefinitionError(
            f"{int_id}: default {default!r} is not one of the options ({', '.join(options)})",
            message_pt=f"{int_id}: a opção padrão {default!r} não está entre as opções",
            file=node.source,
            line=node.line_of("default"),
        )
    return {str(k): str(v).strip() for k, v in options.items()}


def _basis(int_id: str, node: YamlMap, validate_cite: CiteValidator) -> tuple[str, ...]:
    """The legal basis: a non-empty list of validated citations."""
    basis = node["basis"]
    if not isinstance(basis, YamlList) or not basis:
        raise RegimeDefinitionError(
            f"{int_id}: 'basis' must be a non-empty list of citations",
            file=node.source,
            line=node.line_of("basis"),
        )
    return tuple(validate_cite(ref, node.source, basis.line_at(i)) for i, ref in enumerate(basis))


def choose(
    interpretations: Mapping[str, Interpretation], int_id: str, overrides: Mapping[str, str]
) -> tuple[Interpretation, str, bool]:
    """(interpretation, chosen option, is_default) — the override when configured, else the default."""
    interpretation = interpretations.get(int_id)
    if interpretation is None:
        known = ", ".join(sorted(interpretations)) or "none"
        raise UnknownInterpretationError(
            f"unknown interpretation {int_id!r}; declared: {known}",
            message_pt=f"interpretação desconhecida {int_id!r}",
            field=int_id,
        )
    if int_id in overrides:
        option = interpretation.check_option(overrides[int_id], where=" (Config.interpretations)")
        return interpretation, option, option == interpretation.default
    return interpretation, interpretation.default, True
