"""YAML loading that remembers where every mapping and list came from.

Law data is edited by hand, so every error must name the file and the line. ``load_yaml(path)`` returns plain
dicts and lists, except that each mapping is a ``YamlMap`` (``.line``, ``.line_of(key)``) and each list a
``YamlList`` (``.line``, ``.line_at(index)``). Duplicate keys — which PyYAML silently collapses — and syntax
errors raise RegimeDefinitionError with file:line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from lawcode.errors import RegimeDefinitionError


class YamlMap(dict[str, Any]):
    """A YAML mapping with line numbers (1-based) of itself and of each key."""

    line: int = 0
    key_lines: dict[str, int]
    source: str = ""

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class YamlList(list[Any]):
    """A YAML sequence with line numbers of itself and of each item."""

    line: int = 0
    item_lines: list[int]
    source: str = ""

    def line_at(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


class _LineLoader(yaml.SafeLoader):
    source_name = ""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> YamlMap:
    result = YamlMap()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    result.source = loader.source_name
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if key in result:
            raise RegimeDefinitionError(
                f"duplicate key {key!r} (first at line {result.key_lines[str(key)]}); keep only one",
                message_pt=f"chave repetida {key!r}; mantenha apenas uma",
                file=loader.source_name,
                line=line,
            )
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[str(key)] = line
    return result


def _construct_sequence(loader: _LineLoader, node: yaml.SequenceNode) -> YamlList:
    result = YamlList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    result.source = loader.source_name
    return result


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_yaml_text(text: str, source: str) -> Any:
    """Parse YAML text; ``source`` names it in errors. Returns YamlMap/YamlList/scalars."""

    class Loader(_LineLoader):
        source_name = source

    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 — a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise RegimeDefinitionError(
            f"malformed YAML: {exc.problem}; fix the syntax",
            message_pt=f"YAML malformado: {exc.problem}; corrija a sintaxe",
            file=source,
            line=mark.line + 1 if mark is not None else None,
        ) from exc
    except yaml.YAMLError as exc:
        raise RegimeDefinitionError(
            f"malformed YAML: {exc}", message_pt="YAML malformado", file=source
        ) from exc


def load_yaml(path: Path) -> Any:
    """Load a YAML file with line numbers; a missing or unreadable file raises RegimeDefinitionError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RegimeDefinitionError(
            f"cannot read {path} ({exc.strerror})", message_pt=f"não foi possível ler {path}", file=str(path)
        ) from exc
    return load_yaml_text(text, str(path))


def require_map(data: Any, source: str, what: str, line: int | None = None) -> YamlMap:
    """``data`` as a YamlMap, or RegimeDefinitionError saying what mapping was expected."""
    if isinstance(data, YamlMap):
        return data
    raise RegimeDefinitionError(
        f"{what} must be a mapping (key: value)",
        message_pt=f"{what} deve ser um mapeamento (chave: valor)",
        file=source,
        line=line if line is not None else getattr(data, "line", None),
    )


def require_keys(node: YamlMap, keys: tuple[str, ...], what: str) -> None:
    """RegimeDefinitionError naming the first missing key of ``node``."""
    for key in keys:
        if key not in node or node[key] is None:
            raise RegimeDefinitionError(
                f"{what} is missing '{key}'; add it",
                message_pt=f"{what}: falta '{key}'",
                file=node.source,
                line=node.line,
            )


def reject_unknown_keys(node: YamlMap, allowed: tuple[str, ...], what: str) -> None:
    """RegimeDefinitionError for a key outside ``allowed`` (catches typos such as 'vlaue')."""
    for key in node:
        if key not in allowed:
            raise RegimeDefinitionError(
                f"unknown key '{key}' in {what}; allowed: {', '.join(allowed)}",
                message_pt=f"chave desconhecida '{key}' em {what}",
                file=node.source,
                line=node.line_of(key),
            )
