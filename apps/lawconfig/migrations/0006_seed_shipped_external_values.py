"""The tables the engine ships (lawcode/data/ufesp.csv, each value cited to its comunicado in
lawcode/data/external_acts.yaml) become the installation's initial data, so the screens list them and the next
values are entered after them. Idempotent: a value already entered for the same date is left alone. No audit
event: a seed is part of the installation, as the shipped files are (the loading command audits its rows)."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def seed(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from lawcode.acts import external_acts
    from lawcode.fiscal import UFESP_FILE, read_table_csv, ufesp_table

    model = apps.get_model("lawconfig", "ExternalValue")
    acts = external_acts()
    keys = {row.year: row.act_key for row in ufesp_table()}
    for row in read_table_csv(UFESP_FILE):
        act = acts[keys[row.year]]
        if model.objects.filter(parameter="ufesp", valid_from=row.valid_from).exists():
            continue
        model.objects.create(
            parameter="ufesp",
            valid_from=row.valid_from,
            value=row.value,
            act=row.act,
            published_on=act.published or row.published,
            act_key=act.key,
        )


class Migration(migrations.Migration):
    dependencies = [("lawconfig", "0005_external_values_of_the_installation")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
