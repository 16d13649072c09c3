"""The cost of one move in database queries (issue 17: a lean move path). A regression that adds
a query per move, reads the stored moves again or writes columns a move did not change fails here."""

import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from caro.games import services
from caro.games.errors import GameError
from caro.games.models import Game, Move
from tests.integration.helpers import play, play_sequence, started_game

pytestmark = pytest.mark.django_db(transaction=True)

#: One move is ONE round trip (caro.games.services.lean, issue 27): `WITH game AS (UPDATE the
#: columns of the game it changed WHERE id = .. AND ply = n AND xmin = the version read), move AS
#: (INSERT the move SELECT .. FROM game) SELECT ..`, optimistic on the game as this process last
#: wrote it. No lock first, no read of the stored moves (the position is stored with the game), no
#: savepoint, nothing sent to the broker for the clock (the deadline timer reads it from the row).
#: It was eight statements before issue 17, then five (BEGIN, lock, INSERT, UPDATE, COMMIT), then
#: two (`BEGIN; SELECT ... FOR UPDATE`, then the INSERT and UPDATE with COMMIT).
MOVE_QUERIES = 1
#: The columns a move of a per-move clock game writes (the banks of total-time clocks and a lapsing
#: offer or request add theirs): what changed, not every column of the game.
MOVE_COLUMNS = {"ply", "to_move", "event_version", "turn_started_at", "deadline", "position"}


def _played(game, user, square, ply):
    with CaptureQueriesContext(connection) as captured:
        services.play_move(game.pk, user, square, ply, uuid.uuid4())
    return [q["sql"] for q in captured.captured_queries]


def _kinds(statements):
    return [s.split()[0].upper() for s in statements]


def _updated_columns(statements):
    update = next(s for s in statements if "UPDATE " in s.upper())
    assigned = update.split(" SET ", 1)[1].split(" WHERE ", 1)[0]
    return set(re.findall(r'"(\w+)" = ', assigned))


def test_a_move_costs_the_same_queries_early_and_late_in_a_game():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    early = _played(game, x, "I8", 3)
    assert _kinds(early) == ["WITH"], early
    write, = early
    assert re.match(r'WITH game AS \(UPDATE "games_game" SET .* WHERE "id" = \d+ AND "ply" = 2 AND xmin::text = '
                    r"'\d+' RETURNING xmin::text AS version\), move AS \(INSERT INTO \"games_move\" ", write), write
    assert _updated_columns(early) == MOVE_COLUMNS
    squares = ["I9", "J8", "J9", "K8", "K9", "A1", "A2", "C1", "C2", "E1", "E2", "G1", "G2", "M1", "M2", "O1"]
    for offset, square in enumerate(squares):
        play(game, o if offset % 2 == 0 else x, square, ply=4 + offset)
    late = _played(game, o, "O2", 4 + len(squares))  # 16 moves later: still the same queries
    assert len(late) == MOVE_QUERIES and _kinds(late) == _kinds(early)
    assert not any('"games_move"' in s and s.upper().startswith("SELECT") for s in early + late)


def test_the_first_move_reads_no_moves_either(django_assert_num_queries):
    game, x, _o = started_game()
    with django_assert_num_queries(MOVE_QUERIES + 1):  # the game is not in this process's cache yet
        play(game, x, "H8", ply=1)


def test_a_game_changed_elsewhere_is_read_again_once_then_written():
    """The optimistic check: the row changed behind this process's back (another process's move,
    an offer, an edit by hand) is seen by the write, which then writes nothing; the game is read
    again (one SELECT, no lock) and the move written. Nothing is written twice."""
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    Game.objects.filter(pk=game.pk).update(draw_offer="guest")  # the ply stays 2; the row's version changes
    statements = _played(game, x, "I8", 3)
    assert _kinds(statements) == ["WITH", "SELECT", "WITH"], statements
    assert "FOR UPDATE" not in statements[1]
    assert Move.objects.filter(game=game).count() == 3
    game.refresh_from_db()
    assert game.ply == 3 and game.draw_offer == ""  # played on the fresh row: O's offer lapsed as X moved
    assert len(_played(game, o, "I9", 4)) == MOVE_QUERIES


def test_a_stale_cache_never_refuses_a_good_move():
    """A move that the cached game would refuse (the square was free again after a take-back made
    elsewhere) is decided on a fresh read before it is refused."""
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9", "I8"])
    Move.objects.filter(game=game, ply=3).delete()  # as a take-back does: I8 free again, O... X to move
    from caro.games.snapshot import board_for, keep_position

    fresh = Game.objects.get(pk=game.pk)
    fresh.ply, fresh.to_move = 2, "X"
    keep_position(fresh, board_for(fresh))
    fresh.save(update_fields=["ply", "to_move", "position"])
    play(game, x, "I8", ply=3)  # the cache still has I8 taken at ply 3: refused there, played fresh
    assert Move.objects.filter(game=game).count() == 3


