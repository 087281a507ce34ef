"""The log's rows are Moves (not Actions, the engine's word for their payload), the match's counts are
named as counts, and a resignation is recorded once (``Seat.left``), not also in ``Seat.resigned``."""

from typing import Any

from django.db import migrations, models


def resigned_to_left(apps: Any, schema_editor: Any) -> None:
    Seat = apps.get_model("games", "Seat")
    Seat.objects.filter(resigned=True).update(left="resigned")


def left_to_resigned(apps: Any, schema_editor: Any) -> None:
    Seat = apps.get_model("games", "Seat")
    Seat.objects.filter(left="resigned").update(resigned=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_seat_bot_level"),
    ]

    operations = [
        migrations.RenameField(model_name="match", old_name="players", new_name="player_count"),
        migrations.RenameField(model_name="match", old_name="moves", new_name="move_count"),
        migrations.RemoveConstraint(model_name="action", name="action_seq_unique"),
        migrations.RenameModel(old_name="Action", new_name="Move"),
        migrations.AlterField(
            model_name="move",
            name="match",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE, related_name="moves", to="games.match"
            ),
        ),
        migrations.AddConstraint(
            model_name="move",
            constraint=models.UniqueConstraint(fields=("match", "seq"), name="move_seq_unique"),
        ),
        migrations.RunPython(resigned_to_left, left_to_resigned),
        migrations.RemoveField(model_name="seat", name="resigned"),
    ]
