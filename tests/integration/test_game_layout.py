"""The game row's layout for HOT moves (issue 27): a move's UPDATE changes no indexed column, so
PostgreSQL writes the new row version on the same page without touching any of the row's indexes;
the deadline timer finds the nearest deadline through `wake_at`, which a trigger keeps never after
the deadline whoever writes the row (docs/scaling.md, docs/architecture.md)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from caro.games import timer
from caro.games.models import Game
from caro.games.services.play import MOVE_FIELDS
from tests.integration.helpers import play, play_sequence, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def _indexed_columns(table: str) -> dict[str, set[str]]:
    """index name -> the columns it reads (its keys, expressions and predicate), for every
    non-summarizing index of `table` (a BRIN index does not stop a HOT update)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT i.relname, a.attname FROM pg_index x
               JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
               JOIN pg_am am ON am.oid = i.relam
               JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0
               WHERE t.relname = %s AND am.amname <> 'brin'
                 AND (a.attnum = ANY (x.indkey)
                      OR pg_get_expr(x.indpred, x.indrelid) ~ ('\\m' || a.attname || '\\M')
                      OR pg_get_expr(x.indexprs, x.indrelid) ~ ('\\m' || a.attname || '\\M'))""",
            [table])
        found: dict[str, set[str]] = {}
        for index, column in cursor.fetchall():
            found.setdefault(index, set()).add(column)
    return found


def test_no_column_a_move_writes_is_in_an_index_of_the_game_row():
    written = {Game._meta.get_field(name).column for name in MOVE_FIELDS}
    indexes = _indexed_columns("games_game")
    assert "game_wake_active" in indexes and indexes["game_wake_active"] == {"wake_at", "status"}
    clashes = {index: columns & written for index, columns in indexes.items() if columns & written}
    assert not clashes, f"a move's UPDATE could never be HOT: {clashes}"


def _updates() -> tuple[int, int]:
    """(updates, HOT updates) of games_game so far, this connection's pending counts flushed."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games_game'")
        return cursor.fetchone()


def test_moves_update_the_game_row_without_touching_an_index():
    game, x, o = started_game()
    play(game, x, "H8")  # the game is now in this process's cache: the next moves are one statement each
    updates0, hot0 = _updates()
    squares = ["H9", "I8", "I9", "J8", "J9", "A1", "A2", "C1", "C2", "E1", "E2", "G1"]
    for offset, square in enumerate(squares):
        play(game, o if offset % 2 == 0 else x, square, ply=2 + offset)
    updates, hot = _updates()
    assert updates - updates0 == len(squares)
    # Every one HOT but, at most, one that found its page full before PostgreSQL pruned it.
    assert hot - hot0 >= len(squares) - 1, (updates - updates0, hot - hot0)


def test_wake_at_is_never_after_the_deadline_whoever_writes_the_row():
    game, x, o = started_game()
    assert game.deadline is not None and game.wake_at == game.deadline  # set as the clock started
    first = game.wake_at
    play_sequence(game, x, o, ["H8", "H9", "I8"])
    game.refresh_from_db()
    assert game.deadline > first and game.wake_at == first  # moves leave it (and its index) alone
    sooner = timezone.now() + timedelta(seconds=5)
    Game.objects.filter(pk=game.pk).update(deadline=sooner)  # an earlier deadline pulls it in
    game.refresh_from_db()
    assert game.wake_at == sooner
    Game.objects.filter(pk=game.pk).update(wake_at=sooner + timedelta(hours=1))  # never past the deadline
    game.refresh_from_db()
    assert game.wake_at == sooner


def test_the_timer_moves_a_passed_wake_at_on_to_the_deadline_and_ends_nothing_early():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    Game.objects.filter(pk=game.pk).update(wake_at=timezone.now() - timedelta(seconds=1))
    assert timer.nearest_deadline() <= timezone.now()  # the timer looks now...
    assert timer.run_due() == 0  # ...ends nothing (the deadline is a minute away)...
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.wake_at == game.deadline  # ...and looks next then
    assert timer.nearest_deadline() == game.deadline


def test_a_game_without_a_clock_is_never_woken_for():
    game, x, o = started_game(move_time_ms=0)
    play_sequence(game, x, o, ["H8", "H9"])
    game.refresh_from_db()
    assert game.deadline is None and game.wake_at is None
    assert not Game.objects.to_wake(timezone.now()).filter(pk=game.pk).exists()


def _scans(plan: dict) -> list[dict]:
    """Every node of an EXPLAIN (FORMAT JSON) plan that reads games_game."""
    found = [plan] if plan.get("Relation Name") == "games_game" else []
    for child in plan.get("Plans", ()):
        found += _scans(child)
    return found


def test_the_timers_look_reads_one_entry_of_each_index_however_many_games_are_active():
    games = [started_game()[0] for _ in range(12)]
    soon = timezone.now() + timedelta(seconds=30)
    Game.objects.filter(pk__in=[g.pk for g in games[:5]]).update(absence_deadline=soon + timedelta(seconds=9))
    Game.objects.filter(pk=games[7].pk).update(absence_deadline=soon)
    assert timer.nearest_deadline() == min(soon, min(Game.objects.active().values_list("wake_at", flat=True)))
    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # a dozen rows: the planner would read the table whole
        cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {timer.NEAREST_SQL}")
        plan = cursor.fetchone()[0]
        cursor.execute("RESET enable_seqscan")
    plan = plan[0]["Plan"] if isinstance(plan, list) else __import__("json").loads(plan)[0]["Plan"]
    scans = _scans(plan)
    assert {s.get("Index Name") for s in scans} == {"game_wake_active", "game_absence_active"}, scans
    assert all(s["Actual Rows"] <= 1 for s in scans), [(s.get("Index Name"), s["Actual Rows"]) for s in scans]
