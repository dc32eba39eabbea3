"""Drop the unique index on `hash`: no query uses it, and (chain, seq) already makes every event one of a kind.

Every event's hash signs its chain and sequence number (apps.audit.hashing.hashed_fields), and (chain, seq) is
unique, so two stored events with the same hash would need an HMAC-SHA256 (or, for legacy events, SHA-256)
collision: the index could never refuse a row the (chain, seq) constraint lets in. No query searches by hash
(audit_verify and the checkpoints walk a chain by seq and recompute each hash), yet every append paid for a
random 64-character b-tree insert with its uniqueness check: about 30 % of the time PostgreSQL takes to store
a daily sweep's events (5,157 events by COPY at SCALE=0.01: ≈ 0.21 s with the index, ≈ 0.15 s without). A
forged or altered row is still caught where it always was, by audit_verify recomputing the chain.

The append-only triggers are dropped and recreated around the change, as in 0003 and 0005 (SQLite rebuilds the
table to drop a constraint, which would otherwise lose them).
"""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from apps.audit.triggers import create_triggers, drop_triggers


def suspend(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    drop_triggers(schema_editor.connection)


def restore(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    create_triggers(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("audit", "0005_plain_btree_indexes")]

    operations = [
        migrations.RunPython(suspend, restore),
        migrations.RemoveConstraint(model_name="auditevent", name="auditevent_hash_unique"),
        migrations.RunPython(restore, suspend),
    ]
