"""Pages answer only the methods they serve (attacker run: PUT, DELETE and PROPFIND with a CSRF
token got 200 on every read-only page): 405 with an Allow header; POST only where a page has a
form (the record import)."""

import pytest
from django.test import Client

from accounts.guests import create_guest
from accounts.models import User
from caro.games.services.records import store_imported
from caro.rooms import services as rooms

pytestmark = pytest.mark.django_db

READ_ONLY = ["/", "/healthz", "/favicon.ico", "/match/", "/sanh/", "/xem/", "/song/so-nguoi/", "/bang-xep-hang/",
             "/huong-dan/", "/guides/", "/van/cua-toi/", "/choi-may/", "/choi-hai-nguoi/", "/rooms/join?code=ABC",
             "/jsi18n/"]


def _client() -> Client:
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    return client


def _pages() -> list[str]:
    """Every read-only page, with a game, a room and a player to show."""
    from caro.engine.caro import Rules

    game = store_imported("caro", Rules().to_dict(), ["H8", "I9"], [0, 0], fmt="plain")
    room = rooms.create_room(create_guest())
    player = User.objects.create_user("MethodsPlayer", password="a-long-password-42")
    return READ_ONLY + [f"/van/{game.pk}/", f"/en/game/{game.pk}/", f"/van/{game.pk}/anh.svg",
                        f"/van/{game.pk}/tai/psq", f"/r/{room.code}/", f"/nguoi-choi/{player.username}/",
                        "/huong-dan/luat-choi/"]


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PROPFIND", "PATCH", "POST"])
def test_read_only_pages_refuse_other_methods(method):
    client = _client()
    token = client.cookies["csrftoken"].value
    for path in _pages():
        assert client.get(path).status_code in (200, 302, 404), path
        response = client.generic(method, path, HTTP_X_CSRFTOKEN=token)
        assert response.status_code == 405, (path, response.status_code)
        assert "GET" in response["Allow"] and method not in response["Allow"], path


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PROPFIND"])
def test_the_import_page_keeps_get_and_post_only(method):
    client = _client()
    token = client.cookies["csrftoken"].value
    for path in ("/van/nhap/", "/en/game/import/"):
        assert client.get(path).status_code == 200
        response = client.generic(method, path, HTTP_X_CSRFTOKEN=token)
        assert response.status_code == 405 and "POST" in response["Allow"], path
        posted = client.post(path, {"text": "H8", "rules": "caro-vn", "size": "15"}, HTTP_X_CSRFTOKEN=token)
        assert posted.status_code == 302, path
