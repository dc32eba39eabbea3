"""Existing recovery codes (django-otp's StaticToken, stored in clear) become keyed hashes; the clear ones go.

Irreversible by nature: the codes cannot be recovered from their hashes (going back drops them; users then
generate new ones in "Minha conta").
"""

from django.conf import settings
from django.db import migrations
from django.utils.crypto import salted_hmac

# Same salt as apps.accounts.models.RECOVERY_CODE_HASH_SALT (copied: a migration must not follow later edits).
SALT = "outorga.accounts.recovery-code"


def hash_static_tokens(apps, schema_editor):
    StaticDevice = apps.get_model("otp_static", "StaticDevice")
    RecoveryCodeDevice = apps.get_model("accounts", "RecoveryCodeDevice")
    RecoveryCode = apps.get_model("accounts", "RecoveryCode")
    for static in StaticDevice.objects.all().iterator():
        device = RecoveryCodeDevice.objects.create(user_id=static.user_id, name=static.name, confirmed=static.confirmed)
        RecoveryCode.objects.bulk_create(
            RecoveryCode(
                device=device,
                digest=salted_hmac(SALT, token, secret=settings.SECRET_KEY, algorithm="sha256").hexdigest(),
            )
            for token in static.token_set.values_list("token", flat=True)
        )
    StaticDevice.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_recovery_codes_hashed"),
        ("otp_static", "0003_add_timestamps"),
    ]

    operations = [migrations.RunPython(hash_static_tokens, migrations.RunPython.noop)]
