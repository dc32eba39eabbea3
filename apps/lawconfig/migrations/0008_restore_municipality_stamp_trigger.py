"""tenancy 0007 adds a JSON column with a default to tenancy_municipality; on SQLite that rebuilds the table and
drops the trigger of migration 0004 that gives every new municipality its configuration stamp (a municipality
without a stamp is never served a cached Config, and lawconfig's cache tests fail). The trigger is created again,
and any municipality created in between gets its stamp. PostgreSQL alters the table in place: nothing to do."""

import importlib

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def restore_sqlite_trigger(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    stamps = importlib.import_module("apps.lawconfig.migrations.0004_config_stamp")
    trigger = f"{stamps.MUNICIPALITY}_stamp"
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        for sql in stamps._sqlite_create():
            if sql.startswith(f"CREATE TRIGGER {trigger} "):
                cursor.execute(sql)
        cursor.execute(
            f"INSERT INTO {stamps.STAMP} (municipality_id, token) SELECT id, lower(hex(randomblob(16))) "
            f"FROM {stamps.MUNICIPALITY} WHERE id NOT IN (SELECT municipality_id FROM {stamps.STAMP})"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("lawconfig", "0007_municipal_corrections_supersede"),
        ("tenancy", "0007_municipality_regime_terms"),
    ]

    operations = [migrations.RunPython(restore_sqlite_trigger, migrations.RunPython.noop)]
