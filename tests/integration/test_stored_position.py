"""The position stored with a game (`Game.position`, issue 17): after every move, opening step and
take-back it is the board a replay of the stored moves gives, so a move can play on it."""

import json
import uuid
from pathlib import Path

import pytest

from accounts.guests import create_guest
from caro.games import services, snapshot
from caro.games.models import Game
from caro.rooms import services as rooms
from tests.integration.helpers import legacy_room

pytestmark = pytest.mark.django_db(transaction=True)
CASES = Path(__file__).resolve().parents[3] / "shared" / "cases" / "reversi.json"


def _room_game(preset="caro-vn", **options):
    host, guest = create_guest(), create_guest()
    room = rooms.create_room(host, preset, **options)
    services.take_seat(room.current_game_id, guest)
    game = Game.objects.get(pk=room.current_game_id)
    return game, {game.side_of("host"): host, game.side_of("guest"): guest}


def _play(game, user, square):
    game.refresh_from_db()
    return services.play_move(game.pk, user, square, game.ply + 1, uuid.uuid4())


def _assert_stored_matches_replay(game):
    """The stored position is at the game's ply and equals the board rebuilt from every move."""
    game.refresh_from_db()
    ply, _sep, text = game.position.partition(snapshot.POSITION_SEPARATOR)
    assert int(ply) == game.ply
    rebuilt = snapshot.board_for(game)
    assert text == rebuilt.position()
    stored = snapshot.board_now(game)
    assert stored.position() == rebuilt.position() and stored.turn == rebuilt.turn
    assert sorted(stored.legal_moves()) == sorted(rebuilt.legal_moves())
    return rebuilt


def test_after_many_moves_of_caro():
    game, players = _room_game("caro-vn")
    squares = [f"{c}{r}" for r in (1, 2, 4, 5) for c in "ABCDEFGHIJKLMNO"][:52]  # no five: rows alternate
    for i, square in enumerate(squares):
        _play(game, players["X" if i % 2 == 0 else "O"], square)
        if i % 13 == 0:
            _assert_stored_matches_replay(game)
    board = _assert_stored_matches_replay(game)
    assert board.ply == 52


def test_renju_after_the_rif_opening_and_moves_after_it():
    game, _players = _room_game("renju-rif")
    host, guest = game.host, game.guest
    for square in ("H8", "I7", "J9"):
        _play(game, host, square)
        _assert_stored_matches_replay(game)
    services.opening_step(game.pk, guest, {"kind": "keep"})
    _play(game, guest, "G9")
    services.opening_step(game.pk, host, {"kind": "offer", "squares": ["H10", "I9"]})
    services.opening_step(game.pk, guest, {"kind": "select", "square": "H10"})
    _assert_stored_matches_replay(game)
    game.refresh_from_db()
    assert game.ply == 5 and game.turn == "O"
    for square in ("A1", "O15", "A15"):  # ordinary moves on the stored position
        game.refresh_from_db()
        _play(game, game.player_in(game.seat_playing(game.turn)), square)
    board = _assert_stored_matches_replay(game)
    assert board.turn == "X" and board.rules.renju


def test_swap2_with_two_more_stones_and_the_choice():
    game, _players = _room_game("swap2")
    host, guest = game.host, game.guest
    for square in ("H8", "J10", "G10"):
        _play(game, host, square)
    _play(game, guest, "H10")
    _play(game, guest, "K11")
    services.opening_step(game.pk, host, {"kind": "choose", "color": "O"})
    _assert_stored_matches_replay(game)
    _play(game, host, "L12")
    _assert_stored_matches_replay(game)


def test_after_a_take_back_by_agreement():
    game, players = _room_game("caro-vn", takeback=True)
    for i, square in enumerate(["H8", "H9", "I8", "I9", "J8"]):
        _play(game, players["X" if i % 2 == 0 else "O"], square)
    services.request_undo(game.pk, players["X"])
    services.answer_undo(game.pk, players["O"], True)
    board = _assert_stored_matches_replay(game)
    assert board.ply == 4 and board.turn == "X"
    _play(game, players["X"], "K8")  # J8 is gone: not a five on the stored position either
    board = _assert_stored_matches_replay(game)
    assert board.stones()["K8"] == "X" and "J8" not in board.stones()


def test_reversi_through_a_forced_pass_and_to_the_end():
    data = json.loads(CASES.read_text())
    case = data["forced_pass"][0]
    user = create_guest()
    room = legacy_room(user, "local", "reversi")
    game = Game.objects.get(pk=room.current_game_id)
    squares = [case["moves"][i:i + 2] for i in range(0, len(case["moves"]), 2)]
    for square in squares:
        result = _play(game, user, square)
        _assert_stored_matches_replay(game)
    assert result.events[0]["passed"] == "X"
    game.refresh_from_db()
    assert game.turn == "O" and game.position.split("|")[1].startswith("white:")
    assert sorted(snapshot.board_now(game).legal_moves()) == case["white_legal_after_pass"]

    moves = data["full_game"]["moves"].lower()
    room = legacy_room(user, "local", "reversi")
    game = Game.objects.get(pk=room.current_game_id)
    for i in range(0, len(moves), 2):
        result = _play(game, user, moves[i:i + 2])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "discs"
    assert result.events[0]["count"] == {"X": data["full_game"]["result"]["black"], "O": data["full_game"]["result"]["white"]}
    assert game.position.split("|")[1] == snapshot.board_for(game).position()


def test_a_stale_or_unreadable_stored_position_is_rebuilt():
    game, players = _room_game("caro-vn")
    for i, square in enumerate(["H8", "H9", "I8"]):
        _play(game, players["X" if i % 2 == 0 else "O"], square)
    game.refresh_from_db()
    good = game.position
    for wrong in ("2|" + good.split("|")[1], "3|X" + "." * 10, "3|nonsense", "garbage"):
        Game.objects.filter(pk=game.pk).update(position=wrong)
        game.refresh_from_db()
        assert snapshot.board_now(game).position() == snapshot.board_for(game).position()
    Game.objects.filter(pk=game.pk).update(position="")
    _play(game, players["O"], "I9")
    _assert_stored_matches_replay(game)
