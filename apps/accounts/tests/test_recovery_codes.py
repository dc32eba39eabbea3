"""Recovery codes are kept only as keyed hashes (ASVS 6.5.2): shown once, never stored, and the codes people
already hold (stored in clear by django-otp before) keep working after the migration hashed them."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken

from apps.accounts.models import RecoveryCode, RecoveryCodeDevice, User, recovery_code_digests
from apps.accounts.services import recovery_codes_generate

pytestmark = pytest.mark.django_db
migration = importlib.import_module("apps.accounts.migrations.0003_recovery_codes_from_django_otp")


def _every_stored_value() -> str:
    """Every column of every recovery-code row, as one string: where a clear code would show up."""
    with connection.cursor() as cursor:
        rows: list[Any] = []
        for table in (
            RecoveryCode._meta.db_table,
            RecoveryCodeDevice._meta.db_table,
            StaticToken._meta.db_table,
        ):
            cursor.execute(f"SELECT * FROM {table}")  # noqa: S608  (table names from the models)
            rows += cursor.fetchall()
    return repr(rows)


def test_generated_codes_are_stored_only_as_keyed_hashes(analyst_olimpia: User) -> None:
    codes = recovery_codes_generate(actor=analyst_olimpia, user=analyst_olimpia)
    assert len(codes) == 10 and len(set(codes)) == 10 and all(len(code) == 16 for code in codes)
    stored = _every_stored_value()
    assert not any(code in stored for code in codes)
    digests = set(RecoveryCode.objects.filter(device__user=analyst_olimpia).values_list("digest", flat=True))
    assert digests == {recovery_code_digests(code)[0] for code in codes}


def test_a_code_works_once_and_a_wrong_one_is_throttled(analyst_olimpia: User) -> None:
    codes = recovery_codes_generate(actor=analyst_olimpia, user=analyst_olimpia)
    device = RecoveryCodeDevice.objects.get(user=analyst_olimpia)
    assert device.verify_token(codes[3])
    assert not device.verify_token(codes[3])
    assert not device.verify_is_allowed()[0]  # the wrong (reused) code makes the next one wait


def test_the_hash_is_keyed_and_survives_a_secret_key_rotation(analyst_olimpia: User, settings: Any) -> None:
    codes = recovery_codes_generate(actor=analyst_olimpia, user=analyst_olimpia)
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY = "outra-chave-" + "x" * 50
    device = RecoveryCodeDevice.objects.get(user=analyst_olimpia)
    assert not device.verify_token(codes[0])  # without the key the hash says nothing
    settings.SECRET_KEY_FALLBACKS = [old_key]
    RecoveryCodeDevice.objects.filter(pk=device.pk).update(throttling_failure_timestamp=None)
    device.refresh_from_db()
    assert device.verify_token(codes[0])


def test_the_migration_hashes_the_codes_django_otp_kept_in_clear(analyst_olimpia: User) -> None:
    RecoveryCodeDevice.objects.filter(user=analyst_olimpia).delete()
    static = StaticDevice.objects.create(user=analyst_olimpia, name="Códigos de recuperação", confirmed=True)
    clear = ["abcdefghijkmnopq", "qrstuvwxyz234567"]
    StaticToken.objects.bulk_create(StaticToken(device=static, token=code) for code in clear)

    migration.hash_static_tokens(django_apps, None)

    assert not StaticDevice.objects.exists() and not StaticToken.objects.exists()
    assert not any(code in _every_stored_value() for code in clear)
    device = RecoveryCodeDevice.objects.get(user=analyst_olimpia)
    assert device.confirmed and device.codes.count() == 2
    assert device.verify_token("qrstuvwxyz234567")
