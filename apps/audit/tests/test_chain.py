from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from apps.accounts.models import User
from apps.audit.hashing import compute_event_hash
from apps.audit.keys import configured_keys
from apps.audit.models import AuditEvent
from apps.audit.services import AuditOutsideTransactionError, audit_record
from apps.audit.triggers import triggers_suspended
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def verify(*args: str) -> tuple[str, bool]:
    out = StringIO()
    try:
        call_command("audit_verify", *args, stdout=out)
    except CommandError:
        return out.getvalue(), False
    return out.getvalue(), True


def tamper(sql: str, params: list[int | str]) -> None:
    with transaction.atomic(), triggers_suspended(connection), connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_it_chains_each_event_to_the_previous_one_of_its_municipality(
    analyst_olimpia: User, agent_votuporanga: User
) -> None:
    chain = list(AuditEvent.objects.of_chain("3533908"))
    assert [e.seq for e in chain] == [1, 2]
    assert chain[0].prev_hash == "" and chain[1].prev_hash == chain[0].hash
    assert all(e.hash == compute_event_hash(e, configured_keys()) for e in chain)
    assert AuditEvent.objects.of_chain("3557105").first().prev_hash == ""  # type: ignore[union-attr]


def test_it_reports_ok_with_counts(analyst_olimpia: User, agent_votuporanga: User) -> None:
    output, ok = verify()
    assert ok
    assert "OK      chain 3533908: 2 event(s), no checkpoint yet" in output
    assert "OK: 3 chain(s), 6 event(s) verified, 0 checkpoint file(s)" in output


def test_it_names_the_exact_tampered_event(analyst_olimpia: User, olimpia: Municipality) -> None:
    for number in range(3):
        with transaction.atomic():
            audit_record(actor=analyst_olimpia, municipality=olimpia, action=f"test.{number}", obj=olimpia)
    victim = AuditEvent.objects.get(chain="3533908", seq=3)
    tamper("UPDATE audit_auditevent SET after = %s WHERE id = %s", ['{"forged": true}', victim.pk])
    output, ok = verify("--municipality", "3533908")
    assert not ok
    expected = compute_event_hash(AuditEvent.objects.get(pk=victim.pk), configured_keys())
    assert (
        f"event id={victim.pk} seq=3: hash mismatch; expected '{expected}', found '{victim.hash}'" in output
    )


def test_it_detects_a_recomputed_hash_through_the_next_link(
    analyst_olimpia: User, olimpia: Municipality
) -> None:
    with transaction.atomic():
        audit_record(actor=None, municipality=olimpia, action="test.next", obj=olimpia)
    victim = AuditEvent.objects.get(chain="3533908", seq=2)
    victim.actor_name = "forger"
    forged_hash = compute_event_hash(victim, configured_keys())
    tamper(
        "UPDATE audit_auditevent SET actor_name = %s, hash = %s WHERE id = %s",
        ["forger", forged_hash, victim.pk],
    )
    output, ok = verify()
    assert not ok
    following = AuditEvent.objects.get(chain="3533908", seq=3)
    assert f"event id={following.pk} seq=3: prev_hash mismatch" in output


def test_it_detects_a_deleted_event(analyst_olimpia: User, olimpia: Municipality) -> None:
    with transaction.atomic():
        audit_record(actor=None, municipality=olimpia, action="test.last", obj=olimpia)
    tamper("DELETE FROM audit_auditevent WHERE chain = %s AND seq = 2", ["3533908"])
    output, ok = verify()
    assert not ok
    assert "seq=3: sequence gap; expected '2', found '3'" in output


def test_it_rejects_an_unknown_municipality_filter(olimpia: Municipality) -> None:
    with pytest.raises(CommandError, match="No municipality with IBGE code 1234567"):
        call_command("audit_verify", "--municipality", "1234567", stdout=StringIO())


def test_it_hashes_decimals_and_dates_the_way_they_are_stored(olimpia: Municipality) -> None:
    from datetime import date
    from decimal import Decimal

    with transaction.atomic():
        event = audit_record(
            actor=None,
            municipality=olimpia,
            action="test.money",
            obj=olimpia,
            after={"fine": Decimal("384.20"), "due": date(2026, 3, 2)},
        )
    stored = AuditEvent.objects.get(pk=event.pk)
    assert stored.after == {"fine": "384.20", "due": "2026-03-02"}
    assert verify()[1]


@pytest.mark.django_db(transaction=True)
def test_it_refuses_to_record_outside_a_transaction(olimpia: Municipality) -> None:
    with pytest.raises(AuditOutsideTransactionError):
        audit_record(actor=None, municipality=olimpia, action="test.autocommit", obj=olimpia)
