from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_lapsed_seat'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='opening',
            field=models.JSONField(blank=True, default=dict, help_text='{} for a free opening; RIF or Swap2: {"kind": "rif"|"swap2", "first": the seat that began as tentative Black, "log": [each step: the engine action plus "seat", "step" and "plies" (the stones it placed)], "plies": the ply count when the opening ended (absent while it runs)} (caro.games.services.opening)', verbose_name='opening'),
        ),
    ]
