"""Move clocks: deadline tasks that fire late or twice, the beat sweep, and a real Celery worker."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from caro.games import tasks
from caro.games.models import Game
from tests.integration.helpers import play, play_sequence, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def _expire(game):
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(milliseconds=10))


def test_a_task_firing_late_after_the_player_moved_has_no_effect():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])  # the task for ply 2 is now stale
    play(game, x, "I8")  # ply 3
    _expire(game)  # even with an expired deadline, the ply-2 task must not act
    assert tasks.enforce_move_deadline(game.pk, 2) is False
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.ply == 3


def test_a_task_firing_twice_gives_one_result():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9", "I8"])
    _expire(game)
    assert tasks.enforce_move_deadline(game.pk, 3) is True
    game.refresh_from_db()
    first = (game.status, game.winner, game.termination, game.finished_at, game.event_version)
    assert tasks.enforce_move_deadline(game.pk, 3) is False
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination, game.finished_at, game.event_version) == first
    assert first[:3] == (Game.Status.FINISHED, "X", "timeout")  # O was to move and lost


def test_a_task_before_the_deadline_does_nothing():
    game, x, o = started_game()
    play(game, x, "H8")
    assert tasks.enforce_move_deadline(game.pk, 1) is False
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_timeout_before_both_sides_moved_aborts():
    game, x, _o = started_game()
    play(game, x, "H8")
    _expire(game)
    assert tasks.enforce_move_deadline(game.pk, 1) is True
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.winner == "" and game.termination == "abort"


def test_the_sweep_catches_what_a_lost_task_missed():
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    other, *_ = started_game()
    _expire(game)
    assert tasks.sweep_deadlines() == 1
    assert tasks.sweep_deadlines() == 0
    game.refresh_from_db()
    other.refresh_from_db()
    assert game.termination == "timeout" and game.winner == "O"
    assert other.status == Game.Status.ACTIVE


def test_a_real_worker_ends_the_game_when_the_clock_runs_out(celery_worker_process):
    game, x, o = started_game(move_time_ms=1500)
    play_sequence(game, x, o, ["H8", "H9", "I8"])  # O to move, 1.5 s on the clock
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        time.sleep(0.2)
    assert (game.status, game.winner, game.termination) == (Game.Status.FINISHED, "X", "timeout")
    last_move = game.moves.order_by("-ply").first()
    waited = game.finished_at - last_move.created_at
    assert timedelta(seconds=1.4) <= waited < timedelta(seconds=4)  # the task ran on time
