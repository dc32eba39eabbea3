"""Writes only in services (docs/architecture.md, "Where writes happen"): tools/check_writes.py passes on the
tree, and fails on a module that writes outside the services, so the rule cannot silently stop being checked."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "tools" / "check_writes.py"

WRITES = """
    from django.db import connection

    def approve(application, rows):
        Application.objects.create(number="1/2026")
        application.state = "approved"
        application.save(update_fields=["state"])
        Application.objects.filter(pk=application.pk).update(state="approved")
        Event.objects.bulk_create(rows)
        Counter.objects.get_or_create(kind="x")
        application.delete()
        with connection.cursor() as cursor:
            cursor.execute("UPDATE licensing_application SET state = 'approved'")
            cursor.execute(built_elsewhere())
"""

READS = """
    from django.core.cache import cache
    from django.core.files.storage import default_storage
    from django.db import connection

    def page(request, canvas, data: dict[str, int]):
        fields = {"a": 1}
        fields.update(b=2)
        data.update(c=3)
        attrs = []
        attrs.append(1)
        default_storage.save("name.txt", b"x")
        default_storage.delete("name.txt")
        cache.delete("key")
        canvas.save()
        request.session.save()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.execute(f"ANALYZE {table}")
        return Application.objects.filter(state="approved").count()
"""


def _module(root: Path, relative: str, source: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECKER), *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


@pytest.fixture(scope="module")
def checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_writes", CHECKER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tree_writes_only_in_its_services() -> None:
    result = _run()
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_view_that_writes_fails_with_file_line_and_function(tmp_path: Path) -> None:
    _module(tmp_path / "apps", "licensing/views.py", WRITES)
    result = _run(str(tmp_path / "apps"))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines == [
        "apps/licensing/views.py:5:approve: .create()",
        "apps/licensing/views.py:7:approve: .save()",
        "apps/licensing/views.py:8:approve: .update()",
        "apps/licensing/views.py:9:approve: .bulk_create()",
        "apps/licensing/views.py:10:approve: .get_or_create()",
        "apps/licensing/views.py:11:approve: .delete()",
        "apps/licensing/views.py:13:approve: .execute()",
        "apps/licensing/views.py:14:approve: .execute()",
    ]
    assert "outside the services" in result.stderr


def test_the_same_writes_pass_in_services_and_sweep_steps(tmp_path: Path) -> None:
    for relative in ("licensing/services.py", "dueprocess/services/effects.py", "inspections/sweep.py"):
        _module(tmp_path / "apps", relative, WRITES)
    _module(tmp_path / "apps", "licensing/tests/test_views.py", WRITES)
    result = _run(str(tmp_path / "apps"))
    assert result.returncode == 0, result.stdout


def test_reads_files_caches_and_dicts_are_not_writes(tmp_path: Path) -> None:
    _module(tmp_path / "apps", "licensing/selectors.py", READS)
    result = _run(str(tmp_path / "apps"))
    assert result.returncode == 0, result.stdout


def test_an_exception_covers_only_its_function(
    tmp_path: Path, checker: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = "def allowed(row):\n    row.save()\n\n\ndef other(row):\n    row.save()\n"
    _module(tmp_path / "apps", "public/stats.py", source)
    monkeypatch.setattr(checker, "ALLOWED", {"apps/public/stats.py::allowed": "a counter"})
    assert checker.check([tmp_path / "apps"]) == ["apps/public/stats.py:6:other: .save()"]


def test_an_exception_that_covers_no_write_is_reported(
    tmp_path: Path, checker: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module(tmp_path / "apps", "public/stats.py", "def allowed(row):\n    return row\n")
    monkeypatch.setattr(checker, "ALLOWED", {"apps/public/stats.py::allowed": "a counter"})
    assert checker.check([tmp_path / "apps"], stale=True) == [
        "apps/public/stats.py::allowed: declared in ALLOWED but writes nothing; remove the entry"
    ]


def test_every_exception_has_a_reason(checker: ModuleType) -> None:
    assert all(reason.strip() for reason in checker.ALLOWED.values())
