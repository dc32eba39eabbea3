"""Legal acts a regime can cite: its own law text(s) and the external acts of data/external_acts.yaml.

An ``Act`` either has a parsed ``LawText`` (a regime's law, with dated wordings) or a closed list of
``declared`` dispositivos (external acts such as the CTB, whose full text we do not carry). ``ActRegistry``
holds the acts one regime sees and answers "does ``ctb:art138_incIV`` exist?".

    registry = ActRegistry.with_external(main_act)
    registry.get("ctb").has("art138_incIV")    # True
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lawcode.errors import RegimeDefinitionError, UnknownDispositivoError
from lawcode.texts import ORIGINAL, Amendment, LawText, Wording, is_dispositivo_id, label_for
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

EXTERNAL_ACTS_FILE = Path(__file__).parent / "data" / "external_acts.yaml"
_EXTERNAL_KEYS = (
    "title",
    "cite_as",
    "published",
    "in_force",
    "url",
    "whole_act",
    "dispositivos",
    "note",
    "amendments",
)
_EXTERNAL_AMENDMENT_KEYS = ("key", "title", "cite_as", "in_force", "dispositivos", "note")


@dataclass(frozen=True, eq=False)
class Act:
    """A legal act. ``cite_as`` is its short Portuguese name in citations ("CTB", "Lei 5.171/2025 (Olímpia)")."""

    key: str
    title: str
    cite_as: str
    published: dt.date | None
    in_force: dt.date | None
    text: LawText | None = None
    declared: tuple[str, ...] = ()
    whole_act: bool = False
    amendments: tuple[Amendment, ...] = ()
    url: str | None = None
    amended: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """External acts: dispositivo → keys of the amendments that reworded it (oldest first)."""
    order: dict[str, int] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        ids = self.text.ids() if self.text is not None else list(self.declared)
        self.order.update({dispositivo: index for index, dispositivo in enumerate(ids)})

    def has(self, dispositivo_id: str) -> bool:
        return dispositivo_id in self.order

    def ids(self) -> list[str]:
        """Dispositivo ids in text order (declared order for external acts)."""
        return list(self.order)

    def all_ids_including_parents(self) -> list[str]:
        """Every dispositivo the coverage matrix must list (articles, paragraphs, incisos, alíneas)."""
        return self.text.all_ids_including_parents() if self.text is not None else list(self.declared)

    def label(self, dispositivo_id: str) -> str:
        return label_for(dispositivo_id)

    def wording(self, dispositivo_id: str, *, on: dt.date) -> Wording | None:
        """The wording in force on ``on`` (None for external acts, whose text we do not carry)."""
        if not self.has(dispositivo_id):
            raise UnknownDispositivoError(f"{self.key}:{dispositivo_id}")
        if self.text is None:
            return None
        return self.text.wording(dispositivo_id, on=on)

    def external_version(self, dispositivo_id: str, on: dt.date) -> str:
        """Wording version of an external act's dispositivo on ``on`` (latest amendment already in force)."""
        version = ORIGINAL
        for key in self.amended.get(dispositivo_id, ()):
            amendment = self.amendment(key)
            if amendment is not None and amendment.in_force <= on:
                version = key
        return version

    def amendment(self, version_key: str) -> Amendment | None:
        return next((a for a in self.amendments if a.key == version_key), None)

    def version_cite_as(self, version_key: str) -> str | None:
        """How a non-original wording is named: "Lei 6.151/2018"."""
        if version_key == ORIGINAL:
            return None
        amendment = self.amendment(version_key)
        if amendment is None:
            return version_key
        return amendment.cite_as or short_act_name(amendment.marker)

    def position(self, dispositivo_id: str | None) -> int:
        return -1 if dispositivo_id is None else self.order.get(dispositivo_id, len(self.order))


def short_act_name(marker: str) -> str:
    """'Lei nº 6.151, de 20.03.2018' → 'Lei 6.151/2018' (used when regime.yaml gives no cite_as)."""
    import re

    match = re.search(r"(Lei(?: Complementar)?)\s+n?[º°.]*\s*([\d.]+).*?(\d{4})\s*$", marker)
    if match is None:
        return marker
    kind, number, year = match.groups()
    return f"{kind} {number}/{year}"