def test_a_game_stored_before_the_position_field_reads_its_moves_once_then_stores_it():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9", "I8"])
    Game.objects.filter(pk=game.pk).update(position="")  # as a game of before migration 0013
    statements = _played(game, o, "I9", 4)
    # the row changed by hand: read again, then the one SELECT of the moves rebuilds the board
    assert _kinds(statements) == ["WITH", "SELECT", "SELECT", "WITH"], statements
    game.refresh_from_db()
    assert game.position.startswith("4|")
    assert len(_played(game, x, "J8", 5)) == MOVE_QUERIES


def test_a_reused_id_at_a_new_ply_is_stale_and_changes_nothing():
    """Without a savepoint the failed INSERT ends the transaction: it rolls back whole."""
    game, x, o = started_game()
    move_id = uuid.uuid4()
    services.play_move(game.pk, x, "H8", 1, move_id)
    play(game, o, "H9", ply=2)
    game.refresh_from_db()
    before = (game.ply, game.event_version, game.position, game.deadline, game.to_move)
    with pytest.raises(GameError) as info:
        services.play_move(game.pk, x, "I8", 3, move_id)
    assert info.value.code == "stale"
    game.refresh_from_db()
    assert (game.ply, game.event_version, game.position, game.deadline, game.to_move) == before
    assert Move.objects.filter(game=game).count() == 2
    play(game, x, "I8", ply=3)  # the connection and the game are fine afterwards


def test_the_lean_move_stores_what_the_general_path_stores():
    """The two statements write the move and the game as the ORM's INSERT and UPDATE do: every
    column of the move, the game's new ply, side to move, position, version and clock."""
    game, x, o = started_game()
    play(game, x, "H8", ply=1)
    move_id = uuid.uuid4()
    result = services.play_move(game.pk, o, "H9", 2, move_id)
    stored = Move.objects.get(game=game, ply=2)
    assert (stored.pk, stored.side, stored.square, stored.client_id) == (result.move.pk, "O", "H9", move_id)
    assert stored.created_at is not None and stored.think_ms >= 0
    game.refresh_from_db()
    assert (game.ply, game.to_move, game.event_version) == (2, "X", result.game.event_version)
    assert game.position == result.game.position and game.position.startswith("2|")
    assert game.deadline == result.game.deadline and game.turn_started_at == result.game.turn_started_at


def test_moves_the_lean_path_leaves_to_the_general_one_change_nothing_first():
    """A repeat, a stale ply, a spectator, a refused square and the winning move: the lean path
    rolls its lock back and the general path answers (no transaction is left open)."""
    from django.db import connection as db

    game, x, o = started_game()
    first_id = uuid.uuid4()
    services.play_move(game.pk, x, "H8", 1, first_id)
    assert services.play_move(game.pk, x, "H8", 1, first_id).duplicate
    with pytest.raises(GameError) as stale:
        services.play_move(game.pk, o, "H9", 5, uuid.uuid4())
    assert stale.value.code == "stale"
    with pytest.raises(GameError) as occupied:
        services.play_move(game.pk, o, "H8", 2, uuid.uuid4())
    assert occupied.value.code == "occupied"
    with pytest.raises(GameError) as turn:
        services.play_move(game.pk, x, "A1", 2, uuid.uuid4())
    assert turn.value.code == "not_your_turn"
    assert db.connection.info.transaction_status.name == "IDLE"
    game.refresh_from_db()
    assert game.ply == 1
    play_sequence(game, o, x, ["A1", "I8", "A2", "J8", "A3", "K8", "A4"])
    result = services.play_move(game.pk, x, "L8", 9, uuid.uuid4())  # five in a row: `finish`
    assert [e["type"] for e in result.events] == ["move", "game_over"]
    game.refresh_from_db()
    assert game.is_over and game.winner == "X"


@pytest.mark.asyncio
async def test_a_move_on_the_event_loop_is_one_prepared_statement(monkeypatch):
    """`play_move_on_loop` sends one statement per move once the game is in the cache, through
    the loop's own connections with server-side binding (psycopg's own cursor) and prepared."""
    from asgiref.sync import sync_to_async

    import psycopg

    from caro.games.services import lean

    sent = []
    execute = psycopg.AsyncCursor.execute

    async def counted(self, query, params=None, **kwargs):
        if "set_config" not in str(query):  # a new pool connection's time zone, whenever it opens
            sent.append((type(self), str(query).split()[0], kwargs.get("prepare")))
        return await execute(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.AsyncCursor, "execute", counted)
    game, x, o = await sync_to_async(started_game)()
    try:
        assert await services.play_move_on_loop(game.pk, x, "H8", 1, uuid.uuid4()) is not None
        # Not cached yet: the read, then the write (a game id an earlier test used may be in the
        # cache with another row version: that write finds nothing to update and reads first).
        assert [kind for _type, kind, _prepare in sent][-2:] == ["SELECT", "WITH"]
        sent.clear()
        for ply, (user, square) in enumerate([(o, "H9"), (x, "I8"), (o, "I9")], start=2):
            assert await services.play_move_on_loop(game.pk, user, square, ply, uuid.uuid4()) is not None
        assert sent == [(psycopg.AsyncCursor, "WITH", True)] * 3
        # Prepared for real, in PostgreSQL: Django's connection parameters turn psycopg's
        # prepared statements off (prepare_threshold None), and then `prepare=True` is ignored.
        pool = await lean.loop_pool()
        async with pool.connection() as conn:  # the most recently used: the one the moves took
            cursor = await conn.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements")
            prepared = {statement.split()[0]: runs for statement, runs in await cursor.fetchall()}
        assert prepared.get("WITH", 0) >= 3, prepared
    finally:
        await lean.close_loop_pool()


