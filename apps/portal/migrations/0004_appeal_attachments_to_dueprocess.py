"""The portal's appeal attachments become dueprocess's: one AppealAttachment for every channel.

Each portal row is copied with its file name (the object in the storage is not moved), hash, size, type, sender
and upload time; a file still waiting for the store (ops.PendingFile) follows it to the new field. Reversible:
the rows whose files live under the portal's old folder (appeals/…) go back.
"""

from pathlib import PurePath

from django.db import migrations

OLD_FIELD = "portal.appealattachment.file"
NEW_FIELD = "dueprocess.appealattachment.file"
OLD_FOLDER = "appeals/"


def to_dueprocess(apps, schema_editor):
    old_model = apps.get_model("portal", "AppealAttachment")
    new_model = apps.get_model("dueprocess", "AppealAttachment")
    for old in old_model.objects.order_by("pk").iterator():
        new = new_model.objects.create(
            appeal_id=old.appeal_id,
            file=old.file.name,
            content_type=old.content_type,
            extension=PurePath(old.file.name).suffix.lower()[:8],
            size_bytes=old.size_bytes,
            sha256=old.sha256,
            uploaded_by_id=old.uploaded_by_id,
        )
        # auto_now_add stamped the copy with today: keep the day the operator sent the file.
        new_model.objects.filter(pk=new.pk).update(uploaded_at=old.uploaded_at)
    old_model.objects.all().delete()
    apps.get_model("ops", "PendingFile").objects.filter(field=OLD_FIELD).update(field=NEW_FIELD)


def to_portal(apps, schema_editor):
    old_model = apps.get_model("portal", "AppealAttachment")
    new_model = apps.get_model("dueprocess", "AppealAttachment")
    moved = new_model.objects.filter(file__startswith=OLD_FOLDER).select_related("appeal__case")
    for new in moved.order_by("pk").iterator():
        old = old_model.objects.create(
            municipality_id=new.appeal.case.municipality_id,
            appeal_id=new.appeal_id,
            file=new.file.name,
            content_type=new.content_type,
            size_bytes=new.size_bytes,
            sha256=new.sha256,
            uploaded_by_id=new.uploaded_by_id,
        )
        old_model.objects.filter(pk=old.pk).update(uploaded_at=new.uploaded_at)
        apps.get_model("ops", "PendingFile").objects.filter(field=NEW_FIELD, name=new.file.name).update(
            field=OLD_FIELD
        )
    moved.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("portal", "0003_document_submissions"),
        ("dueprocess", "0006_appealattachment_uploaded_by"),
        ("ops", "0002_pending_and_published_files"),
    ]

    operations = [migrations.RunPython(to_dueprocess, to_portal)]
