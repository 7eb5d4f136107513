"""Burraco and Scala 40 tournaments not yet ended, left at the old 30 s default, take their games' own
tempo giocata, 90 s (``games.engine.Engine.default_tempo_giocata``; docs/tournaments.md). A time staff
chose (any other value) stays. The games and times as of this migration."""

from django.db import migrations

OLD_DEFAULT = 30
LONGER = {"burraco": 90, "scala40": 90}
ENDED = ("finished", "cancelled")


def rummy_take_their_time(apps, schema_editor):
    tournament = apps.get_model("tournaments", "Tournament")
    for game, seconds in LONGER.items():
        tournament.objects.filter(game=game, tempo_giocata=OLD_DEFAULT).exclude(state__in=ENDED).update(
            tempo_giocata=seconds
        )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_entry_rules_and_options")]

    operations = [migrations.RunPython(rummy_take_their_time, migrations.RunPython.noop)]
