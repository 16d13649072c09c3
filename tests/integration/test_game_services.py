"""The game service against the real PostgreSQL: locking, ply checks, idempotency, endings."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone, translation

from caro.games import services, snapshot
from caro.games.errors import GameError
from caro.games.models import Game, Move
from tests.integration.helpers import play, play_sequence, started_game, two_players

pytestmark = pytest.mark.django_db(transaction=True)

X_FIVE = ["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9", "L8"]  # X: H8..L8, O stones on row 9


def test_a_game_is_won_by_five_and_the_line_and_result_are_stored():
    game, x, o = started_game()
    result = play_sequence(game, x, o, X_FIVE)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner == "X" and game.termination == "five"
    assert sorted(game.win_line) == ["H8", "I8", "J8", "K8", "L8"]
    assert [e["type"] for e in result.events] == ["move", "game_over"]
    assert result.events[1]["version"] == game.event_version
    assert game.deadline is None
    assert Move.objects.filter(game=game).count() == 9


def test_two_concurrent_moves_for_the_same_ply_store_exactly_one():
    game, x, _o = started_game()
    barrier = threading.Barrier(2)
    outcomes: list = []

    def attempt(square):
        barrier.wait()
        try:
            services.play_move(game.pk, x, square, 1, uuid.uuid4())
            outcomes.append("ok")
        except GameError as exc:
            outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=attempt, args=(sq,)) for sq in ("H8", "G7")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(outcomes) == ["ok", "stale"]
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.ply == 1 and game.event_version == 2  # seated + one move


def test_a_repeated_client_move_id_is_answered_not_applied_twice():
    game, x, o = started_game()
    move_id = uuid.uuid4()
    first = services.play_move(game.pk, x, "H8", 1, move_id)
    again = services.play_move(game.pk, x, "H8", 1, move_id)
    assert not first.duplicate and again.duplicate
    assert again.move.pk == first.move.pk
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.ply == 1
    # The opponent cannot replay X's id to learn anything or to move: not a repeat of its own.
    with pytest.raises(GameError) as err:
        services.play_move(game.pk, o, "H8", 1, move_id)
    assert err.value.code == "stale"


def test_a_move_after_the_game_ended_is_refused_and_no_second_result():
    game, x, o = started_game()
    play_sequence(game, x, o, X_FIVE)
    game.refresh_from_db()
    finished_at, version = game.finished_at, game.event_version
    with pytest.raises(GameError) as err:
        play(game, o, "A1")
    assert err.value.code == "game_over"
    game.refresh_from_db()
    assert (game.winner, game.finished_at, game.event_version) == ("X", finished_at, version)
    assert Move.objects.filter(game=game).count() == 9


@pytest.mark.parametrize(
    "square, who, ply, code",
    [
        ("H8", "o", 1, "not_your_turn"),
        ("P8", "x", 1, "out_of_board"),
        ("8H", "x", 1, "bad_square"),
        ("H8", "x", 5, "stale"),
        ("H8", "spectator", 1, "not_a_player"),
    ],
)
def test_bad_moves_are_refused_with_their_code_and_change_nothing(square, who, ply, code):
    game, x, o = started_game()
    spectator = two_players()[0]
    user = {"x": x, "o": o, "spectator": spectator}[who]
    before = Game.objects.get(pk=game.pk)
    with pytest.raises(GameError) as err:
        services.play_move(game.pk, user, square, ply, uuid.uuid4())
    assert err.value.code == code
    assert str(err.value.message)  # a translated, human message
    after = Game.objects.get(pk=game.pk)
    assert (after.ply, after.event_version, after.status) == (before.ply, before.event_version, before.status)
    assert not Move.objects.filter(game=game).exists()


def test_occupied_square_is_refused():
    game, x, o = started_game()
    play(game, x, "H8")
    with pytest.raises(GameError) as err:
        play(game, o, "h8")
    assert err.value.code == "occupied"


def test_a_move_before_the_opponent_arrives_is_refused():
    x, _ = two_players()
    game = services.create_game(host=x)
    with pytest.raises(GameError) as err:
        services.play_move(game.pk, x, "H8", 1, uuid.uuid4())
    assert err.value.code == "not_started"


def test_seats_fill_in_order_and_a_third_visitor_watches():
    x, o = two_players()
    third = two_players()[0]
    game = services.create_game(host=x)
    assert services.take_seat(game.pk, o) == "guest"
    assert services.take_seat(game.pk, o) == "guest"  # idempotent
    with pytest.raises(GameError) as err:
        services.take_seat(game.pk, third)
    assert err.value.code == "seat_taken"
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.deadline is not None


def test_a_move_after_the_deadline_ends_the_game_on_time_instead():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(GameError) as err:
        play(game, x, "I8")
    assert err.value.code == "timeout"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner == "O" and game.termination == "timeout"
    assert game.ply == 2


def test_resign_before_both_moved_aborts_and_after_loses():
    game, x, o = started_game()
    services.resign(game.pk, o)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.winner == ""
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    services.resign(game.pk, x)
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == (Game.Status.FINISHED, "O", "resign")


def test_rematch_needs_both_players_and_the_loser_moves_first():
    game, x, o = started_game()
    play_sequence(game, x, o, X_FIVE)  # X wins, O lost
    with pytest.raises(GameError):
        services.create_rematch(game.pk, two_players()[0])
    assert services.create_rematch(game.pk, x) is None  # an offer
    assert services.create_rematch(game.pk, x) is None  # repeated: still one offer
    game.refresh_from_db()
    assert game.rematch_offer == "host" and game.side_of(game.rematch_offer) == "X"
    rematch = services.create_rematch(game.pk, o)  # accepted
    assert services.create_rematch(game.pk, x).pk == rematch.pk
    assert rematch.x_player == o and rematch.o_player == x
    assert rematch.status == Game.Status.ACTIVE and rematch.rules == game.rules
    assert Game.objects.filter(rematch_of=game).count() == 1


def _refusal(func, *args) -> str:
    with pytest.raises(GameError) as err:
        func(*args)
    return err.value.code


def test_a_declined_rematch_offer_is_cleared_and_the_asker_may_ask_again():
    game, x, o = started_game()
    play_sequence(game, x, o, X_FIVE)
    assert _refusal(services.decline_rematch, game.pk, o) == "no_offer"  # nothing asked yet
    services.create_rematch(game.pk, x)
    game.refresh_from_db()
    version = game.event_version
    assert _refusal(services.decline_rematch, game.pk, x) == "no_offer"  # one's own offer
    assert _refusal(services.decline_rematch, game.pk, two_players()[0]) == "not_a_player"
    game.refresh_from_db()
    assert (game.rematch_offer, game.event_version) == ("host", version)  # the refusals changed nothing
    services.decline_rematch(game.pk, o)
    game.refresh_from_db()
    assert game.rematch_offer == "" and game.event_version == version + 1
    assert snapshot.state_for(game, x)["rematch_offer"] is None  # what a socket that (re)connects reads
    assert _refusal(services.decline_rematch, game.pk, o) == "no_offer"  # declined once: no offer left
    assert not game.rematches.exists()
    # the asker asks again, and this time the opponent accepts
    assert services.create_rematch(game.pk, x) is None
    game.refresh_from_db()
    assert snapshot.state_for(game, o)["rematch_offer"] == "X"
    rematch = services.create_rematch(game.pk, o)
    assert rematch is not None and rematch.rematch_of_id == game.pk


def test_rematch_offers_declined_too_often_are_refused_and_change_nothing():
    """Attacker run: offer, decline, offer again every 100 ms flooded the spectators (40 offers in
    5 s). After REMATCH_DECLINES_MAX declined offers a player may offer no more rematches of the
    game (a translated refusal, nothing changed); the opponent still may, and accepting works."""
    from caro.games.services.offers import REMATCH_DECLINES_MAX

    game, x, o = started_game()
    play_sequence(game, x, o, X_FIVE)
    for _ in range(REMATCH_DECLINES_MAX):
        assert services.create_rematch(game.pk, x) is None
        services.decline_rematch(game.pk, o)
    game.refresh_from_db()
    version = game.event_version
    with pytest.raises(GameError) as err:
        services.create_rematch(game.pk, x)
    assert err.value.code == "rematch_refused"
    with translation.override("vi"):
        assert "chơi lại" in err.value.message
    game.refresh_from_db()
    assert (game.rematch_offer, game.event_version) == ("", version) and not game.rematches.exists()
    # The opponent may still offer, and the refused player's play_again accepts it.
    assert services.create_rematch(game.pk, o) is None
    rematch = services.create_rematch(game.pk, x)
    assert rematch is not None and rematch.rematch_of_id == game.pk


def test_a_rematch_cannot_be_declined_once_the_next_game_exists_nor_while_the_game_is_on():
    game, x, o = started_game()
    assert _refusal(services.decline_rematch, game.pk, o) == "not_over"
    play_sequence(game, x, o, X_FIVE)
    services.create_rematch(game.pk, o)
    rematch = services.create_rematch(game.pk, x)
    version = Game.objects.get(pk=game.pk).event_version
    for user in (x, o):
        assert _refusal(services.decline_rematch, game.pk, user) == "no_offer"
    game.refresh_from_db()
    assert game.event_version == version and list(game.rematches.all()) == [rematch]


def test_the_rematch_of_a_rated_game_is_rated_and_of_a_casual_one_casual():
    for rated in (True, False):
        game, x, o = started_game()
        Game.objects.filter(pk=game.pk).update(rated=rated)
        play_sequence(game, x, o, X_FIVE)
        services.create_rematch(game.pk, x)
        assert services.create_rematch(game.pk, o).rated is rated


def test_rematch_of_a_running_game_is_refused():
    game, x, _o = started_game()
    with pytest.raises(GameError) as err:
        services.create_rematch(game.pk, x)
    assert err.value.code == "not_over"


def test_game_ended_is_announced_once_inside_the_ending_transaction():
    from django.db import connection

    from caro.games.signals import game_ended

    seen = []

    def receiver(sender, game, **kwargs):
        seen.append((game.pk, game.status, game.winner, connection.in_atomic_block))

    game_ended.connect(receiver)
    try:
        game, x, o = started_game()
        play_sequence(game, x, o, X_FIVE)
        with pytest.raises(GameError):
            play(game, o, "A1")
        services.enforce_deadline(game.pk)
    finally:
        game_ended.disconnect(receiver)
    assert seen == [(game.pk, Game.Status.FINISHED, "X", True)]


def test_resign_after_the_deadline_ends_the_game_on_time():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9", "I8"])
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(GameError) as err:
        services.resign(game.pk, x)  # O was to move and had run out of time
    assert err.value.code == "timeout"
    game.refresh_from_db()
    assert (game.winner, game.termination) == ("X", "timeout")


def _game_with_rules(rules):
    x, o = two_players()
    game = services.create_game(rules=rules, host=x, guest=o)
    return game, x, o


def test_a_five_closed_at_both_ends_does_not_win_and_says_why():
    from caro.engine.caro import Rules

    game, x, o = _game_with_rules(Rules())  # Caro Việt Nam: blocked two ends
    # O blocks D8 and J8 first; X then fills E8..I8: five stones, both ends closed.
    result = play_sequence(game, x, o, ["E8", "D8", "F8", "J8", "G8", "A1", "H8", "A2", "I8"])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert result.events[-1]["note"] == {"kind": "blocked", "line": ["E8", "F8", "G8", "H8", "I8"]}


def test_an_overline_under_exact_rules_says_why():
    from caro.engine.caro import Rules

    game, x, o = _game_with_rules(Rules(exact=True, blocked="none"))
    result = play_sequence(game, x, o, ["E8", "A1", "F8", "A2", "G8", "A3", "I8", "A4", "J8", "A6", "H8"])
    assert result.events[-1]["note"]["kind"] == "overline"
    assert len(result.events[-1]["note"]["line"]) == 6
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_renju_foul_points_are_published_and_a_foul_is_refused():
    from caro.engine.caro import PRESETS

    game, x, o = _game_with_rules(PRESETS["renju"].rules)
    # X around H9 (H8, G9, I9, H10): H9 would make two open threes at once.
    result = play_sequence(game, x, o, ["H8", "A1", "I9", "A3", "H10", "A5", "G9", "A7"])
    fouls = result.events[-1]["fouls"]
    state = snapshot.public_state(Game.objects.get(pk=game.pk))
    assert state["fouls"] == fouls
    assert fouls == {"H9": "double-three"}
    square = "H9"
    with pytest.raises(GameError) as err:
        play(game, x, square)
    assert err.value.code == "foul" and err.value.detail == "double-three"


def test_every_engine_termination_has_a_stored_reason():
    from caro.engine.caro import Termination
    from caro.games.kinds import Caro

    assert set(Caro._TERMINATIONS) == {t.value for t in Termination}
    assert set(Caro._TERMINATIONS.values()) | {"discs"} <= set(Game.Termination.values)


def test_a_move_id_reused_for_a_later_move_is_refused_cleanly():
    game, x, o = started_game()
    move_id = uuid.uuid4()
    services.play_move(game.pk, x, "H8", 1, move_id)
    services.play_move(game.pk, o, "H9", 2, uuid.uuid4())
    with pytest.raises(GameError) as err:
        services.play_move(game.pk, x, "I8", 3, move_id)
    assert err.value.code == "stale"
    game.refresh_from_db()
    assert game.ply == 2 and Move.objects.filter(game=game).count() == 2


def test_a_state_built_from_a_row_read_before_the_next_move_holds_exactly_that_rows_moves():
    """A `state` whose game row was read just before a move committed: its `version` and `moves`
    agree, so the move comes to the page once, as the `move` event of the next version."""
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    stale = Game.objects.get(pk=game.pk)  # the row as read before the next move
    result = play(game, x, "I8")
    state = snapshot.public_state(stale)
    assert state["version"] == stale.event_version and state["moves"] == [["H8", "X"], ["H9", "O"]]
    assert result.events[0]["version"] == state["version"] + 1 and result.events[0]["square"] == "I8"
