""""Continue from here against the computer": a computer room from a position of any game."""

import re

import pytest
from django.test import Client

from caro.games.models import Game, Move
from caro.rooms.models import Room

from .conftest import play_game

pytestmark = pytest.mark.django_db


def _room(response):
    assert response.status_code == 302, response.content[:1000]
    code = re.fullmatch(r"/r/([A-Z0-9]{6})/", response["Location"]).group(1)
    return Room.objects.select_related("current_game").get(code=code)


def test_continuing_opens_a_computer_room_from_that_position_with_the_same_rules(caro_game):
    game, _x, _o = caro_game
    client = Client()
    room = _room(client.post(f"/van/{game.pk}/choi-tiep", {"ply": "4", "level": "easy"}))
    new = room.current_game
    assert room.kind == Room.Kind.COMPUTER and new.pk != game.pk
    assert list(Move.objects.filter(game=new).order_by("ply").values_list("square", "side")) == [
        ("H8", "X"), ("A1", "O"), ("I8", "X"), ("A2", "O")]
    assert (new.status, new.ply, new.turn, new.rules) == (Game.Status.ACTIVE, 4, "X", game.rules)
    # The visitor (a new guest) plays the side to move; the computer the other side.
    assert new.host == room.created_by and new.side_of("host") == "X" and new.bot_side == "O"
    assert new.bot_level == "easy" and new.move_time_ms == 0
    assert client.get(f"/r/{room.code}/").status_code == 200
    # The original game is untouched.
    assert Move.objects.filter(game=game).count() == 9


def test_continuing_a_reversi_game_where_white_is_to_move(reversi_vectors):
    text = reversi_vectors["full_game"]["moves"].lower()
    game, _x, _o = play_game([text[k:k + 2] for k in range(0, 10, 2)], kind="reversi")
    room = _room(Client().post(f"/en/game/{game.pk}/continue", {"ply": "5", "level": "medium"}))
    new = room.current_game
    assert new.kind == "reversi" and new.ply == 5 and new.turn == "O" and new.side_of("host") == "O"


def test_the_end_of_a_finished_game_cannot_be_continued(caro_game):
    game, _x, _o = caro_game
    assert 'data-role="continue" hidden' in Client().get(f"/van/{game.pk}/").content.decode()
    assert 'data-role="continue">' in Client().get(f"/van/{game.pk}/?ply=8").content.decode()
    rooms_before = Room.objects.count()
    client = Client()
    response = client.post(f"/en/game/{game.pk}/continue", {"ply": "9", "level": "easy"})
    assert response.status_code == 302 and response["Location"].startswith(f"/en/game/{game.pk}/")
    assert Room.objects.count() == rooms_before
    assert "This game is over" in client.get(response["Location"]).content.decode()


def test_bad_continue_requests_change_nothing(caro_game):
    game, _x, _o = caro_game
    before = (Room.objects.count(), Game.objects.count())
    assert Client().get(f"/van/{game.pk}/choi-tiep").status_code == 405
    assert Client().post(f"/van/{game.pk}/choi-tiep", {"ply": "-3", "level": "easy"}).status_code == 302
    assert Client().post(f"/van/{game.pk}/choi-tiep", {"ply": "2", "level": "godlike"}).status_code == 302
    assert Client().post("/van/999999/choi-tiep", {"ply": "2", "level": "easy"}).status_code == 404
    assert (Room.objects.count(), Game.objects.count()) == before


def test_continuing_counts_against_the_room_limits(caro_game):
    from django.test import override_settings

    game, _x, _o = caro_game
    import secrets
    client = Client(REMOTE_ADDR=f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250)}")
    before = Room.objects.count()
    with override_settings(CARO_ROOMS_PER_MINUTE_PER_ADDRESS=2):
        answers = [client.post(f"/van/{game.pk}/choi-tiep", {"ply": "4", "level": "easy"}) for _ in range(4)]
    made = Room.objects.count() - before
    assert made == 2  # the third and fourth were refused: nothing created
    refused = client.get(answers[-1]["Location"]).content.decode()
    assert "Quá nhiều phòng mới" in refused
