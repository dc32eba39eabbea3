"""Writes only in services: fail on an ORM write outside an app's service layer.

    .venv/bin/python tools/check_writes.py [ROOT ...]      (default: apps)

The rule (docs/architecture.md, "Where writes happen"): a database write lives in an app's ``services.py``, in a
module of its ``services/`` package, or in its ``sweep.py`` (the daily sweep's steps, services the scheduler
runs). Everything else reads. The few other places that write are declared in ALLOWED below, each with its
reason; a new one is a decision to add there, not a surprise found in review.

What counts as a write (read from the source, pure stdlib ``ast``, no Django needed):
- ``bulk_create``, ``bulk_update``, ``get_or_create``, ``update_or_create``: always;
- ``.create(...)``, ``.save(...)`` and ``.delete(...)`` without positional arguments (a model, a manager, a
  queryset; a storage's ``save(name, content)`` or a cache's ``delete(key)`` take positional ones), except on
  the receivers in NOT_ORM (a PDF canvas, a session);
- ``.update(...)`` with keyword arguments only, unless the receiver is a name the same function bound to a dict;
- ``cursor.execute`` / ``executemany`` whose SQL is not a literal starting with a read (SELECT, WITH ... SELECT,
  EXPLAIN, SHOW, PRAGMA, ANALYZE): SQL built elsewhere counts as a write, since it cannot be proven to read.
The project has no many-to-many field, so ``add``/``remove``/``set``/``clear`` are not looked at.

Exit 0 when every write is in an allowed place; exit 1 listing ``file:line:function: what`` otherwise.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Where writes may happen: a glob of paths (relative to the repository) or ``path::function`` for one function
# of a module (its qualified name: ``Class.method``). The one list of exceptions, each with its reason.
ALLOWED: dict[str, str] = {
    "apps/*/services.py": "the rule: an app's services",
    "apps/*/services/*.py": "the rule: an app's services, split into modules",
    "apps/*/sweep.py": "the daily sweep's steps: services run by the scheduler (apps.licensing.sweep)",
    "apps/finance/services_pix.py": (
        "finance's services of the PSP integration (charges, receipts, review queue), beside services.py"
    ),
    "apps/*/migrations/*.py": "generated schema and data migrations, run once by migrate",
    "apps/*/tests/*.py": "tests arrange rows directly",
    "apps/accounts/testing.py": "test support (signs test personas in); imported by tests only",
    "apps/accounts/demo.py::seed_demo_authenticators": "demo seeding: the demo logins' known authenticator",
    "apps/accounts/models.py::RecoveryCodeDevice.verify_token": (
        "django-otp's Device contract: the library's login flow consumes a used recovery code"
    ),
    "apps/audit/timeline.py::TimelineEvent.record": (
        "one timeline line (CaseEvent, ApplicationEvent) written inside the calling service's transaction"
    ),
    "apps/audit/triggers.py": "installs the audit table's append-only triggers (DDL, run by migrations)",
    "apps/tenancy/numbering.py": "the yearly number counters, taken inside the calling service's transaction",
    "apps/licensing/reminders.py::reminders_insert": (
        "the licensing sweep step's set-based INSERT ... SELECT of reminders (called by apps.licensing.sweep)"
    ),
    "apps/public/stats.py": "lookup counters (statistics, not acts): batched increments, no audit",
    "apps/public/selectors.py::Lookup.run": (
        "a read: the public lookup's SELECT, written once per process (the checker cannot see a built string)"
    ),
    "apps/public/standing_rows.py::PublicRows._run": (
        "a read: the public standing's drivers and documents SELECTs, written once per process (a built string)"
    ),
    "apps/ops/counters.py": "operations metrics counters (statistics, not acts): batched increments, no audit",
    "apps/ops/pending.py": (
        "the file store's own bookkeeping (bytes waiting for the store); the act attaching the file audits it"
    ),
    "apps/platforms/authentication.py::PlatformTokenAuthentication.authenticate": (
        "stamps a platform token's last use on each API call: a usage mark, not an act"
    ),
}

# Receivers whose argument-less save() is not the ORM's.
NOT_ORM = {
    "canvas": "reportlab's Canvas.save() finishes the PDF in memory",
    "session": "a session store's save()",
}

ALWAYS = {"bulk_create", "bulk_update", "get_or_create", "update_or_create"}
NO_POSITIONAL = {"create", "save", "delete"}
SQL = {"execute", "executemany"}
READ_SQL = ("SELECT", "WITH", "EXPLAIN", "SHOW", "PRAGMA", "ANALYZE")


def _receiver_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _sql_text(node: ast.expr) -> str | None:
    """The literal start of a SQL argument, or None when it is built elsewhere."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
    return None