@dataclass
class ActRegistry:
    """The acts one regime may cite; ``main`` is the key of the regime's own law."""

    acts: dict[str, Act]
    main: str

    @classmethod
    def with_external(cls, own_acts: Iterable[Act], main: str) -> ActRegistry:
        acts = dict(external_acts())
        for act in own_acts:
            if act.key in acts:
                raise RegimeDefinitionError(
                    f"act key {act.key!r} clashes with an external act; choose another key",
                    message_pt=f"a chave de norma {act.key!r} já existe entre as normas externas",
                )
            acts[act.key] = act
        return cls(acts, main)

    def with_entered(self, entered: Iterable[Act]) -> ActRegistry:
        """A copy that also knows acts entered outside the code (lawcode.config.DeclaredAct), cited whole."""
        acts = dict(self.acts)
        for act in entered:
            if act.key in acts:
                raise RegimeDefinitionError(
                    f"entered act key {act.key!r} clashes with an act the regime already knows",
                    message_pt=f"a chave de norma {act.key!r} já existe entre as normas do regime",
                )
            acts[act.key] = act
        return ActRegistry(acts, self.main)

    def get(self, key: str) -> Act:
        try:
            return self.acts[key]
        except KeyError:
            raise UnknownDispositivoError(
                f"{key}:", known_hint=f"unknown act {key!r}; declare it in external_acts.yaml or regime.yaml"
            ) from None

    @property
    def main_act(self) -> Act:
        return self.acts[self.main]

    def order_of(self, key: str) -> int:
        """Citation order: the regime's own acts first, then external acts as declared."""
        if key == self.main:
            return 0
        keys = list(self.acts)
        return 1 + keys.index(key) if key in self.acts else 1 + len(keys)


@functools.cache
def external_acts() -> dict[str, Act]:
    """The acts of data/external_acts.yaml (loaded once; RegimeDefinitionError with file:line if malformed)."""
    data = require_map(load_yaml(EXTERNAL_ACTS_FILE), str(EXTERNAL_ACTS_FILE), "external_acts.yaml")
    return {
        key: _external_act(key, require_map(node, data.source, key, data.line_of(key)))
        for key, node in data.items()
    }


def _external_act(key: str, node: YamlMap) -> Act:
    where = f"external act {key!r}"
    reject_unknown_keys(node, _EXTERNAL_KEYS, where)
    require_keys(node, ("title", "cite_as", "dispositivos"), where)
    declared = node["dispositivos"]
    if not isinstance(declared, YamlList):
        raise RegimeDefinitionError(
            f"{where}: 'dispositivos' must be a list", file=node.source, line=node.line_of("dispositivos")
        )
    for index, dispositivo in enumerate(declared):
        if not isinstance(dispositivo, str) or not is_dispositivo_id(dispositivo):
            raise RegimeDefinitionError(
                f"{where}: {dispositivo!r} is not a dispositivo id (e.g. art138_incIV)",
                message_pt=f"{dispositivo!r} não é um id de dispositivo (ex.: art138_incIV)",
                file=node.source,
                line=declared.line_at(index),
            )
    amendments, amended = _external_amendments(node, where, set(declared))
    return Act(
        key=key,
        title=str(node["title"]),
        cite_as=str(node["cite_as"]),
        published=_date_or_none(node, "published"),
        in_force=_date_or_none(node, "in_force"),
        declared=tuple(declared),
        whole_act=bool(node.get("whole_act", False)),
        amendments=amendments,
        url=node.get("url"),
        amended=amended,
    )


def _external_amendments(
    node: YamlMap, where: str, declared: set[str]
) -> tuple[tuple[Amendment, ...], dict[str, tuple[str, ...]]]:
    """``amendments: [{key, cite_as, in_force, dispositivos}]`` of an external act, oldest first."""
    items = node.get("amendments") or []
    entries = [
        require_map(item, node.source, f"{where} amendment", node.line_of("amendments")) for item in items
    ]
    amendments: list[Amendment] = []
    amended: dict[str, tuple[str, ...]] = {}
    for entry in sorted(entries, key=lambda e: str(e.get("in_force"))):
        reject_unknown_keys(entry, _EXTERNAL_AMENDMENT_KEYS, f"{where} amendment")
        require_keys(entry, ("key", "cite_as", "in_force", "dispositivos"), f"{where} amendment")
        in_force = _date_or_none(entry, "in_force") or dt.date.min  # require_keys: never None here
        amendments.append(
            Amendment(
                str(entry["key"]),
                str(entry.get("title") or entry["cite_as"]),
                in_force,
                str(entry["cite_as"]),
            )
        )
        for dispositivo in entry["dispositivos"]:
            if dispositivo not in declared:
                raise UnknownDispositivoError(
                    f"{dispositivo}", file=entry.source, line=entry.line_of("dispositivos")
                )
            amended[dispositivo] = (*amended.get(dispositivo, ()), str(entry["key"]))
    return tuple(amendments), amended


def _date_or_none(node: YamlMap, key: str) -> dt.date | None:
    value = node.get(key)
    if value is None or (isinstance(value, dt.date) and not isinstance(value, dt.datetime)):
        return value
    raise RegimeDefinitionError(
        f"'{key}' must be a date (YYYY-MM-DD), got {value!r}",
        message_pt=f"'{key}' deve ser uma data (AAAA-MM-DD)",
        file=node.source,
        line=node.line_of(key),
    )
