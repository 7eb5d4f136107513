"""Seed the default Italian watched list (moderation.defaults); staff edit it in the back office."""

from django.db import migrations


def seed(apps, schema_editor):
    from moderation.defaults import seed as seed_defaults

    seed_defaults(apps.get_model("moderation", "WatchedEntry"))


def unseed(apps, schema_editor):
    from moderation.defaults import rows

    entry = apps.get_model("moderation", "WatchedEntry")
    for p, k, *_ in rows():
        entry.objects.filter(pattern=p, kind=k, language="it").delete()


class Migration(migrations.Migration):
    dependencies = [("moderation", "0001_chat_reports_sanctions")]

    operations = [migrations.RunPython(seed, unseed)]
