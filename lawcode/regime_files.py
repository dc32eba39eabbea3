"""Reading a regime folder: regime.yaml (acts, amendments), catalog.yaml, not_computable.yaml, parameters
and interpretations — every citation validated, every error with file:line.

An amendment may tie its start date to an interpretation, when the law's own text does not settle it
(Votuporanga's Lei 6.151/2018)::

    amendments:
      - key: lei6151_2018
        marker: "Lei nº 6.151, de 20.03.2018"
        in_force: 2018-03-20                      # the default option's date
        in_force_by_interpretation:
          interpretation: INT-VOT-AMENDMENT-IN-FORCE
          options: {publication: 2018-03-20, lindb_45_days: 2018-05-04}

A municipality choosing another option gets the wordings (and citations) dated accordingly.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lawcode.acts import Act, short_act_name
from lawcode.citations import Citer
from lawcode.errors import RegimeDefinitionError
from lawcode.fiscal import shared_parameters
from lawcode.interpretations import Interpretation, load_interpretations
from lawcode.params import Parameter, load_parameters
from lawcode.texts import Amendment, parse_law_text
from lawcode.units import FineUnit
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

REGIME_KEYS = (
    "id",
    "name",
    "municipality",
    "uf",
    "ibge",
    "ibge_code",
    "kind",
    "prefix",
    "infraction_prefix",
    "main_act",
    "acts",
    "note",
)
_ACT_KEYS = (
    "key",
    "file",
    "title",
    "cite_as",
    "published",
    "in_force",
    "amendments",
    "enacted",
    "publication",
    "vacatio_legis_days",
    "revokes",
    "note",
    "url",
)
_AMENDMENT_KEYS = (
    "key",
    "title",
    "marker",
    "published",
    "in_force",
    "cite_as",
    "note",
    "in_force_by_interpretation",
)
_CATALOG_CORE_KEYS = ("code", "cite", "severity", "title", "description", "keywords")


@dataclass(frozen=True)
class CatalogEntry:
    """One infraction of the catalog. Regime-specific keys (penalty, curable, …) are kept in ``extra``."""

    code: str
    cite: str
    severity: str
    title: str
    description: str
    keywords: tuple[str, ...]
    extra: Mapping[str, Any]
    source: str


@dataclass(frozen=True)
class AmendmentBinding:
    """An amendment whose start date is the chosen option of an interpretation."""

    act_key: str
    amendment_key: str
    interpretation: str
    dates: Mapping[str, dt.date]
    file: str
    line: int


@dataclass(frozen=True)
class ActSource:
    """Everything needed to (re)build one of the regime's own acts, possibly with other amendment dates."""

    key: str
    path: Path
    text: str
    title: str
    cite_as: str
    published: dt.date | None
    in_force: dt.date
    amendments: tuple[Amendment, ...]
    url: str | None = None
    bindings: tuple[AmendmentBinding, ...] = field(default=())

    def build(self, amendment_dates: Mapping[str, dt.date] | None = None) -> Act:
        """The act, with ``amendment_dates`` (amendment key → start) replacing the declared dates."""
        dates = amendment_dates or {}
        amendments = tuple(
            Amendment(a.key, a.marker, dates.get(a.key, a.in_force), a.cite_as) for a in self.amendments
        )
        law = parse_law_text(self.text, source=str(self.path), in_force=self.in_force, amendments=amendments)
        law.name = self.key
        return Act(
            key=self.key,
            title=self.title,
            cite_as=self.cite_as,
            published=self.published,
            in_force=self.in_force,
            text=law,
            amendments=amendments,
            url=self.url,
        )


def parse_acts(folder: Path, meta: YamlMap, municipality: str) -> tuple[list[ActSource], str]:
    """The regime's own acts as sources (not yet parsed) and the key of its main act."""
    acts_node = meta.get("acts")
    if not isinstance(acts_node, YamlList) or not acts_node:
        raise RegimeDefinitionError(
            "regime.yaml needs 'acts' (a list with at least the regime's law)",
            message_pt="regime.yaml precisa de 'acts'",
            file=meta.source,
            line=meta.line_of("acts"),
        )
    sources = [
        _act_source(folder, require_map(node, meta.source, "act", acts_node.line_at(i)), municipality)
        for i, node in enumerate(acts_node)
    ]
    main_key = str(meta.get("main_act") or sources[0].key)
    if all(source.key != main_key for source in sources):
        raise RegimeDefinitionError(
            f"main_act {main_key!r} is not among 'acts'", file=meta.source, line=meta.line_of("main_act")
        )
    return sources, main_key


