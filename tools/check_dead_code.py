"""Lists code nothing calls: functions, methods, properties, classes and imports no module, test or template uses.

Run by `make lint`. Built on vulture (static: a name is used when it appears anywhere in the scanned code), with
what vulture cannot see made explicit:
- names the framework calls by convention (views' ``get_queryset``, a form's ``clean_x``, a management command's
  ``handle`` …) and functions registered by a decorator (template tags, receivers, fixtures, tasks) — IGNORED_*;
- classes and functions Django loads from a dotted path written in ``outorga/settings.py`` (middleware, routers,
  backends, callables): every dotted string there counts as a use of its last part;
- names used by templates (``{{ x.method }}``): every identifier in ``templates/`` and ``apps/*/templates/``;
- anything else on purpose: ``tools/dead_code_whitelist.txt``, one ``path::name`` a line with the reason.
Variables and attributes are not checked: in Django they are mostly declarations read by the framework.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from vulture.core import Vulture

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ["apps", "lawcode", "outorga", "tools", "tests", "benchmarks", "conftest.py", "manage.py"]
EXCLUDED = ["*/migrations/*"]
CHECKED_KINDS = {"function", "method", "property", "class", "import", "unreachable_code"}
WHITELIST = ROOT / "tools" / "dead_code_whitelist.txt"

IGNORED_NAMES = [
    # Django and DRF call these by name.
    "Meta",
    "get_queryset",
    "get_object",
    "get_context_data",
    "form_valid",
    "form_invalid",
    "dispatch",
    "clean",
    "clean_*",
    "save",
    "ready",
    "handle",
    "add_arguments",
    "get_absolute_url",
    "has_permission",
    "has_object_permission",
    "to_representation",
    "to_internal_value",
    "validate",
    "validate_*",
    "authenticate",
    "authenticate_header",
    "get_serializer_class",
    "get_serializer_context",
    "get_*_definition",
    "get_exception_handler",
    "allow_request",
    "wait",
    "label_from_instance",
    "get_or_create_user",
    "create_user",
    "update_user",
    "filter_users_by_claims",
    "verify_claims",
    "get_default_redirect_url",
    "get_success_url",
    "resolve_request",
    "process_request",
    "process_response",
    "process_view",
    "process_exception",
    "db_for_read",
    "db_for_write",
    "allow_relation",
    "allow_migrate",
    "get_user",
    "user_can_authenticate",
    "get_throttle_factor",
    "get_*_display",
    "from_db_value",
    "to_python",
    "get_prep_value",
    "deconstruct",
    "get_form_kwargs",
    "get_initial",
    "get_template_names",
    "*Config",
    "*Middleware",
    # The standard library's protocols.
    "writable",
    "readable",
    "seekable",
    "do_GET",
    "do_POST",
    "do_PUT",
    "do_DELETE",
    "log_message",
    "send_messages",
    "emit",
    "__*__",
    # pytest.
    "test_*",
    "Test*",
    "pytest_*",
    "setup_*",
    "teardown_*",
]
IGNORED_DECORATORS = [
    "@register.*",
    "@register_*",
    "@*.register",
    "@*.register_*",
    "@receiver",
    "@pytest.fixture",
    "@pytest.fixture*",
    "@pytest.hookimpl*",
    "@task",
    "@*.task",
    "@extend_schema*",
    "@action",
    "@api_view",
    "@given",
    "@rule",
    "@invariant",
    "@initialize",
    "@precondition",
    "@override",
    "@*.setter",
    "@admin.*",
    "@hookimpl",
]
DOTTED = re.compile(r"^[a-z_][\w]*(\.[A-Za-z_]\w*)+$")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def settings_references() -> set[str]:
    """The last part of every dotted path string in settings.py ("apps.web.middleware.X" → "X")."""
    tree = ast.parse((ROOT / "outorga" / "settings.py").read_text())
    return {
        node.value.rsplit(".", 1)[1]
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED.match(node.value)
    }


def template_names() -> set[str]:
    names: set[str] = set()
    for folder in [ROOT / "templates", *ROOT.glob("apps/*/templates")]:
        for path in folder.rglob("*"):
            if path.is_file():
                names.update(IDENTIFIER.findall(path.read_text(errors="replace")))
    return names


def whitelisted() -> set[tuple[str, str]]:
    entries = set()
    for number, raw in enumerate(WHITELIST.read_text().splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        path, sep, name = line.partition("::")
        if not sep or "#" not in raw:
            sys.exit(f"{WHITELIST}:{number}: write 'path::name  # why it is kept'")
        entries.add((path.strip(), name.strip()))
    return entries


def unused() -> list[str]:
    vulture = Vulture(ignore_names=IGNORED_NAMES, ignore_decorators=IGNORED_DECORATORS)
    vulture.scavenge([str(ROOT / path) for path in SCANNED], exclude=EXCLUDED)
    used = settings_references() | template_names()
    kept = whitelisted()
    found = []
    for item in vulture.get_unused_code(min_confidence=60):
        path = str(Path(item.filename).resolve().relative_to(ROOT))
        if item.typ not in CHECKED_KINDS or item.name in used or (path, item.name) in kept:
            continue
        found.append(f"{path}:{item.first_lineno}: {item.message}")
    return sorted(found)


def main() -> int:
    found = unused()
    for line in found:
        print(line)
    if found:
        print(
            f"\n{len(found)} unused: remove them, or list each in tools/dead_code_whitelist.txt with why it is kept.",
            file=sys.stderr,
        )
        return 1
    print("No dead code.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
