""""Continue from here against the computer": the on-device page (the computer plays in the browser,
issue 26) from a position of any game, with the same rules; the server creates nothing."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from accounts.models import User
from caro.games.models import Game, Move
from caro.rooms.models import Room

from .conftest import caro_rules, play_game

pytestmark = pytest.mark.django_db


def _counts():
    return Room.objects.count(), Game.objects.count(), User.objects.count()


def _page(response):
    assert response.status_code == 303, response.content[:1000]
    parts = urlsplit(response["Location"])
    return parts.path, {key: values[0] for key, values in parse_qs(parts.query).items()}


def test_continuing_opens_the_on_device_page_from_that_position_with_the_same_rules(caro_game):
    game, _x, _o = caro_game
    before = _counts()
    path, query = _page(Client().post(f"/van/{game.pk}/choi-tiep", {"ply": "4", "level": "easy"}))
    assert path == "/choi-may/"
    assert query == {"preset": "caro-vn", "size": "15", "win_length": "5", "level": "easy",
                     "moves": "H8,A1,I8,A2"}
    assert _counts() == before  # no room, no game, no guest
    assert Move.objects.filter(game=game).count() == 9  # the original game is untouched


def test_the_rules_go_with_the_position():
    game, _x, _o = play_game(["C3", "A15", "D4", "B15"], rules=caro_rules("exact-five", 19))
    _path, query = _page(Client().post(f"/en/game/{game.pk}/continue", {"ply": "2", "level": "hard"}))
    assert (query["preset"], query["size"], query["moves"]) == ("exact-five", "19", "C3,A15")


def test_continuing_a_reversi_game_where_white_is_to_move(reversi_vectors):
    text = reversi_vectors["full_game"]["moves"].lower()
    game, _x, _o = play_game([text[k:k + 2] for k in range(0, 10, 2)], kind="reversi")
    path, query = _page(Client().post(f"/en/game/{game.pk}/continue", {"ply": "5", "level": "medium"}))
    assert (path, query) == ("/choi-may/", {"preset": "reversi", "level": "medium", "moves": "f5,d6,c5,f4,e3"})


def test_the_end_of_a_finished_game_cannot_be_continued(caro_game):
    game, _x, _o = caro_game
    assert 'data-role="continue" hidden' in Client().get(f"/van/{game.pk}/").content.decode()
    assert 'data-role="continue">' in Client().get(f"/van/{game.pk}/?ply=8").content.decode()
    client = Client()
    response = client.post(f"/en/game/{game.pk}/continue", {"ply": "9", "level": "easy"})
    assert response.status_code == 302 and response["Location"].startswith(f"/en/game/{game.pk}/")
    assert "This game is over" in client.get(response["Location"]).content.decode()


def test_bad_continue_requests_change_nothing(caro_game):
    game, _x, _o = caro_game
    before = _counts()
    assert Client().get(f"/van/{game.pk}/choi-tiep").status_code == 405
    assert Client().post(f"/van/{game.pk}/choi-tiep", {"ply": "-3", "level": "easy"}).status_code == 302
    assert Client().post(f"/van/{game.pk}/choi-tiep", {"ply": "2", "level": "godlike"}).status_code == 302
    assert Client().post("/van/999999/choi-tiep", {"ply": "2", "level": "easy"}).status_code == 404
    assert _counts() == before
