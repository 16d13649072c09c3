from django.db import migrations, models


class Migration(migrations.Migration):
    """The position stored with the game (issue 17): games stored before it have none, and their
    next move rebuilds it from the moves (caro.games.snapshot.board_now), so no data migration."""

    dependencies = [
        ("games", "0012_annulled"),
    ]

    operations = [
        migrations.AddField(
            "game", "position",
            models.TextField(
                blank=True, default="",
                help_text='"<ply>|<the board after that many moves>" (caro.games.snapshot.board_now): a move '
                          'plays on it instead of replaying every stored move; empty or of another ply: rebuilt',
                verbose_name="stored position",
            ),
        ),
    ]
