"""Games against the computer and on one device, through the service, tasks and a real worker."""

import time

import pytest
from django.utils import translation

from accounts.guests import create_guest
from caro.engine.caro import Rules
from caro.games import services, snapshot, tasks
from caro.games.errors import GameError
from caro.games.models import Game, Move
from caro.rooms import services as rooms
from tests.integration.helpers import play

pytestmark = pytest.mark.django_db(transaction=True)


def _bot_game(level="easy", human="X"):
    user = create_guest()
    room = rooms.create_room(user, kind="computer", bot_level=level, side=human)
    return Game.objects.get(pk=room.current_game_id), user, room


def _bot_replies(game):
    """Run the computer's task in-process, as the worker would (a real worker started by another
    test may answer first: then its move is the one that counts). Returns the game's new ply."""
    game.refresh_from_db()
    if game.turn == game.bot_side:
        tasks.play_bot_move(game.pk, game.event_version)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.turn != game.bot_side:
            return game.ply
        time.sleep(0.05)
    raise AssertionError("the computer did not move")


def test_the_computer_answers_a_move_with_a_legal_one_and_no_clock():
    game, user, _room = _bot_game()
    assert game.status == Game.Status.ACTIVE and game.deadline is None and game.move_time_ms == 0
    assert (game.bot_side, game.bot_level, game.x_player, game.o_player) == ("O", "easy", user, None)
    play(game, user, "H8")
    assert _bot_replies(game) == 2
    assert Move.objects.get(game=game, ply=2).side == "O"


def test_the_room_and_record_say_the_game_has_no_clock(client):
    from caro.games.display import game_summary
    game, user, room = _bot_game()
    for language, words in (("vi", "không tính giờ"), ("en", "no clock")):
        with translation.override(language):
            assert game_summary(game).endswith(" · " + words)
    client.force_login(user)
    page = client.get(f"/r/{room.code}/")
    assert "không tính giờ" in page.context["rules_line"]
    timed = rooms.create_room(user, kind="friend")  # a friend room has its per-move clock
    with translation.override("en"):
        assert "no clock" not in game_summary(Game.objects.get(pk=timed.current_game_id))


def test_a_stale_computer_request_does_nothing():
    game, user, _room = _bot_game()
    play(game, user, "H8")
    game.refresh_from_db()
    stale = game.event_version - 1
    assert tasks.play_bot_move(game.pk, stale) is None
    assert services.apply_bot_move(game.pk, stale, "A1") is None
    _bot_replies(game)  # the real request, once
    assert tasks.play_bot_move(game.pk, stale + 1) is None  # already answered: stale now
    game.refresh_from_db()
    assert game.ply == 2 and not Move.objects.filter(game=game, square="A1").exists()


def test_the_computer_never_takes_a_persons_seat():
    game, _user, room = _bot_game()
    with pytest.raises(GameError) as err:
        rooms.join(room, create_guest())
    assert err.value.code == "seat_taken"


def test_undo_takes_back_the_move_and_the_reply_at_easy_and_medium():
    game, user, _room = _bot_game("medium")
    play(game, user, "H8")
    _bot_replies(game)
    play(game, user, "A1")
    _bot_replies(game)
    game.refresh_from_db()
    assert game.ply == 4 and snapshot.public_state(game)["can_undo"] is True
    assert services.undo(game.pk, user) == 2
    game.refresh_from_db()
    assert game.ply == 2 and list(game.moves.values_list("ply", flat=True)) == [1, 2]
    # While the computer is still thinking, only the player's move is taken back. (The move is
    # written directly, so no worker of another test can answer it first.)
    Move.objects.create(game=game, ply=3, side="X", square="B2")
    Game.objects.filter(pk=game.pk).update(ply=3, to_move="O", event_version=game.event_version + 1)
    assert services.undo(game.pk, user) == 1
    game.refresh_from_db()
    assert game.ply == 2 and not Move.objects.filter(game=game, square="B2").exists()


def test_undo_is_refused_at_hard_for_spectators_and_before_a_move():
    game, user, _room = _bot_game("hard")
    with pytest.raises(GameError) as err:
        services.undo(game.pk, user)
    assert err.value.code == "undo_refused"
    play(game, user, "H8")
    with pytest.raises(GameError) as err:
        services.undo(game.pk, user)
    assert err.value.code == "undo_refused"
    easy, owner, _ = _bot_game("easy")
    with pytest.raises(GameError) as err:
        services.undo(easy.pk, create_guest())
    assert err.value.code == "not_a_player"
    # At Easy before the person's first move the reason is that, not "only against the computer".
    with pytest.raises(GameError) as err:
        services.undo(easy.pk, owner)
    assert err.value.code == "undo_nothing"
    with translation.override("en"):
        assert str(err.value.message) == "You have no move to take back yet."


def test_when_the_computer_plays_x_it_opens_and_play_again_changes_the_level():
    game, user, room = _bot_game("easy", human="O")
    assert game.bot_side == "X"
    assert _bot_replies(game) == 1  # the computer's first move
    services.resign(game.pk, user)  # before both moved: aborted
    new = rooms.play_again(room.code, user, "hard")
    assert new is not None and new.bot_level == "hard"
    assert new.x_player == user and new.bot_side == "O"  # an abort swaps colours


def test_local_games_let_one_person_play_both_sides():
    user = create_guest()
    room = rooms.create_room(user, kind="local")
    game = Game.objects.get(pk=room.current_game_id)
    assert game.is_local and game.status == Game.Status.ACTIVE
    for square in ["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9", "L8"]:
        play(game, user, square)
    game.refresh_from_db()
    assert game.winner == "X" and game.termination == "five"
    new = rooms.play_again(room.code, user)
    assert new is not None and new.is_local


def test_a_real_worker_plays_the_computers_moves(celery_worker_process):
    game, user, _room = _bot_game("medium")
    play(game, user, "H8")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.ply == 2:
            break
        time.sleep(0.1)
    assert game.ply == 2


def test_the_sweep_requeues_a_lost_computer_turn():
    from datetime import timedelta

    from django.utils import timezone

    game, user, _room = _bot_game()
    play(game, user, "H8")
    Move.objects.filter(game=game).update(created_at=timezone.now() - timedelta(minutes=1))
    game.refresh_from_db()
    assert services.stalled_bot_turns() == [(game.pk, game.event_version)]


def test_a_second_play_again_for_the_same_game_gets_the_new_game_not_an_error():
    game, user, room = _bot_game("easy")
    services.resign(game.pk, user)
    first = rooms.play_again(room.code, user, None, game.pk)
    again = rooms.play_again(room.code, user, None, game.pk)  # a double click
    assert first is not None and again.pk == first.pk
    assert Game.objects.filter(rematch_of=game).count() == 1
