"""Sequential numbers per municipality and year, correct when many transactions take one at once.

The sequence row is locked with SELECT … FOR UPDATE (PostgreSQL); SQLite runs every transaction as IMMEDIATE
(settings), so writers are already serialized there. The first number of a year creates the row: two
transactions racing to create it collide on the unique constraint, and the loser re-reads the winner's row
under the lock instead of failing. The callers' own unique constraint on (municipality, year, sequence) is the
last line of defence.
"""

from __future__ import annotations

from django.db import IntegrityError, models, transaction

from apps.tenancy.models import Municipality


def take_next_number(sequence_model: type[models.Model], municipality: Municipality, year: int) -> int:
    """Reserve and return the next number; must run inside the caller's transaction."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("take_next_number must run inside the caller's transaction.atomic block")
    row = _locked_row(sequence_model, municipality, year)
    row.last += 1  # type: ignore[attr-defined]
    row.save(update_fields=["last"])
    return int(row.last)  # type: ignore[attr-defined]


def _locked_row(sequence_model: type[models.Model], municipality: Municipality, year: int) -> models.Model:
    manager = sequence_model._default_manager
    row = manager.select_for_update().filter(municipality=municipality, year=year).first()
    if row is not None:
        return row
    try:
        with transaction.atomic():
            return manager.create(municipality=municipality, year=year, last=0)
    except IntegrityError:
        return manager.select_for_update().get(municipality=municipality, year=year)


def format_number(sequence: int, year: int) -> str:
    """'0042/2026': four digits at least, the year after the slash."""
    return f"{sequence:04d}/{year}"
