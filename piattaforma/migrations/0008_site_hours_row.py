"""The site's hours row (pk 1) exists from the start, with the rules' defaults.

``siteops.site_hours`` then only ever reads it: a page never writes on its way in.
"""

from django.db import migrations


def create_row(apps, schema_editor):
    SiteHours = apps.get_model("piattaforma", "SiteHours")
    SiteHours.objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("piattaforma", "0007_activity_sample")]

    operations = [migrations.RunPython(create_row, migrations.RunPython.noop)]
