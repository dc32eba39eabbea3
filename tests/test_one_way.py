"""One way to name who acts and to show a refusal: copies once drifted, so this test fails when one comes back.

- Who acts: `apps.accounts.actors` holds the one `Actor` type and the helpers that read it (`actor_user`,
  `actor_name`, `signed_in`). A parameter `actor: Any`, a local `Actor = ...` alias or an `_actor_name` copy
  elsewhere is refused.
- A refusal: services raise `apps.web.refusals.refuse`; forms show it with `outorga.submit.attach_refusal`.
  Another module defining `refuse`, `attach_refusal`, `apply_refusal` or `add_service_errors` (even as a form
  method) is refused.

Tests are left out: their fakes may be called `refuse` and take `actor: Any`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ACTORS = "apps/accounts/actors.py"
# Each name, and the one module allowed to define it.
HOME = {
    "actor_user": ACTORS,
    "actor_name": ACTORS,
    "_actor_name": ACTORS,
    "signed_in": ACTORS,
    "refuse": "apps/web/refusals.py",
    "attach_refusal": "outorga/submit.py",
    "apply_refusal": "outorga/submit.py",
    "add_service_errors": "outorga/submit.py",
}


def _modules() -> list[Path]:
    paths = [*ROOT.glob("apps/**/*.py"), *ROOT.glob("outorga/**/*.py")]
    return sorted(path for path in paths if "tests" not in path.relative_to(ROOT).parts[:-1])


def _is_any(annotation: ast.expr | None) -> bool:
    return annotation is not None and ast.unparse(annotation) in {"Any", "typing.Any", "'Any'"}


def _assigns_actor(node: ast.Assign | ast.AnnAssign) -> bool:
    targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
    return any(isinstance(target, ast.Name) and target.id == "Actor" for target in targets)


def _problems(path: Path, name: str) -> list[str]:
    """What `path` (read as the module `name`, relative to the repository) does another way."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            home = HOME.get(node.name)
            if home is not None and home != name:
                problems.append(f"{name}:{node.lineno} def {node.name} (the one is in {home})")
            params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            problems += [
                f"{name}:{arg.lineno} actor: Any (use apps.accounts.actors.Actor)"
                for arg in params
                if arg.arg == "actor" and _is_any(arg.annotation)
            ]
        if isinstance(node, ast.Assign | ast.AnnAssign) and name != ACTORS and _assigns_actor(node):
            problems.append(f"{name}:{node.lineno} a local Actor alias (import apps.accounts.actors.Actor)")
    return problems


def test_the_scan_sees_the_modules() -> None:
    names = {str(path.relative_to(ROOT)) for path in _modules()}
    assert {
        ACTORS,
        "outorga/submit.py",
        "apps/licensing/services.py",
        "apps/dueprocess/services/effects.py",
    } <= names
    assert not any("/tests/" in name for name in names)


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_one_actor_type_and_one_refusal_helper(path: Path) -> None:
    assert _problems(path, str(path.relative_to(ROOT))) == []


def test_the_scan_catches_each_copy(tmp_path: Path) -> None:
    copy = tmp_path / "services.py"
    copy.write_text(
        "from typing import Any\n"
        "Actor = object\n"
        "def refuse(field, message): ...\n"
        "def _actor_name(actor): ...\n"
        "def transfer(*, actor: Any, as_of): ...\n"
        "class F:\n"
        "    def add_service_errors(self, error): ...\n",
        encoding="utf-8",
    )
    found = _problems(copy, "apps/example/services.py")
    assert [problem.split(" ", 1)[0] for problem in found] == [
        "apps/example/services.py:2",
        "apps/example/services.py:3",
        "apps/example/services.py:4",
        "apps/example/services.py:5",
        "apps/example/services.py:7",
    ], found


def test_the_homes_define_what_they_hold() -> None:
    """The allowed homes are real: a rename there would otherwise leave this test guarding nothing."""
    for name in {*HOME.values()}:
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert defined & {key for key, home in HOME.items() if home == name}, name
