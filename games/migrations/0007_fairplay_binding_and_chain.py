"""Commitments that bind the whole setup (version 2), and the chained action log.

Existing matches keep the commitment they published (version 1: salt and seed only) and an unchained
log (empty digests): a commitment cannot be made again after the deal, nor a chain after the moves.
New matches get version 2 and a chain (see docs/fair-play.md).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_seeks_follows_blocks"),
    ]

    operations = [
        # Every existing row gets 1, the rule its commitment was made by; new matches then default to 2.
        migrations.AddField(
            model_name="match",
            name="commitment_version",
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AlterField(
            model_name="match",
            name="commitment_version",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AddField(
            model_name="match",
            name="log_digest",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="move",
            name="digest",
            field=models.CharField(blank=True, db_default="", max_length=64),
        ),
    ]
