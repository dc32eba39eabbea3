"""Index `action` and keep `hash` unique with plain b-trees only.

`db_index=True` / `unique=True` on a CharField also build, on PostgreSQL, a `varchar_pattern_ops` copy for
LIKE queries; none of the audit table's queries uses one (actions are matched by equality, hashes are never
searched), and every append paid for both. The new index and constraint are created before the old ones are
dropped, so `hash` is never without its uniqueness. The append-only triggers are dropped and recreated around
the changes, as in 0003 (SQLite rebuilds the table to alter a field, which would otherwise lose them); the
migration runs in one transaction on both databases.
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
    dependencies = [("audit", "0004_data_subject_request")]

    operations = [
        migrations.RunPython(suspend, restore),
        migrations.AddIndex(
            model_name="auditevent",
            index=models.Index(fields=["action"], name="auditevent_action_idx"),
        ),
        migrations.AddConstraint(
            model_name="auditevent",
            constraint=models.UniqueConstraint(fields=("hash",), name="auditevent_hash_unique"),
        ),
        migrations.AlterField(
            model_name="auditevent",
            name="action",
            field=models.CharField(max_length=64, verbose_name="ação"),
        ),
        migrations.AlterField(
            model_name="auditevent",
            name="hash",
            field=models.CharField(max_length=64, verbose_name="hash"),
        ),
        migrations.RunPython(restore, suspend),
    ]
