"""Burraco and Scala 40 tables and templates left at the old 30 s default take their games' own tempo
giocata, 90 s (``games.engine.Engine.default_tempo_giocata``; docs/live-tables.md, Clocks). A time
staff chose (any other value) stays. The games and times as of this migration."""

from django.db import migrations

OLD_DEFAULT = 30
LONGER = {"burraco": 90, "scala40": 90}


def rummy_take_their_time(apps, schema_editor):
    for name in ("Table", "TableTemplate"):
        model = apps.get_model("lobby", name)
        for game, seconds in LONGER.items():
            model.objects.filter(game=game, tempo_giocata=OLD_DEFAULT).update(tempo_giocata=seconds)


class Migration(migrations.Migration):
    dependencies = [("lobby", "0009_runtime_epoch")]

    operations = [migrations.RunPython(rummy_take_their_time, migrations.RunPython.noop)]
