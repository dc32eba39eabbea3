"""Record per event how its hash was computed (plain SHA-256 before this migration, HMAC-SHA256 after).

Existing rows become "sha256" with no key id, so they keep verifying exactly as they were written. The
append-only triggers are dropped and recreated around the column changes (SQLite rebuilds the table to add
a column, which would otherwise lose them); the migration runs in one transaction on both databases.
"""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from apps.audit.triggers import create_triggers, drop_triggers


def suspend(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    drop_triggers(schema_editor.connection)


def restore(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    create_triggers(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("audit", "0002_append_only_triggers")]

    operations = [
        migrations.RunPython(suspend, restore),
        migrations.AddField(
            model_name="auditevent",
            name="hash_scheme",
            field=models.CharField(
                choices=[
                    ("sha256", "SHA-256 (sem chave, eventos antigos)"),
                    ("hmac-sha256", "HMAC-SHA256 (com chave fora do banco)"),
                ],
                default="sha256",
                max_length=16,
                verbose_name="esquema do hash",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditevent",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=32, verbose_name="id da chave"),
            preserve_default=False,
        ),
        migrations.RunPython(restore, suspend),
    ]
