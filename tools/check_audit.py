"""Every service that writes records its audit event: fail on a public service writing without one.

    .venv/bin/python tools/check_audit.py [ROOT ...]      (default: apps)

The rule (docs/architecture.md, "Where writes happen"): a public service, ``<entity>_<verb>(*, actor, ...)`` in
an app's ``services.py``, a module of its ``services/`` package or its ``sweep.py``, runs in one transaction and
writes its ``AuditEvent`` in that transaction. tools/check_writes.py keeps the writes in the services; this
checker keeps the services audited. The services that write rows which are not acts (counters, caches, derived
feeds) are declared in EXEMPT below, each with its reason; a new one is a decision to add there.

Read from the source (pure stdlib ``ast``, no Django needed):
- a public service is a module-level function of a service module whose name does not start with ``_``;
- it writes when its body, a function nested in it, or a private helper of the same module it calls (at any
  depth) holds a write as tools/check_writes.py counts them, or calls a bulk writer of BULK_WRITERS;
- it audits when it calls, at any depth, one of AUDIT_WRITERS: directly, through any function of the same
  module, or through a function of another ``apps`` module it imports (another service, a shared helper).

Exit 0 when every writing service audits; exit 1 listing ``file:line:function: writes (.what() at line N) with
no audit record`` otherwise. Checking the whole of apps/ also fails on an EXEMPT entry that no longer covers a
writing service without audit (renamed, gone, or audited now), so the list stays true.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_writes import _Finder  # noqa: E402  (the one definition of a write, shared with check_writes)

ROOT = Path(__file__).resolve().parents[1]

SERVICES = ("apps/*/services.py", "apps/*/services/*.py", "apps/*/sweep.py")
SKIPPED_PARTS = {"tests", "migrations"}

# The functions that append to the audit chain (apps.audit.services, itself not checked: it is the chain).
AUDIT_MODULE = "apps/audit/services.py"
AUDIT_WRITERS = {
    "audit_record",
    "audit_record_batch",
    "audit_personal_data_read",
    "audit_list_export",
    "audited_change",  # a block changing one row, recorded by audit_record when it ends
}

# Writers outside apps/ that a service calls by name: the bulk insert of plain rows (COPY on PostgreSQL).
BULK_WRITERS = {"insert_rows": "outorga.bulkinsert.insert_rows"}

# Public services that write and record no audit event: ``path::function`` and the reason. The one list.
EXEMPT: dict[str, str] = {
    "apps/accounts/services.py::totp_device_pending": (
        "an enrolment in progress (an unconfirmed secret, no act); totp_device_confirm audits mfa.device_add"
    ),
    "apps/enforcement/services/__init__.py::refresh_notice_limit": (
        "a piece of case_open and of a notice's ciência, run in their transaction; their event's after has it"
    ),
    "apps/jobs/services.py::mail_queue": (
        "the e-mail outbox, queued inside the transaction of the act causing the e-mails, which audits it"
    ),
    "apps/jobs/services.py::mail_queue_rows": "the e-mail outbox, as mail_queue (returning the stored rows)",
    "apps/licensing/sweep.py::locked_update": (
        "a piece of the sweep steps: the locked UPDATE ... RETURNING whose rows each caller audits (audit_rows)"
    ),
    "apps/platforms/services/changes.py::capture": (
        "the platforms' change feed: rows derived from audit events already written (docs/architecture.md)"
    ),
    "apps/platforms/services/webhooks.py::enqueue": "webhook deliveries of the change feed, derived rows",
    "apps/platforms/services/webhooks.py::deliver_due": "webhook delivery attempts of the change feed",
}


@dataclass
class _Function:
    line: int
    writes: list[tuple[int, str]] = field(default_factory=list)
    calls: set[str] = field(default_factory=set)
    audits: bool = False


@dataclass
class _Module:
    relative: str
    functions: dict[str, _Function] = field(default_factory=dict)
    imports: dict[str, str] = field(default_factory=dict)  # local name -> "dotted.module:name" or module


def _dotted(relative: str) -> str:
    parts = relative.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, dotted: str, is_package: bool) -> dict[str, str]:
    """Each imported name bound at module level: ``module:name`` for a from-import, ``module`` for a module."""
    package = dotted if is_package else dotted.rpartition(".")[0]
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            source = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
            for alias in node.names:
                names[alias.asname or alias.name] = f"{source}:{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.partition(".")[0]
                names[bound] = alias.name if alias.asname else bound
    return names


def _called_name(call: ast.Call) -> str:
    """``name`` for ``name(...)``, ``receiver.name`` for ``receiver.name(...)`` (a module's function)."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""


def _read_module(path: Path, relative: str) -> _Module:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = _Module(relative, imports=_imports(tree, _dotted(relative), path.name == "__init__.py"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            module.functions[node.name] = _summary(node)
        elif isinstance(node, ast.ClassDef):  # methods: followed when called as Class.method(...)
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    module.functions[f"{node.name}.{item.name}"] = _summary(item)
    return module


def _summary(function: ast.FunctionDef | ast.AsyncFunctionDef) -> _Function:
    """The writes of a function (nested functions included) and the names it calls."""
    finder = _Finder()
    finder.visit(function)
    summary = _Function(line=function.lineno, writes=[(line, what) for line, _, what in finder.found])
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and (name := _called_name(node)):
            summary.calls.add(name)
            summary.audits |= name.rpartition(".")[2] in AUDIT_WRITERS
            if name.rpartition(".")[2] in BULK_WRITERS:
                summary.writes.append((node.lineno, name.rpartition(".")[2]))
    return summary


class _Project:
    """Every module of the checked roots, to follow a call from one function to another."""

    def __init__(self, modules: dict[str, _Module]) -> None:
        self.modules = modules  # by dotted name
        self._audits: dict[tuple[str, str], bool] = {}

    def resolve(self, dotted: str, called: str) -> tuple[str, str] | None:
        """The (module, function) a call names from inside ``dotted``, when it is one of the project's."""
        module = self.modules[dotted]
        head, _, attr = called.partition(".")
        if not attr and called in module.functions:
            return dotted, called
        target = module.imports.get(head)
        if target is None:
            return None
        source, _, name = target.partition(":")
        if not attr:
            return self._defined(source, name, depth=0)
        if name and (method := self._defined(source, f"{name}.{attr}", depth=0)):
            return method  # Class.method(...), the class imported
        return self._defined(f"{source}.{name}" if name else source, attr, depth=0)  # module.function(...)

    def _defined(self, dotted: str, name: str, depth: int) -> tuple[str, str] | None:
        """Where ``dotted.name`` is defined, following re-exports (a package's ``__init__`` importing it)."""
        module = self.modules.get(dotted)
        if module is None or depth > 5:
            return None
        if name in module.functions:
            return dotted, name
        target = module.imports.get(name)
        if target is None or ":" not in target:
            return None
        source, _, original = target.partition(":")
        return self._defined(source, original, depth + 1)

    def audits(self, dotted: str, name: str, seen: set[tuple[str, str]] | None = None) -> bool:
        """Whether the function calls an audit writer, itself or through any function of the project."""
        key = (dotted, name)
        if key in self._audits:
            return self._audits[key]
        seen = set() if seen is None else seen
        if key in seen:
            return False
        seen.add(key)
        function = self.modules[dotted].functions[name]
        found = function.audits or any(
            target is not None and self.audits(*target, seen=seen)
            for target in (self.resolve(dotted, called) for called in sorted(function.calls))
        )
        self._audits[key] = found
        return found

    def writes(self, dotted: str, name: str) -> list[tuple[int, str]]:
        """The function's writes and those of the same module's private helpers it calls, at any depth."""
        module, found, pending, seen = self.modules[dotted], [], [name], {name}
        while pending:
            function = module.functions[pending.pop()]
            found.extend(function.writes)
            for called in function.calls:
                if called.startswith("_") and called in module.functions and called not in seen:
                    seen.add(called)
                    pending.append(called)
        return sorted(found)


def _is_service(relative: str) -> bool:
    return any(fnmatch(relative, pattern) for pattern in SERVICES)


def _load(roots: list[Path]) -> _Project:
    modules = {}
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            if SKIPPED_PARTS & set(path.relative_to(root).parts):
                continue
            relative = path.relative_to(root.parent).as_posix()
            modules[_dotted(relative)] = _read_module(path, relative)
    return _Project(modules)


def unaudited(roots: list[Path]) -> dict[str, str]:
    """``path::function`` -> ``file:line:function: ...`` for each public service writing with no audit."""
    project, found = _load(roots), {}
    for dotted, module in project.modules.items():
        if not _is_service(module.relative) or module.relative == AUDIT_MODULE:
            continue
        for name, function in module.functions.items():
            if name.startswith("_") or "." in name:
                continue
            writes = project.writes(dotted, name)
            if writes and not project.audits(dotted, name):
                line, what = writes[0]
                found[f"{module.relative}::{name}"] = (
                    f"{module.relative}:{function.line}:{name}: writes (.{what}() at line {line}) "
                    "with no audit record"
                )
    return found


def check(roots: list[Path], *, stale: bool = False) -> list[str]:
    """Every writing public service without an audit record that EXEMPT does not declare; with ``stale``, also
    every EXEMPT entry that names no such service."""
    found = unaudited(roots)
    problems = [problem for key, problem in sorted(found.items()) if key not in EXEMPT]
    if stale:
        problems.extend(
            f"{entry}: declared in EXEMPT but no unaudited writing service has that name; remove the entry"
            for entry in EXEMPT
            if entry not in found
        )
    return problems


def main(argv: list[str]) -> int:
    """Check the given folders, or the whole of apps/ (then the declared exceptions must all be in use)."""
    roots = [Path(arg).resolve() for arg in argv]
    problems = check(roots) if roots else check([ROOT / "apps"], stale=True)
    for problem in problems:
        print(problem)
    if problems:
        print(
            f"{len(problems)} writing service(s) with no audit record (record the act with "
            "apps.audit.services.audit_record in the same transaction, or declare the service in "
            "tools/check_audit.py EXEMPT with its reason).",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
