"""The on-device pages, "Play the computer" (/choi-may/) and "Two players on one device"
(/choi-hai-nguoi/) (issue 26, CONTRACTS.md section 3): the page is the same for every game (its
script reads the game from the address), loads the translation catalogue before its module, holds
every rule choice's rules and rules line, and makes nothing on the server."""

import json
import re

import pytest
from django.urls import reverse

from caro.engine.caro import PRESETS
from caro.games.models import Game
from caro.rooms.models import Room

GAME = re.compile(r'<div class="room device".*<script id="device-choices" type="application/json">.*?</script>', re.S)


def test_the_pages_have_the_names_and_paths_the_offline_cache_uses():
    assert reverse("play_computer") == "/choi-may/"
    assert reverse("play_local") == "/choi-hai-nguoi/"


def _choices(html: str) -> dict:
    return json.loads(re.search(r'<script id="device-choices" type="application/json">(.*?)</script>', html, re.S).group(1))


@pytest.mark.django_db
@pytest.mark.parametrize("name, mode", [("play_computer", "computer"), ("play_local", "local")])
def test_one_page_serves_every_game_and_makes_nothing_on_the_server(client, name, mode):
    url = reverse(name)
    first = client.get(url + "?preset=reversi&level=hard&side=O").content.decode()
    second = client.get(url + "?preset=caro-vn&size=19&win_length=6&moves=H8,I9").content.decode()
    # (the site's header, shared by every page, keeps the address for its language switch)
    assert GAME.search(first).group(0) == GAME.search(second).group(0), "the game's part depends on the query"
    assert f'data-mode="{mode}"' in first
    catalogue, module = first.index('src="/jsi18n/"'), re.search(r"js/play/device[.\w]*\.js", first).start()
    assert catalogue < module, "gettext must exist before the module runs"
    assert ('data-role="level"' in first) == (mode == "computer")
    assert not Room.objects.exists() and not Game.objects.exists()


@pytest.mark.django_db
def test_the_page_holds_every_rule_choice_with_its_line(client):
    data = _choices(client.get(reverse("play_computer")).content.decode())
    assert data["default"] == "caro-vn"
    assert set(data["presets"]) == set(PRESETS) | {"reversi"}
    choices = data["choices"]
    assert choices["caro-vn|19|6"]["rules"] == {"size": 19, "win_length": 6, "exact": False, "blocked": "opponent_or_edge", "renju": False}
    assert [k for k in choices if k.startswith("renju-rif|")] == ["renju-rif|15|5"]  # Renju: 15×15, five
    assert choices["renju-rif|15|5"]["opening"] == "rif" and choices["swap2|15|5"]["opening"] == "swap2"
    assert choices["reversi"] == {"rules": {}, "opening": "", "line": choices["reversi"]["line"], "plain": choices["reversi"]["plain"]}
    assert "không tính giờ" in choices["caro-vn|15|5"]["line"]  # no clock on the device (Vietnamese first)
    assert "RIF" in choices["renju-rif|15|5"]["line"] and "RIF" not in choices["renju-rif|15|5"]["plain"]


@pytest.mark.django_db
def test_the_lines_follow_the_language(client):
    client.cookies["django_language"] = "en"
    data = _choices(client.get(reverse("play_local")).content.decode())
    assert "no clock" in data["choices"]["caro-vn|15|5"]["line"]
