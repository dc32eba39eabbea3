import hashlib

from django.db import migrations, models


def hash_existing_pdfs(apps, schema_editor):
    """PDFs generated before their hash was kept: hash them now, so they stay servable (apps.ops.storage)."""
    for model_name in ("Edital", "Notice"):
        model = apps.get_model("enforcement", model_name)
        for row in model.objects.exclude(pdf="").filter(pdf_sha256=""):
            try:
                with row.pdf.open("rb") as handle:
                    row.pdf_sha256 = hashlib.sha256(handle.read()).hexdigest()
            except OSError:
                continue  # gone already: reads as missing (and audited) rather than blocking the migration
            row.save(update_fields=["pdf_sha256"])


class Migration(migrations.Migration):
    dependencies = [
        ("enforcement", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="edital",
            name="pdf_sha256",
            field=models.CharField(blank=True, max_length=64, verbose_name="SHA-256 do PDF"),
        ),
        migrations.AddField(
            model_name="notice",
            name="pdf_sha256",
            field=models.CharField(blank=True, max_length=64, verbose_name="SHA-256 do PDF"),
        ),
        migrations.RunPython(hash_existing_pdfs, migrations.RunPython.noop),
    ]
