"""Make audit_auditevent append-only in the database itself (SQLite and PostgreSQL).

The SQL lives in apps.audit.triggers so maintenance code (flush, tests) reuses exactly the same
statements; this migration only applies them for the connection's vendor.
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from apps.audit.triggers import create_triggers, drop_triggers


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    create_triggers(schema_editor.connection)


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    drop_triggers(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