def _reads(node: ast.expr | None) -> bool:
    text = _sql_text(node) if node is not None else None
    return text is not None and text.lstrip().upper().startswith(READ_SQL)


class _Finder(ast.NodeVisitor):
    def __init__(self) -> None:
        self.scope: list[str] = []
        self.dicts: list[set[str]] = [set()]
        self.found: list[tuple[int, str, str]] = []

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scope.append(node.name)
        self.dicts.append(_dict_names(node))
        self.generic_visit(node)
        self.dicts.pop()
        self.scope.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute) and self._writes(node, node.func):
            self.found.append((node.lineno, ".".join(self.scope) or "<module>", node.func.attr))
        self.generic_visit(node)

    def _writes(self, node: ast.Call, func: ast.Attribute) -> bool:
        name, receiver = func.attr, _receiver_name(func.value)
        if name in ALWAYS:
            return True
        if name in NO_POSITIONAL:
            return not node.args and receiver not in NOT_ORM
        if name == "update":
            return not node.args and bool(node.keywords) and receiver not in self.dicts[-1]
        if name in SQL:
            return not _reads(node.args[0] if node.args else None)
        return False


def _dict_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names the function binds to a dict (a literal, a comprehension, dict(...), or a dict annotation)."""
    names = set()
    for arg in function.args.args + function.args.kwonlyargs:
        if arg.annotation is not None and ast.unparse(arg.annotation).startswith(("dict", "Dict")):
            names.add(arg.arg)
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and _is_dict(node.value):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
    return names


def _is_dict(value: ast.expr) -> bool:
    if isinstance(value, ast.Dict | ast.DictComp):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"


def _allowed_by(relative: str, function: str) -> str | None:
    """The ALLOWED entry covering a write of ``function`` in ``relative``, if any."""
    for pattern in ALLOWED:
        path, _, only = pattern.partition("::")
        if fnmatch(relative, path) and (not only or function == only or function.startswith(only + ".")):
            return pattern
    return None


def writes_outside_services(path: Path, relative: str, used: set[str] | None = None) -> Iterator[str]:
    """``file:line:function: what`` for each write of ``path`` that no ALLOWED entry covers; the entries that
    did cover one are added to ``used``."""
    finder = _Finder()
    finder.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    for line, function, what in finder.found:
        entry = _allowed_by(relative, function)
        if entry is None:
            yield f"{relative}:{line}:{function}: .{what}()"
        elif used is not None:
            used.add(entry)


def check(roots: list[Path], *, stale: bool = False) -> list[str]:
    """Every write outside the allowed places under ``roots`` (paths named from each root's parent: apps/...);
    with ``stale``, also every named exception (an ALLOWED entry without a wildcard) that covers no write."""
    problems: list[str] = []
    used: set[str] = set()
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            relative = path.relative_to(root.parent).as_posix()
            problems.extend(writes_outside_services(path, relative, used))
    if stale:
        unused = [entry for entry in ALLOWED if "*" not in entry and entry not in used]
        problems.extend(
            f"{entry}: declared in ALLOWED but writes nothing; remove the entry" for entry in unused
        )
    return problems


def main(argv: list[str]) -> int:
    """Check the given folders, or the whole of apps/ (then the declared exceptions must all be in use)."""
    roots = [Path(arg).resolve() for arg in argv]
    problems = check(roots, stale=False) if roots else check([ROOT / "apps"], stale=True)
    for problem in problems:
        print(problem)
    if problems:
        print(
            f"{len(problems)} ORM write(s) outside the services (move them to the app's services, or declare the "
            "place in tools/check_writes.py ALLOWED with its reason).",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