def _act_source(folder: Path, node: YamlMap, municipality: str) -> ActSource:
    reject_unknown_keys(node, _ACT_KEYS, "act")
    require_keys(node, ("key", "file", "title", "in_force"), "act")
    path = folder / str(node["file"])
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RegimeDefinitionError(
            f"cannot read the law text {path}", file=node.source, line=node.line_of("file")
        ) from exc
    title = str(node["title"])
    key = str(node["key"])
    amendments, bindings = _amendments(node, key)
    cite_as = str(node.get("cite_as") or f"{short_act_name(title)} ({short_municipality(municipality)})")
    return ActSource(
        key,
        path,
        text,
        title,
        cite_as,
        _optional_date(node, "published"),
        _date(node, "in_force"),
        tuple(amendments),
        node.get("url"),
        tuple(bindings),
    )


def short_municipality(name: str) -> str:
    """'Estância Turística de Olímpia' → 'Olímpia' (how citations name the town)."""
    for prefix in ("Estância Turística de ", "Estância Hidromineral de ", "Estância Climática de "):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def _amendments(node: YamlMap, act_key: str) -> tuple[list[Amendment], list[AmendmentBinding]]:
    items = node.get("amendments") or []
    if not isinstance(items, YamlList):
        if items:
            raise RegimeDefinitionError(
                "'amendments' must be a list", file=node.source, line=node.line_of("amendments")
            )
        return [], []
    amendments, bindings = [], []
    for index, item in enumerate(items):
        entry = require_map(item, node.source, "amendment", items.line_at(index))
        reject_unknown_keys(entry, _AMENDMENT_KEYS, "amendment")
        require_keys(entry, ("key", "marker", "in_force"), "amendment")
        amendment = Amendment(
            str(entry["key"]), str(entry["marker"]), _date(entry, "in_force"), entry.get("cite_as")
        )
        amendments.append(amendment)
        if entry.get("in_force_by_interpretation") is not None:
            bindings.append(_binding(entry, act_key, amendment))
    return amendments, bindings


def _binding(entry: YamlMap, act_key: str, amendment: Amendment) -> AmendmentBinding:
    where = f"amendment {amendment.key}: in_force_by_interpretation"
    node = require_map(
        entry["in_force_by_interpretation"], entry.source, where, entry.line_of("in_force_by_interpretation")
    )
    reject_unknown_keys(node, ("interpretation", "options"), where)
    require_keys(node, ("interpretation", "options"), where)
    options = require_map(node["options"], node.source, f"{where}.options", node.line_of("options"))
    dates = {str(option): _date(options, str(option)) for option in options}
    return AmendmentBinding(
        act_key, amendment.key, str(node["interpretation"]), dates, node.source, node.line
    )


def check_bindings(sources: list[ActSource], interpretations: Mapping[str, Interpretation]) -> None:
    """Each binding names a declared interpretation, dates every option, and its default is ``in_force``."""
    for source in sources:
        declared = {a.key: a for a in source.amendments}
        for binding in source.bindings:
            interpretation = interpretations.get(binding.interpretation)
            if interpretation is None or set(binding.dates) != set(interpretation.options):
                wanted = ", ".join(interpretation.options) if interpretation else "a declared interpretation"
                raise RegimeDefinitionError(
                    f"{binding.amendment_key}: in_force_by_interpretation must name {binding.interpretation!r} "
                    f"in interpretations.yaml and give a date for each option ({wanted})",
                    message_pt="as datas da alteração devem cobrir todas as opções da interpretação",
                    file=binding.file,
                    line=binding.line,
                )
            if binding.dates[interpretation.default] != declared[binding.amendment_key].in_force:
                raise RegimeDefinitionError(
                    f"{binding.amendment_key}: 'in_force' must equal the date of the default option "
                    f"{interpretation.default!r}",
                    file=binding.file,
                    line=binding.line,
                )


def _date(node: YamlMap, key: str) -> dt.date:
    value = node.get(key)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    raise RegimeDefinitionError(
        f"'{key}' must be a date YYYY-MM-DD, got {value!r}",
        message_pt=f"'{key}' deve ser uma data AAAA-MM-DD",
        file=node.source,
        line=node.line_of(key),
    )


def _optional_date(node: YamlMap, key: str) -> dt.date | None:
    return _date(node, key) if node.get(key) is not None else None


