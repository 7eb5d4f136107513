"""Seed the default Italian watched list (moderation.defaults); staff edit it in the back office."""

from django.db import migrations


def seed(apps, schema_editor):
    from moderation.defaults import rows

    entry = apps.get_model("moderation", "WatchedEntry")
    existing = set(entry.objects.values_list("pattern", "kind"))
    entry.objects.bulk_create(
        [
            entry(pattern=p, kind=k, category=c, action=a, in_game_only=g, language="it")
            for p, k, c, a, g in rows()
            if (p, k) not in existing
        ]
    )


def unseed(apps, schema_editor):
    from moderation.defaults import rows

    entry = apps.get_model("moderation", "WatchedEntry")
    for p, k, *_ in rows():
        entry.objects.filter(pattern=p, kind=k, language="it").delete()


class Migration(migrations.Migration):
    dependencies = [("moderation", "0001_chat_reports_sanctions")]

    operations = [migrations.RunPython(seed, unseed)]
