# The deadline timer's look-up of the nearest absence deadline reads one entry of this small
# partial index instead of every active game's row (caro.games.timer.NEAREST_SQL). A move never
# writes absence_deadline, so its UPDATE of the game row stays HOT.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0016_move_game_index_dropped'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('absence_deadline__isnull', False), ('status', 'active')),
                               fields=['absence_deadline'], name='game_absence_active'),
        ),
    ]