def load_catalog(path: Path, citer: Citer) -> dict[str, CatalogEntry]:
    """catalog.yaml: ``infractions: [{code, cite, severity, title, description, keywords, ...}]``."""
    if not path.exists():
        return {}
    root = require_map(load_yaml(path) or YamlMap(), str(path), "catalog.yaml")
    items = root.get("infractions")
    if items is None or items == []:
        return {}  # a law with no infractions of its own (or a catalog still to write)
    if not isinstance(items, YamlList):
        raise RegimeDefinitionError(
            "catalog.yaml: 'infractions' must be a list", file=str(path), line=root.line_of("infractions")
        )
    catalog: dict[str, CatalogEntry] = {}
    for index, item in enumerate(items):
        entry = _catalog_entry(require_map(item, str(path), "infraction", items.line_at(index)), citer)
        if entry.code in catalog:
            raise RegimeDefinitionError(
                f"duplicate infraction code {entry.code!r}", file=str(path), line=items.line_at(index)
            )
        catalog[entry.code] = entry
    return catalog


def _catalog_entry(node: YamlMap, citer: Citer) -> CatalogEntry:
    require_keys(node, ("code", "cite", "severity", "title"), "infraction")
    cite = citer.validate(node["cite"], file=node.source, line=node.line_of("cite"))
    keywords = node.get("keywords") or []
    extra = {k: v for k, v in node.items() if k not in _CATALOG_CORE_KEYS}
    return CatalogEntry(
        str(node["code"]),
        cite,
        str(node["severity"]),
        str(node["title"]),
        str(node.get("description") or ""),
        tuple(str(k) for k in keywords),
        extra,
        f"{node.source}:{node.line}",
    )


def load_not_computable(path: Path, citer: Citer) -> dict[str, str]:
    """not_computable.yaml: ``not_computable:`` as a list of ``{cite, reason}`` or a mapping id → reason."""
    if not path.exists():
        return {}
    root = require_map(load_yaml(path) or YamlMap(), str(path), "not_computable.yaml")
    items = root.get("not_computable")
    if items is None or items in ({}, []):
        return {}
    pairs: list[tuple[Any, Any, int]]
    if isinstance(items, YamlMap):
        pairs = [(key, value, items.line_of(key)) for key, value in items.items()]
    elif isinstance(items, YamlList):
        pairs = []
        for index, item in enumerate(items):
            entry = require_map(item, str(path), "not_computable item", items.line_at(index))
            require_keys(entry, ("cite", "reason"), "not_computable item")
            pairs.append((entry["cite"], entry["reason"], entry.line))
    else:
        raise RegimeDefinitionError(
            "'not_computable' must be a list of {cite, reason} or a mapping id: reason",
            file=str(path),
            line=root.line,
        )
    out: dict[str, str] = {}
    for ref, reason, line in pairs:
        citer.validate(ref, file=str(path), line=line)
        if not reason or not str(reason).strip():
            raise RegimeDefinitionError(
                f"{ref}: give the reason it cannot be computed", file=str(path), line=line
            )
        out[str(ref)] = str(reason).strip()
    return out


def load_interpretations_for(folder: Path, citer: Citer) -> dict[str, Interpretation]:
    """The folder's interpretations.yaml, each basis citation validated."""
    return load_interpretations(folder / "interpretations.yaml", citation_validator(citer))


def load_parameters_for(
    folder: Path, citer: Citer, money: Mapping[str, FineUnit] | None = None
) -> dict[str, Parameter]:
    """The folder's parameters.yaml plus the engine's shared tables (``ufesp``: fiscal.shared_parameters), which a
    regime may not redeclare; ``money`` are the regime's declared fine units, in which a parameter may be counted."""
    parameters = load_parameters(folder / "parameters.yaml", citation_validator(citer), money)
    for name, table in shared_parameters().items():
        if name in parameters:
            raise RegimeDefinitionError(
                f"'{name}' is the engine's shared table (lawcode/data); do not redeclare it",
                message_pt=f"'{name}' é uma tabela do engine (lawcode/data); não a declare no regime",
                file=str(folder / "parameters.yaml"),
            )
        parameters[name] = table
    return parameters


def citation_validator(citer: Citer) -> Callable[[object, str | None, int | None], str]:
    """``citer.validate`` as the loaders of each regime file call it: (reference, file, line) → reference."""

    def validate(ref: object, file: str | None, line: int | None) -> str:
        return citer.validate(ref, file=file, line=line)

    return validate
