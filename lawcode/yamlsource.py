"""YAML loading that remembers where every mapping and list came from — the one loader of lawcode.

Law data and scenario files are edited by hand, so every error must name the file and the line.
``load_yaml(path)`` / ``load_yaml_text(text, source)`` return plain dicts and lists, except that each mapping is a
``YamlMap`` (``.line``, ``.line_of(key)``) and each list a ``YamlList`` (``.line``, ``.line_at(index)``).
Duplicate keys — which PyYAML silently collapses — malformed dates and syntax errors raise an error naming
file:line. Regime files raise ``RegimeDefinitionError`` (the default); a caller with its own error type (the
scenario runner) passes ``error=`` a factory. Merge keys (``<<: *anchor``) work, explicit keys overriding them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml

from lawcode.errors import LawcodeError, RegimeDefinitionError

ErrorFactory = Callable[[str, int | None, str, str], LawcodeError]
"""``(source, line, message_en, message_pt) -> error`` raised for a malformed file."""


def regime_error(source: str, line: int | None, what: str, what_pt: str) -> LawcodeError:
    """The default error: a malformed regime file."""
    return RegimeDefinitionError(what, message_pt=what_pt, file=source, line=line)


class YamlMap(dict[Any, Any]):
    """A YAML mapping with line numbers (1-based) of itself and of each key."""

    line: int = 0
    key_lines: dict[Any, int]
    source: str = ""

    def line_of(self, key: Any) -> int:
        if key in self.key_lines:
            return self.key_lines[key]
        # Callers that stringify keys (years, numbers) still find the line.
        return next((line for k, line in self.key_lines.items() if str(k) == key), self.line)


class YamlList(list[Any]):
    """A YAML sequence with line numbers of itself and of each item."""

    line: int = 0
    item_lines: list[int]
    source: str = ""

    def line_at(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


class _LineLoader(yaml.SafeLoader):
    def __init__(self, text: str, source: str, error: ErrorFactory) -> None:
        super().__init__(text)
        self.source_name = source
        self.error = error


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


# Constructors are generators (yield the empty container, then fill it) so anchors may refer to themselves.
def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> Iterator[YamlMap]:
    data = YamlMap()
    data.line, data.key_lines, data.source = _line(node), {}, loader.source_name
    yield data
    _reject_duplicate_keys(loader, node)
    loader.flatten_mapping(node)  # merge keys (<<: *anchor) first; explicit keys then override them
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        data.key_lines[key] = _line(key_node)
        data[key] = loader.construct_object(value_node, deep=True)


def _reject_duplicate_keys(loader: _LineLoader, node: yaml.MappingNode) -> None:
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue
        key = loader.construct_object(key_node, deep=True)
        if key in seen:
            raise loader.error(
                loader.source_name,
                _line(key_node),
                f"duplicate key {key!r} (first at line {seen[key]}); keep only one",
                f"chave {key!r} repetida (primeira na linha {seen[key]}); mantenha só uma",
            )
        seen[key] = _line(key_node)


def _construct_sequence(loader: _LineLoader, node: yaml.SequenceNode) -> Iterator[YamlList]:
    data = YamlList()
    data.line, data.source = _line(node), loader.source_name
    data.item_lines = [_line(child) for child in node.value]
    yield data
    data.extend(loader.construct_object(child, deep=True) for child in node.value)


def _construct_timestamp(loader: _LineLoader, node: yaml.ScalarNode) -> Any:
    try:
        return loader.construct_yaml_timestamp(node)
    except ValueError as exc:
        raise loader.error(
            loader.source_name,
            _line(node),
            f"invalid date {node.value!r} ({exc}); write it as YYYY-MM-DD",
            f"data inválida {node.value!r}; escreva-a como AAAA-MM-DD",
        ) from exc


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_timestamp)


def load_yaml_text(text: str, source: str, *, error: ErrorFactory = regime_error) -> Any:
    """Parse YAML text; ``source`` names it in errors. Returns YamlMap/YamlList/scalars."""
    loader = _LineLoader(text, source, error)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "unreadable YAML"
        raise error(
            source,
            _line_of_mark(mark),
            f"malformed YAML: {problem}; fix the syntax",
            f"YAML malformado: {problem}; corrija a sintaxe",
        ) from exc
    except yaml.YAMLError as exc:
        raise error(
            source, None, f"malformed YAML: {exc}; fix the syntax", "YAML malformado; corrija a sintaxe"
        ) from exc
    finally:
        loader.dispose()


def _line_of_mark(mark: yaml.Mark | None) -> int | None:
    return int(mark.line) + 1 if mark is not None else None


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
