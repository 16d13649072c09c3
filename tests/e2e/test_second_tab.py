"""Real Chromium: a visitor with two tabs on one room. A tab opened before the visitor took the free
seat in the other tab becomes the player's view too, without the visitor reloading it: when the
seat gave a visitor without a name their guest name (a new session), the page learns it from the
other tab (BroadcastChannel) and reloads; when the visitor already had a name, the server sends
every socket of theirs its new seat (tests/integration/test_room_consumer.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import uuid

from accounts.guests import create_guest
from caro.games import services as games
from caro.games.models import Game
from caro.rooms import services as rooms
from tests.e2e.helpers import _context, _login, _off_loop, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
YOU = {"vi": "(bạn)", "en": "(you)"}
#: The side this page plays, read from its players' boxes ("" while it only watches).
MY_SIDE = """you => [...document.querySelectorAll('.player')].filter(p => p.querySelector('.name')
  .textContent.endsWith(you)).map(p => p.dataset.side).join('')"""


def _my_side(page, lang):
    return page.evaluate(MY_SIDE, YOU[lang])


def _waiting_room():
    """A friend room waiting for its second player, and its host."""
    def make():
        host = create_guest()
        return rooms.create_room(host), host
    return _off_loop(make)


def _host_moves_first_if_it_is_their_turn(room, host, side):
    """If the host's side is to move (the first mover was thrown), the host plays H8."""
    def run():
        game = Game.objects.get(pk=room.current_game_id)
        if game.turn != side:
            games.play_move(game.pk, host, "H8", 1, uuid.uuid4())
    _off_loop(run)


def _becomes_player(page, lang, timeout=20_000):
    page.wait_for_function(f"[...document.querySelectorAll('.player .name')].some(n => n.textContent.endsWith({YOU[lang]!r}))",
                           timeout=timeout)
    page.wait_for_selector('[data-role="resign"]:not([hidden])', timeout=timeout)
    assert page.locator('[data-testid="take-seat"]:visible').count() == 0


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 1280)])
def test_a_tab_opened_before_a_nameless_visitor_took_the_seat_becomes_the_player(
        browser, live_server_url, lang, width):
    room, host = _waiting_room()
    context = _context(browser, lang, width)
    try:
        early = _open(context, live_server_url, None, room)  # no name yet: the socket is nobody's
        seat_tab = _open(context, live_server_url, None, room)
        assert _my_side(early, lang) == "" and early.locator('[data-testid="take-seat"]').is_visible()
        seat_tab.click('[data-testid="take-seat"]')
        seat_tab.wait_for_selector('[data-testid="take-seat"]', state="detached")  # the seated page came back
        seat_tab.wait_for_selector('.room[data-connected="1"]')
        _becomes_player(seat_tab, lang)
        side = _my_side(seat_tab, lang)
        assert side in ("X", "O")
        # The early tab shows the same player's view, with the guest name in its header.
        _becomes_player(early, lang)
        early.wait_for_selector('.room[data-connected="1"]')
        assert _my_side(early, lang) == side
        name = seat_tab.inner_text('[data-testid="guest-name"]')
        assert early.inner_text('[data-testid="guest-name"]') == name
        # Its socket is the player's: on this side's turn, a move made in the early tab is played.
        _host_moves_first_if_it_is_their_turn(room, host, side)
        early.wait_for_selector(".room.my-turn")
        early.click('.sq[data-sq="G7"]')
        seat_tab.wait_for_selector(f'.sq[data-sq="G7"][data-stone="{side}"]')
        assert early.inner_text('[data-role="conn"]') == ""  # no refusal
        SHOTS.mkdir(parents=True, exist_ok=True)
        early.screenshot(path=str(SHOTS / f"second-tab-player-{lang}-{width}.png"), full_page=False)
    finally:
        context.close()


def test_a_tab_of_a_named_visitor_becomes_the_player_without_a_reload(browser, live_server_url):
    room, _host = _waiting_room()
    visitor = _off_loop(create_guest)
    context = _context(browser, "vi", 360)
    try:
        _login(context, live_server_url, visitor)
        early = _open(context, live_server_url, None, room)
        early.evaluate("window.__sameDocument = 1")
        seat_tab = _open(context, live_server_url, None, room)
        seat_tab.click('[data-testid="take-seat"]')
        _becomes_player(seat_tab, "vi")
        _becomes_player(early, "vi")
        assert early.evaluate("window.__sameDocument") == 1  # told by its socket, not reloaded
        assert _my_side(early, "vi") == _my_side(seat_tab, "vi")
    finally:
        context.close()
