"""A rake cap is kept only where the game applies one (``lobby.actions.tables.table_checked`` refuses it
elsewhere): tables and templates written before the check get 0 instead, which is what their games
always charged. The games whose engine takes the table's cap, as of this migration."""

from django.db import migrations

CAPPED_GAMES = ("poker5", "telesina", "bestia")


def drop_caps_not_applied(apps, schema_editor):
    for name in ("Table", "TableTemplate"):
        model = apps.get_model("lobby", name)
        model.objects.exclude(game__in=CAPPED_GAMES).exclude(rake_cap=0).update(rake_cap=0)


class Migration(migrations.Migration):
    dependencies = [("lobby", "0007_owner_runtime")]

    operations = [migrations.RunPython(drop_caps_not_applied, migrations.RunPython.noop)]
