"""Reversi on the site: seats (X = Black), automatic passes, disc counts, the computer and undo."""

import json
import time
import uuid
from pathlib import Path

import pytest

from accounts.guests import create_guest
from caro.games import services, snapshot, tasks
from caro.games.errors import GameError
from caro.games.models import Game
from caro.rooms import services as rooms

pytestmark = pytest.mark.django_db(transaction=True)
CASES = Path(__file__).resolve().parents[3] / "shared" / "cases" / "reversi.json"


def _local_reversi():
    user = create_guest()
    room = rooms.create_room(user, "reversi", kind="local")
    return Game.objects.get(pk=room.current_game_id), user


def _play(game, user, square):
    game.refresh_from_db()
    return services.play_move(game.pk, user, square, game.ply + 1, uuid.uuid4())


def test_a_reversi_game_starts_with_four_discs_and_black_to_move():
    game, _user = _local_reversi()
    state = snapshot.public_state(game)
    assert state["kind"] == "reversi" and state["size"] == 8 and state["turn"] == "X"
    assert state["stones"] == {"d4": "O", "e5": "O", "d5": "X", "e4": "X"}
    assert sorted(state["legal"]) == ["c4", "d3", "e6", "f5"]


def test_moves_flip_discs_and_a_forced_pass_is_announced():
    data = json.loads(CASES.read_text())
    case = data["forced_pass"][0]
    game, user = _local_reversi()
    squares = [case["moves"][i:i + 2] for i in range(0, len(case["moves"]), 2)]
    result = None
    for square in squares:
        result = _play(game, user, square)
    event = result.events[0]
    assert event["passed"] == "X"  # Black had no move and passed
    assert event["turn"] == "O" and sorted(event["legal"]) == case["white_legal_after_pass"]
    game.refresh_from_db()
    assert game.turn == "O"
    state = snapshot.public_state(game)
    assert sum(v == "X" for v in state["stones"].values()) == case["discs"]["black"]
    assert sum(v == "O" for v in state["stones"].values()) == case["discs"]["white"]


def test_a_move_that_flips_nothing_is_refused():
    game, user = _local_reversi()
    with pytest.raises(GameError) as err:
        _play(game, user, "a1")
    assert err.value.code == "no_flip"
    game.refresh_from_db()
    assert game.ply == 0


def test_the_championship_game_ends_with_the_right_count():
    data = json.loads(CASES.read_text())
    moves = data["full_game"]["moves"].lower()
    game, user = _local_reversi()
    for i in range(0, len(moves), 2):
        result = _play(game, user, moves[i:i + 2])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "discs" and game.winner == "X"
    assert result.events[0]["count"] == {"X": data["full_game"]["result"]["black"], "O": data["full_game"]["result"]["white"]}


def test_the_computer_plays_reversi_and_undo_works_at_every_level():
    user = create_guest()
    room = rooms.create_room(user, "reversi", kind="computer", bot_level="hard", side="X")
    game = Game.objects.get(pk=room.current_game_id)
    _play(game, user, "f5")
    game.refresh_from_db()
    if game.turn == "O":
        tasks.play_bot_move(game.pk, game.event_version)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.turn == "X":
            break
        time.sleep(0.05)
    assert game.ply == 2 and game.turn == "X"
    assert snapshot.public_state(game)["can_undo"] is True  # Hard, but Reversi allows undo
    assert services.undo(game.pk, user) == 2
    game.refresh_from_db()
    assert game.ply == 0 and game.turn == "X"
    assert snapshot.public_state(game)["stones"] == {"d4": "O", "e5": "O", "d5": "X", "e4": "X"}
