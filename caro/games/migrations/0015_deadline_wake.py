from django.db import migrations, models

#: Keeps `wake_at` never after `deadline` whoever writes the row (a move, the ORM, an admin, a
#: test's `update(deadline=...)`): when a row is inserted or its deadline or wake_at is written
#: and the deadline comes before wake_at (or wake_at is unset), wake_at becomes the deadline. The
#: WHEN clause is evaluated by PostgreSQL itself, so the usual move (its deadline later than
#: wake_at) calls no function and leaves wake_at, hence every index, untouched.
TRIGGER_SQL = """
CREATE FUNCTION games_game_wake_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.wake_at := NEW.deadline;
    RETURN NEW;
END
$$;
CREATE TRIGGER games_game_wake_at BEFORE INSERT OR UPDATE OF deadline, wake_at ON games_game
    FOR EACH ROW WHEN (NEW.deadline IS NOT NULL AND (NEW.wake_at IS NULL OR NEW.wake_at > NEW.deadline))
    EXECUTE FUNCTION games_game_wake_at();
"""
DROP_TRIGGER_SQL = """
DROP TRIGGER IF EXISTS games_game_wake_at ON games_game;
DROP FUNCTION IF EXISTS games_game_wake_at();
"""
#: Room on each page for the new version of a row, so a move's UPDATE (which changes no indexed
#: column) is HOT: written on the same page, no index touched. Pages written from now on keep
#: 20 % free; the row versions a move leaves dead are pruned from the page by PostgreSQL itself.
FILLFACTOR = 80


class Migration(migrations.Migration):
    """The game row laid out for HOT updates (issue 27): `deadline`, which every move changes, had
    two indexes, so no move's UPDATE could be HOT and each wrote an entry into all 13 indexes of
    the row. Now `deadline` has none; the deadline timer finds the nearest one through `wake_at`
    (a lower bound of the deadline, indexed for active games only), which a move does not change
    (docs/architecture.md, "Where time and endings live"; docs/scaling.md)."""

    dependencies = [
        ("games", "0014_played_on_device"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="game", name="games_game_status_040d39_idx"),
        migrations.AddField(
            model_name="game",
            name="wake_at",
            field=models.DateTimeField(
                blank=True, editable=False, null=True, verbose_name="deadline timer's next look",
                help_text="never after the deadline (a database trigger lowers it when the deadline comes "
                          "earlier); the deadline timer moves it up to the deadline when it passes "
                          "(caro.games.timer), so a move need not touch an index",
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="deadline",
            field=models.DateTimeField(blank=True, null=True, verbose_name="deadline"),
        ),
        migrations.RunSQL("UPDATE games_game SET wake_at = deadline WHERE deadline IS NOT NULL",
                          migrations.RunSQL.noop),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(condition=models.Q(("status", "active")), fields=["wake_at"], name="game_wake_active"),
        ),
        migrations.RunSQL(TRIGGER_SQL, DROP_TRIGGER_SQL),
        migrations.RunSQL(f"ALTER TABLE games_game SET (fillfactor = {FILLFACTOR})",
                          "ALTER TABLE games_game RESET (fillfactor)"),
    ]
