"""Every service that writes records its audit event (docs/architecture.md, "Where writes happen"):
tools/check_audit.py passes on the tree, and fails on a service module whose public function writes without an
audit record, so the rule cannot silently stop being checked."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "tools" / "check_audit.py"

UNAUDITED = """
    from django.db import transaction

    from outorga.bulkinsert import insert_rows


    @transaction.atomic
    def permit_suspend(*, actor, permit):
        permit.state = "suspended"
        permit.save(update_fields=["state"])


    def permit_touch(*, actor, permit):
        _touch(permit)


    def mail_queue(*, rows):
        return insert_rows("jobs_outboundmail", ("subject",), rows)


    def _touch(permit):
        _really_touch(permit)


    def _really_touch(permit):
        Permit.objects.filter(pk=permit.pk).update(touched=True)


    def permit_label(permit):
        return permit.number
"""

AUDITED = """
    from django.db import transaction

    from apps.audit.services import audit_record
    from apps.licensing.helpers import audited_update


    @transaction.atomic
    def permit_suspend(*, actor, permit):
        permit.save(update_fields=["state"])
        audit_record(actor=actor, municipality=None, action="permit.suspend", obj=permit)


    @transaction.atomic
    def permit_touch(*, actor, permit):
        permit.save(update_fields=["touched"])
        _audit(actor, permit)


    @transaction.atomic
    def permit_close(*, actor, permit):
        permit.save(update_fields=["state"])
        audited_update(actor, permit)


    def _audit(actor, permit):
        audit_record(actor=actor, municipality=None, action="permit.touch", obj=permit)


    def _write_only(permit):
        permit.save()
"""

# A helper of another module, reached through a package's re-export.
HELPER = """
    from apps.audit.services import audit_record


    def audited_update(actor, permit):
        audit_record(actor=actor, municipality=None, action="permit.close", obj=permit)
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
def checker() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("check_audit", CHECKER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_the_tree_audits_every_writing_service() -> None:
    result = _run()
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_writing_service_without_audit_fails_with_file_line_and_function(tmp_path: Path) -> None:
    for relative in ("licensing/services.py", "licensing/sweep.py", "dueprocess/services/effects.py"):
        _module(tmp_path / "apps", relative, UNAUDITED)
    result = _run(str(tmp_path / "apps"))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "apps/dueprocess/services/effects.py:17:mail_queue: writes (.insert_rows() at line 18) with no audit record",
        "apps/dueprocess/services/effects.py:8:permit_suspend: writes (.save() at line 10) with no audit record",
        "apps/dueprocess/services/effects.py:13:permit_touch: writes (.update() at line 26) with no audit record",
    ]
    assert len(lines) == 9
    assert "no audit record" in result.stderr


def test_the_same_module_passes_outside_the_services(tmp_path: Path) -> None:
    _module(tmp_path / "apps", "licensing/selectors.py", UNAUDITED)
    _module(tmp_path / "apps", "licensing/tests/test_services.py", UNAUDITED)
    result = _run(str(tmp_path / "apps"))
    assert result.returncode == 0, result.stdout


def test_an_audit_through_a_helper_here_or_in_another_module_counts(tmp_path: Path) -> None:
    _module(tmp_path / "apps", "licensing/services.py", AUDITED)
    _module(tmp_path / "apps", "licensing/helpers/__init__.py", "from .rows import audited_update\n")
    _module(tmp_path / "apps", "licensing/helpers/rows.py", HELPER)
    result = _run(str(tmp_path / "apps"))
    assert result.returncode == 0, result.stdout


def test_a_helper_that_does_not_audit_does_not_count(tmp_path: Path) -> None:
    _module(tmp_path / "apps", "licensing/services.py", AUDITED)
    _module(tmp_path / "apps", "licensing/helpers/__init__.py", "from .rows import audited_update\n")
    _module(tmp_path / "apps", "licensing/helpers/rows.py", "def audited_update(actor, permit):\n    pass\n")
    result = _run(str(tmp_path / "apps"))
    assert result.stdout.splitlines() == [
        "apps/licensing/services.py:21:permit_close: writes (.save() at line 22) with no audit record"
    ]


def test_an_exemption_covers_only_its_function(
    tmp_path: Path, checker: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module(tmp_path / "apps", "licensing/services.py", UNAUDITED)
    monkeypatch.setattr(
        checker,
        "EXEMPT",
        {"apps/licensing/services.py::mail_queue": "outbox", "apps/licensing/services.py::permit_touch": "x"},
    )
    assert checker.check([tmp_path / "apps"]) == [
        "apps/licensing/services.py:8:permit_suspend: writes (.save() at line 10) with no audit record"
    ]


def test_an_exemption_that_covers_no_unaudited_service_is_reported(
    tmp_path: Path, checker: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    _module(tmp_path / "apps", "licensing/services.py", AUDITED)
    _module(tmp_path / "apps", "licensing/helpers/rows.py", HELPER)
    _module(tmp_path / "apps", "licensing/helpers/__init__.py", "from .rows import audited_update\n")
    monkeypatch.setattr(checker, "EXEMPT", {"apps/licensing/services.py::permit_suspend": "audited now"})
    assert checker.check([tmp_path / "apps"], stale=True) == [
        "apps/licensing/services.py::permit_suspend: declared in EXEMPT but no unaudited writing service has "
        "that name; remove the entry"
    ]


def test_every_exemption_has_a_reason(checker: ModuleType) -> None:
    assert all(reason.strip() for reason in checker.EXEMPT.values())
