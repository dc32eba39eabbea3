"""The configuration stamp (models.ConfigStamp) and the triggers that change it with every configuration row.

The triggers, not Python signals, keep the stamp, because they also see queryset.update, bulk_create,
update_conflicts upserts and SQL typed in a console. On PostgreSQL a row trigger covers INSERT/UPDATE/DELETE
and a statement trigger covers TRUNCATE (which skips row triggers). On SQLite the stamp is written with an
UPDATE and an INSERT … WHERE NOT EXISTS rather than INSERT OR REPLACE: a statement's own conflict clause (the
INSERT OR IGNORE of bulk_create(ignore_conflicts=True)) overrides the one inside a trigger. Existing
municipalities get a fresh token, so no process can keep a Config built before this migration.

Every municipality has its stamp from the moment it is created (a trigger on tenancy_municipality), so a missing
stamp only means one was removed, and the engine never caches under a missing stamp. A row written or moved
INTO a municipality stamps it (creating the stamp if needed); a row deleted or moved OUT only changes an
existing stamp, never creates one: deleting a municipality's rows on its way out (or a test's flush) must not
leave a stamp pointing at a municipality that is gone.
"""

from django.core.exceptions import ImproperlyConfigured
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

TABLES = (
    "lawconfig_fiscalunitvalue",
    "lawconfig_parametervalue",
    "lawconfig_interpretationchoice",
    "lawconfig_municipalclosure",
)
STAMP = "lawconfig_configstamp"
MUNICIPALITY = "tenancy_municipality"

_PG_FUNCTIONS = f"""
CREATE OR REPLACE FUNCTION lawconfig_restamp(municipality bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO {STAMP} (municipality_id, token) VALUES (municipality, gen_random_uuid()::text)
    ON CONFLICT (municipality_id) DO UPDATE SET token = EXCLUDED.token
$$;
CREATE OR REPLACE FUNCTION lawconfig_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'DELETE' THEN
        PERFORM lawconfig_restamp(NEW.municipality_id);
    END IF;
    IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.municipality_id IS DISTINCT FROM NEW.municipality_id) THEN
        UPDATE {STAMP} SET token = gen_random_uuid()::text WHERE municipality_id = OLD.municipality_id;
    END IF;
    RETURN NULL;
END;
$$;
CREATE OR REPLACE FUNCTION lawconfig_municipality_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM lawconfig_restamp(NEW.id);
    RETURN NULL;
END;
$$;
CREATE OR REPLACE FUNCTION lawconfig_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE {STAMP} SET token = gen_random_uuid()::text;
    RETURN NULL;
END;
$$;
"""


def _pg_create() -> list[str]:
    statements = [_PG_FUNCTIONS]
    for table in TABLES:
        statements += [
            f"CREATE TRIGGER {table}_restamp AFTER INSERT OR UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION lawconfig_row_changed()",
            f"CREATE TRIGGER {table}_restamp_truncate AFTER TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION lawconfig_truncated()",
        ]
    statements += [
        f"CREATE TRIGGER {MUNICIPALITY}_stamp AFTER INSERT ON {MUNICIPALITY} "
        "FOR EACH ROW EXECUTE FUNCTION lawconfig_municipality_added()",
        f"INSERT INTO {STAMP} (municipality_id, token) SELECT id, gen_random_uuid()::text FROM {MUNICIPALITY}",
    ]
    return statements


def _pg_drop() -> list[str]:
    statements = [f"DROP TRIGGER IF EXISTS {MUNICIPALITY}_stamp ON {MUNICIPALITY}"]
    for table in TABLES:
        statements += [
            f"DROP TRIGGER IF EXISTS {table}_restamp ON {table}",
            f"DROP TRIGGER IF EXISTS {table}_restamp_truncate ON {table}",
        ]
    return statements + [
        "DROP FUNCTION IF EXISTS lawconfig_municipality_added()",
        "DROP FUNCTION IF EXISTS lawconfig_truncated()",
        "DROP FUNCTION IF EXISTS lawconfig_row_changed()",
        "DROP FUNCTION IF EXISTS lawconfig_restamp(bigint)",
    ]


def _sqlite_restamp(row: str) -> str:
    token = "lower(hex(randomblob(16)))"
    return (
        f"UPDATE {STAMP} SET token = {token} WHERE municipality_id = {row}.municipality_id; "
        f"INSERT INTO {STAMP} (municipality_id, token) SELECT {row}.municipality_id, {token} "
        f"WHERE NOT EXISTS (SELECT 1 FROM {STAMP} WHERE municipality_id = {row}.municipality_id);"
    )


def _sqlite_changed(row: str) -> str:
    """A row left a municipality: change its stamp if it has one, never create one (see the module docstring)."""
    return f"UPDATE {STAMP} SET token = lower(hex(randomblob(16))) WHERE municipality_id = {row}.municipality_id;"


def _sqlite_create() -> list[str]:
    statements = []
    for table in TABLES:
        statements += [
            f"CREATE TRIGGER {table}_restamp_insert AFTER INSERT ON {table} BEGIN {_sqlite_restamp('NEW')} END",
            f"CREATE TRIGGER {table}_restamp_delete AFTER DELETE ON {table} BEGIN {_sqlite_changed('OLD')} END",
            f"CREATE TRIGGER {table}_restamp_update AFTER UPDATE ON {table} "
            f"BEGIN {_sqlite_restamp('NEW')} {_sqlite_changed('OLD')} END",
        ]
    added = _sqlite_restamp("NEW").replace("NEW.municipality_id", "NEW.id")
    statements += [
        f"CREATE TRIGGER {MUNICIPALITY}_stamp AFTER INSERT ON {MUNICIPALITY} BEGIN {added} END",
        f"INSERT INTO {STAMP} (municipality_id, token) SELECT id, lower(hex(randomblob(16))) FROM {MUNICIPALITY}",
    ]
    return statements


def _sqlite_drop() -> list[str]:
    triggers = [f"{table}_restamp_{op}" for table in TABLES for op in ("insert", "delete", "update")]
    return [f"DROP TRIGGER IF EXISTS {name}" for name in [*triggers, f"{MUNICIPALITY}_stamp"]]


def _run(schema_editor: BaseDatabaseSchemaEditor, statements: list[str]) -> None:
    with schema_editor.connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in ("postgresql", "sqlite"):
        raise ImproperlyConfigured(f"No configuration stamp triggers for database vendor {vendor!r}")
    _run(schema_editor, _pg_create() if vendor == "postgresql" else _sqlite_create())


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    _run(schema_editor, _pg_drop() if vendor == "postgresql" else _sqlite_drop())


class Migration(migrations.Migration):
    dependencies = [
        ("lawconfig", "0003_fiscal_unit_declared_by_the_regime"),
        ("tenancy", "0005_municipality_public_contact"),
    ]

    operations = [
        migrations.CreateModel(
            name="ConfigStamp",
            fields=[
                (
                    "municipality",
                    models.OneToOneField(
                        on_delete=models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="tenancy.municipality",
                        verbose_name="município",
                    ),
                ),
                ("token", models.CharField(max_length=36, verbose_name="marca da configuração")),
            ],
            options={
                "verbose_name": "marca da configuração municipal",
                "verbose_name_plural": "marcas da configuração municipal",
            },
        ),
        migrations.RunPython(forwards, backwards),
    ]
