# The runtime row carries what the per-action path needs, so it reads or sends nothing elsewhere:
# when the table's pending deadline task fires, the seats dealt into the hand, and the hand's step
# count.
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("lobby", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="tableruntime",
            name="timer_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="tableruntime",
            name="dealt",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="tableruntime",
            name="steps",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
