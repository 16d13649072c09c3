import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0011_openings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField("game", "annulled", models.BooleanField(default=False, help_text="set by a moderator: kept, but its rating changes are reverted", verbose_name="annulled")),
        migrations.AddField("game", "annulled_at", models.DateTimeField(blank=True, null=True, verbose_name="annulled at")),
        migrations.AddField("game", "annulled_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="annulled by")),
        migrations.AddField("game", "annul_reason", models.CharField(blank=True, max_length=300, verbose_name="reason for the annulment")),
        migrations.AlterField("game", "created_at", models.DateTimeField(auto_now_add=True, db_index=True, verbose_name="created")),
        migrations.AlterField("game", "termination", models.CharField(blank=True, choices=[("five", "Five in a row"), ("full_board", "Full board"), ("timeout", "Time ran out"), ("resign", "Resignation"), ("abort", "Aborted"), ("no_legal_move", "No legal move (Renju)"), ("discs", "Disc count"), ("left", "Left the table"), ("absence", "Did not come back"), ("agreement", "Draw by agreement"), ("abandoned", "Abandoned (nobody played for a long time)"), ("moderator", "Stopped by a moderator")], max_length=16, verbose_name="ending")),
        migrations.AddIndex("game", models.Index(fields=["status", "-created_at"], name="game_status_created")),
        migrations.AddIndex("game", models.Index(fields=["rated", "-created_at"], name="game_rated_created")),
    ]
