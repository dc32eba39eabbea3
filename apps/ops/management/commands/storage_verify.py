"""manage.py storage_verify: every stored file against the SHA-256 its row keeps (after a restore, in cron)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apps.ops.storage import verify_all


class Command(BaseCommand):
    help = "Confere cada arquivo guardado (disco ou S3) com o SHA-256 registrado na sua linha do banco."

    def handle(self, *args: Any, **options: Any) -> None:
        checked, problems = verify_all()
        failed = [problem for problem in problems if not problem.pending]
        for problem in problems:
            what = "pending" if problem.pending else "missing" if problem.missing else "SHA-256 mismatch"
            self.stdout.write(f"  {problem.label} {problem.pk}: {problem.name}: {what}")
        if failed:
            raise CommandError(f"{len(failed)} of {checked} stored files failed the check.", returncode=1)
        waiting = len(problems)
        note = f" ({waiting} still waiting in the database to be written: storage_deliver)" if waiting else ""
        self.stdout.write(f"{checked - waiting} stored files match their SHA-256{note}.")