@pytest.mark.asyncio
async def test_a_move_on_the_event_loop_takes_no_thread_and_changes_nothing_when_refused():
    """`play_move_on_loop`: the same statement through the loop's own connections; it stores
    the move as the thread path does, refuses as it does, and leaves to it (None, nothing written)
    a repeat, a stale ply and the move that ends the game."""
    from asgiref.sync import sync_to_async

    from caro.games.services import lean

    game, x, o = await sync_to_async(started_game)()
    try:
        first_id = uuid.uuid4()
        result = await services.play_move_on_loop(game.pk, x, "H8", 1, first_id)
        assert result is not None and result.move.pk and [e["type"] for e in result.events] == ["move"]
        assert await services.play_move_on_loop(game.pk, x, "H8", 1, first_id) is None  # a repeat
        assert await services.play_move_on_loop(game.pk, o, "H9", 7, uuid.uuid4()) is None  # stale
        for square, user, code in (("H8", o, "occupied"), ("A1", x, "not_your_turn")):
            with pytest.raises(GameError) as refused:
                await services.play_move_on_loop(game.pk, user, square, 2, uuid.uuid4())
            assert refused.value.code == code
        with pytest.raises(GameError) as reused:
            await services.play_move_on_loop(game.pk, o, "H9", 2, first_id)
        assert reused.value.code == "stale"
        stored = await sync_to_async(lambda: list(Move.objects.filter(game=game).values_list("ply", "square", "client_id")))()
        assert stored == [(1, "H8", first_id)]
        squares = ["A1", "I8", "A2", "J8", "A3", "K8", "A4"]
        for offset, square in enumerate(squares):
            assert await services.play_move_on_loop(game.pk, o if offset % 2 == 0 else x, square, 2 + offset,
                                                    uuid.uuid4()) is not None
        assert await services.play_move_on_loop(game.pk, x, "L8", 9, uuid.uuid4()) is None  # five: `finish`
        await sync_to_async(game.refresh_from_db)()
        assert (game.ply, game.status, game.position.split("|")[0]) == (8, "active", "8")
    finally:
        await lean.close_loop_pool()


@pytest.mark.asyncio
async def test_an_expired_clock_is_left_to_the_general_path_which_enforces_it():
    from datetime import timedelta

    from asgiref.sync import sync_to_async
    from django.utils import timezone

    from caro.games.services import lean

    game, x, o = await sync_to_async(started_game)()
    try:
        assert await services.play_move_on_loop(game.pk, x, "H8", 1, uuid.uuid4()) is not None
        await sync_to_async(lambda: Game.objects.filter(pk=game.pk).update(
            deadline=timezone.now() - timedelta(seconds=1)))()
        assert await services.play_move_on_loop(game.pk, o, "H9", 2, uuid.uuid4()) is None
        with pytest.raises(GameError) as late:
            await sync_to_async(services.play_move)(game.pk, o, "H9", 2, uuid.uuid4())
        assert late.value.code == "timeout"
        await sync_to_async(game.refresh_from_db)()
        assert game.is_over and game.ply == 1
    finally:
        await lean.close_loop_pool()


def test_the_statements_parameters_are_what_the_orm_would_send():
    """`lean._prepared` skips `get_db_prep_save` only for values PostgreSQL's backend passes
    unchanged: for every column a move writes, the parameters equal the ORM's own, and the Move
    made without `Model.__init__` (`play.new_move`) holds what `Move(...)` holds."""
    from caro.games.services import lean
    from caro.games.services.play import MOVE_FIELDS, new_move

    game, x, o = started_game()
    play(game, x, "H8", ply=1)
    game.refresh_from_db()
    game.draw_offer, game.lapsed_seat = "host", "guest"  # text columns with values, not only ""
    wrapper = lean.loop_wrapper()
    for name in MOVE_FIELDS:
        field = Game._meta.get_field(name)
        value = field.pre_save(game, False)
        assert lean._prepared(field, value, wrapper) == field.get_db_prep_save(value, wrapper), name
    client_id = uuid.uuid4()
    made = new_move(game, ply=2, side="O", square="H9", client_id=client_id, think_ms=1234)
    orm = Move(game=game, ply=2, side="O", square="H9", client_id=client_id, think_ms=1234)
    assert made.__dict__.keys() - {"_state"} <= orm.__dict__.keys()
    assert {k: v for k, v in made.__dict__.items() if k != "_state"} == {
        k: v for k, v in orm.__dict__.items() if k in made.__dict__ and k != "_state"}
    assert made.game is game and made._state.adding and made._state.db is None
    for field in lean._insert_fields():
        value = field.pre_save(made, True)
        assert lean._prepared(field, value, wrapper) == field.get_db_prep_save(value, wrapper), field.name
