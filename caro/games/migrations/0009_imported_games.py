from django.db import migrations, models


class Migration(migrations.Migration):
    """Game.imported: the record a game was read from (empty for games played on the site)."""

    dependencies = [("games", "0008_lifecycle")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="imported",
            field=models.JSONField(
                blank=True, default=dict, verbose_name="imported record",
                help_text='{} for a game played here; for an imported record {"format": "psq"|"ggf"|"moves"|'
                          '"squares", "names": {"X": str, "O": str}} (never rated, nobody seated)',
            ),
        ),
    ]
