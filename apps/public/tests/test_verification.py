"""The status a parent sees, computed for the day asked, and the holder's name as published."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.licensing import services
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.public.choices import LookupVia, VerificationStatus
from apps.public.verification import (
    InvalidQuery,
    Query,
    parse_plate_or_number,
    parse_token,
    present,
    status_on,
    verify,
)

pytestmark = pytest.mark.django_db


def _plate_query(permit: Permit) -> Query:
    return Query(via=LookupVia.PLATE, value=permit.vehicle.plate, municipality=permit.municipality)


def test_an_active_permit_in_its_validity_is_regular(olimpia_permit: Permit, today: dt.date) -> None:
    [result] = verify(_plate_query(olimpia_permit), as_of=today)
    assert result.status == VerificationStatus.REGULAR
    assert result.may_carry_passengers
    assert result.permit_number == olimpia_permit.number
    assert result.holder_name == "Maria Aparecida Souza"
    assert (result.vehicle_make, result.vehicle_model) == ("Volkswagen", "Kombi")


def test_an_active_permit_past_its_validity_is_expired_before_the_sweep_runs(olimpia_permit: Permit) -> None:
    assert olimpia_permit.valid_until is not None
    day_after = olimpia_permit.valid_until + dt.timedelta(days=1)
    assert status_on(olimpia_permit, olimpia_permit.valid_until) == VerificationStatus.REGULAR
    assert status_on(olimpia_permit, day_after) == VerificationStatus.EXPIRED
    assert not present(olimpia_permit, day_after).may_carry_passengers


def test_a_permit_before_its_start_is_not_yet_valid(olimpia_permit: Permit) -> None:
    day_before = olimpia_permit.valid_from - dt.timedelta(days=1)
    assert status_on(olimpia_permit, day_before) == VerificationStatus.NOT_YET_VALID


def test_a_suspension_shows_until_when(olimpia_permit: Permit, today: dt.date) -> None:
    until = today + dt.timedelta(days=30)
    services.permit_suspend(
        permit=olimpia_permit, actor=None, as_of=today, until=until, reason="Decisão final."
    )
    [result] = verify(_plate_query(olimpia_permit), as_of=today)
    assert (result.status, result.suspended_until) == (VerificationStatus.SUSPENDED, until)
    assert "o alvará está suspenso" in result.message  # the instrument as Olímpia's law names it


def test_revoked_and_cancelled_are_told_apart(olimpia_permit: Permit, today: dt.date) -> None:
    services.permit_revoke(permit=olimpia_permit, actor=None, as_of=today, reason="Cassação (art. 25, § 2º).")
    [result] = verify(_plate_query(olimpia_permit), as_of=today)
    assert result.status == VerificationStatus.REVOKED
    Permit.objects.filter(pk=olimpia_permit.pk).update(state="cancelled")
    [result] = verify(_plate_query(olimpia_permit), as_of=today)
    assert result.status == VerificationStatus.CANCELLED


def test_the_permit_in_force_speaks_for_the_vehicle_over_a_newer_closed_one(
    olimpia_permit: Permit, today: dt.date
) -> None:
    old = Permit.objects.get(pk=olimpia_permit.pk)
    old.pk, old.application, old.sequence, old.number, old.qr_token = None, None, 99, "0099/2026", "x" * 32
    old.state, old.valid_from = "expired", today  # same start, later pk: the newest row, but closed
    old.save()
    [result] = verify(_plate_query(olimpia_permit), as_of=today)
    assert result.permit_number == olimpia_permit.number
    assert result.status == VerificationStatus.REGULAR


def test_an_unknown_plate_has_no_result(olimpia_permit: Permit, today: dt.date) -> None:
    query = Query(via=LookupVia.PLATE, value="ZZZ9Z99", municipality=olimpia_permit.municipality)
    assert verify(query, as_of=today) == []


def test_a_company_name_is_published_without_the_cpf_an_mei_name_carries(
    mei_case: Case, olimpia_permit: Permit, today: dt.date
) -> None:
    permit = Permit.objects.get(pk=olimpia_permit.pk)
    Permit.objects.filter(pk=permit.pk).update(operator=mei_case.operator)
    permit.refresh_from_db()
    result = present(
        Permit.objects.select_related("operator__company", "vehicle", "municipality").get(pk=permit.pk), today
    )
    assert result.holder_name == "Jose Pereira"


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("abc-1234", (LookupVia.PLATE, "ABC1234")),
        (" ABC1D23 ", (LookupVia.PLATE, "ABC1D23")),
        ("1/2026", (LookupVia.PERMIT, "0001/2026")),
        ("0042 / 2026", (LookupVia.PERMIT, "0042/2026")),
    ],
)
def test_the_single_field_reads_plates_and_permit_numbers(typed: str, expected: tuple[str, str]) -> None:
    assert parse_plate_or_number(typed) == expected


@pytest.mark.parametrize("typed", ["", "AB12", "ABCD123", "1234567", "12/26", "<script>"])
def test_malformed_input_is_refused_with_a_portuguese_message(typed: str) -> None:
    with pytest.raises(InvalidQuery) as error:
        parse_plate_or_number(typed)
    assert error.value.message_pt.startswith(("Digite", "Não reconhecemos"))


@pytest.mark.parametrize("token", ["", "short", "a" * 31, "a" * 33, "a" * 31 + "!", "../" + "a" * 29])
def test_a_token_must_have_the_shape_licensing_gives_it(token: str) -> None:
    with pytest.raises(InvalidQuery) as error:
        parse_token(token)
    assert error.value.code == "invalid_token"
