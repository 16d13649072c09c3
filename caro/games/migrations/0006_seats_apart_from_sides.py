"""Seats apart from sides: `x_player`/`o_player` become the host and guest seats, `host_side` says
which side the host plays, the computer and the rematch offer belong to a seat, and a game's events
go to a group derived from the game (no stored `channel_group`).

Every game before this migration had its creator (or first seated player) at X, so host = the X
player, guest = the O player and `host_side` = "X".
"""

from django.db import migrations, models

SEAT_OF_SIDE = {"X": "host", "O": "guest"}


def sides_to_seats(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for side, seat in SEAT_OF_SIDE.items():
        Game.objects.filter(bot_side=side).update(bot_seat=seat)
        Game.objects.filter(rematch_offer=side).update(rematch_offer=seat)


def seats_to_sides(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for side, seat in SEAT_OF_SIDE.items():
        Game.objects.filter(bot_seat=seat).update(bot_side=side)
        Game.objects.filter(rematch_offer=seat).update(rematch_offer=side)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_reversi_and_stored_turn"),
    ]

    operations = [
        migrations.RenameField(model_name="game", old_name="x_player", new_name="host"),
        migrations.RenameField(model_name="game", old_name="o_player", new_name="guest"),
        migrations.AddField(
            model_name="game",
            name="host_side",
            field=models.CharField(choices=[("X", "X"), ("O", "O")], default="X", max_length=1),
        ),
        migrations.AddField(
            model_name="game",
            name="bot_seat",
            field=models.CharField(blank=True, choices=[("host", "Host"), ("guest", "Guest")], max_length=5),
        ),
        migrations.AlterField(
            model_name="game",
            name="rematch_offer",
            field=models.CharField(blank=True, max_length=5),
        ),
        migrations.RunPython(sides_to_seats, seats_to_sides),
        migrations.RemoveField(model_name="game", name="bot_side"),
        migrations.RemoveField(model_name="game", name="channel_group"),
    ]
