"""Issue 26, "The server stops computing moves": games against the computer and on one device are
played in the page (CONTRACTS.md section 3), so the server makes no room for them, plays no move,
queues no task; the forms of older pages land on the on-device pages; rooms and games of those
kinds stored before still show as records, and a game against the computer still on is ended."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from accounts.guests import create_guest
from accounts.models import User
from caro.celery import app
from caro.games import services
from caro.games.errors import GameError
from caro.games.models import Game
from caro.rooms import services as rooms
from caro.rooms.device import DEVICE_PAGES
from caro.rooms.models import Room
from tests.integration.helpers import legacy_room, play

pytestmark = pytest.mark.django_db


def _counts():
    return Room.objects.count(), Game.objects.count(), User.objects.count()


def _query(response):
    parts = urlsplit(response["Location"])
    return parts.path, {key: values[0] for key, values in parse_qs(parts.query).items()}


def test_the_old_computer_form_goes_to_the_on_device_page_and_creates_nothing():
    before = _counts()
    response = Client().post("/rooms/computer", {"preset": "caro-exact", "size": "19", "win_length": "6",
                                                 "level": "hard", "side": "O"})
    assert response.status_code == 303
    path, query = _query(response)
    assert path == DEVICE_PAGES["computer"] == "/choi-may/"
    assert query == {"preset": "caro-exact", "size": "19", "win_length": "6", "level": "hard", "side": "O"}
    assert _counts() == before  # no room, no game, no guest


def test_the_old_one_device_form_goes_to_its_page_and_reversi_has_no_size():
    before = _counts()
    path, query = _query(Client().post("/rooms/local", {"preset": "reversi"}))
    assert (path, query) == ("/choi-hai-nguoi/", {"preset": "reversi"})
    path, query = _query(Client().post("/rooms/computer", {}))  # a bare form: the site's defaults
    assert (path, query["preset"], query["size"], query["level"]) == ("/choi-may/", "caro-vn", "15", "easy")
    assert query["side"] == "X"
    assert _counts() == before


def test_bad_choices_go_back_to_the_home_page_with_the_reason():
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post("/rooms/computer", {"preset": "renju", "size": "19"},
                                                      follow=True)
    assert response.redirect_chain[0][0].startswith("/?")
    assert "Renju is played on a 15×15 board with five in a row." in response.content.decode()


def test_no_task_plays_for_the_computer_and_the_worker_has_one_queue():
    app.loader.import_default_modules()
    app.autodiscover_tasks(force=True)
    import caro.games.tasks  # noqa: F401 - registers the games app's tasks

    names = set(app.tasks)
    assert "caro.games.tasks.enforce_move_deadline" in names
    assert not {name for name in names if "bot" in name}
    assert not [entry for entry in settings.CELERY_BEAT_SCHEDULE.values() if "bot" in entry["task"]]
    assert not getattr(settings, "CELERY_TASK_ROUTES", None)


def test_an_old_computer_game_still_on_is_ended_and_shows_as_a_record():
    user = create_guest()
    room = legacy_room(user, "computer", level="medium")
    game = Game.objects.get(pk=room.current_game_id)
    play(game, user, "H8")
    assert services.time.abandon_idle() == 1  # nobody would play the computer's reply
    game.refresh_from_db()
    assert (game.status, game.termination) == ("aborted", "abandoned")
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/en/game/{game.pk}/").content.decode()
    assert "Computer (Medium)" in page and "H8" in page
    # "Play again" in such a room starts nothing: those games are played in the page now.
    with pytest.raises(GameError) as refused:
        rooms.play_again(room.code, user)
    assert refused.value.code == "on_device"
    with translation.override("en"):
        english = refused.value.message
    with translation.override("vi"):
        assert refused.value.message and refused.value.message != english  # Vietnamese first


def test_an_old_one_device_game_plays_to_its_end_and_starts_no_next_game():
    user = create_guest()
    room = legacy_room(user, "local")
    game = Game.objects.get(pk=room.current_game_id)
    assert services.time.abandon_idle() == 0  # people play it: it keeps the idle rule
    for square in ["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9", "L8"]:
        play(game, user, square)
    game.refresh_from_db()
    assert (game.winner, game.termination) == ("X", "five")
    with pytest.raises(GameError) as refused:
        rooms.play_again(room.code, user, game.pk)
    assert refused.value.code == "on_device"
    assert Game.objects.filter(rematch_of=game).count() == 0


def test_rooms_are_friend_rooms_only():
    room = rooms.create_room(create_guest(), "caro-vn")
    assert room.kind == Room.Kind.FRIEND
    with pytest.raises(TypeError):
        rooms.create_room(create_guest(), kind="computer")  # noqa - no such argument any more
    with pytest.raises(TypeError):
        services.create_game(host=create_guest(), bot_seat="guest", bot_level="easy")


def _device_url(room, user):
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    html = client.get(f"/r/{room.code}/").content.decode()
    found = [part.split('"')[0] for part in html.split('data-device-url="')[1:]]
    return found[0].replace("&amp;", "&") if found else None


@pytest.mark.parametrize("preset, size, win_length, level, side, want", [
    ("caro-exact", 19, 6, "hard", "O",
     {"preset": "caro-exact", "size": "19", "win_length": "6", "level": "hard", "side": "O"}),
    ("renju-rif", None, None, "medium", "X", {"preset": "renju-rif", "size": "15", "win_length": "5", "level": "medium",
                                               "side": "X"}),
    ("reversi", None, None, "easy", "X", {"preset": "reversi", "level": "easy", "side": "X"}),
])
def test_play_again_in_an_old_computer_room_leads_to_the_device_page_with_its_rules_and_level(
        preset, size, win_length, level, side, want):
    user = create_guest()
    room = legacy_room(user, "computer", preset, level=level, side=side, size=size, win_length=win_length)
    services.resign(room.current_game_id, user)
    url = _device_url(room, user)
    parts = urlsplit(url)
    assert parts.path == DEVICE_PAGES["computer"]
    assert {key: values[0] for key, values in parse_qs(parts.query).items()} == want
    before = _counts()
    assert Client().get(url).status_code == 200 and _counts() == before  # the page itself makes nothing


def test_play_again_in_an_old_one_device_room_leads_to_the_one_device_page_and_a_friend_room_keeps_its_rematch():
    user = create_guest()
    room = legacy_room(user, "local", "freestyle", size=13, win_length=4)
    url = _device_url(room, user)
    assert url == f"{DEVICE_PAGES['local']}?preset=freestyle&size=13&win_length=4"
    friend = rooms.create_room(user, "caro-vn")
    assert _device_url(friend, user) is None
