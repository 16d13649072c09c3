from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_username_ci"),
    ]

    operations = [
        migrations.AddField("user", "banned_until", models.DateTimeField(blank=True, null=True, verbose_name="banned until")),
        migrations.AddField("user", "banned_forever", models.BooleanField(default=False, verbose_name="banned permanently")),
        migrations.AddField("user", "ban_reason", models.CharField(blank=True, max_length=300, verbose_name="reason for the ban")),
        migrations.AddField("user", "muted_until", models.DateTimeField(blank=True, null=True, verbose_name="chat muted until")),
        migrations.AddField("user", "mute_reason", models.CharField(blank=True, max_length=300, verbose_name="reason for the mute")),
        migrations.AddField("user", "queue_banned_until", models.DateTimeField(blank=True, null=True, verbose_name="barred from seeking until")),
        migrations.AddField("user", "queue_ban_reason", models.CharField(blank=True, help_text="a moderation.fairplay reason code", max_length=40, verbose_name="reason for the seek bar")),
        migrations.AddField("user", "fairplay_strikes", models.PositiveSmallIntegerField(default=0, help_text="bad endings (aborts, leaving, absence) not yet forgiven", verbose_name="fair-play strikes")),
        migrations.AddField("user", "fairplay_good_games", models.PositiveSmallIntegerField(default=0, verbose_name="good games since the last strike")),
        migrations.AddField("user", "queue_bans", models.PositiveSmallIntegerField(default=0, help_text="the next bar lasts 10 minutes times 2 to this power", verbose_name="recent seek bars")),
    ]
