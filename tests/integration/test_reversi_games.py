"""Reversi on the site: seats (X = Black), automatic passes, disc counts."""

import json
import uuid
from pathlib import Path

import pytest

from accounts.guests import create_guest
from caro.games import services, snapshot
from caro.games.errors import GameError
from caro.games.models import Game
from tests.integration.helpers import legacy_room

pytestmark = pytest.mark.django_db(transaction=True)
CASES = Path(__file__).resolve().parents[3] / "shared" / "cases" / "reversi.json"


def _local_reversi():
    user = create_guest()
    room = legacy_room(user, "local", "reversi")
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
