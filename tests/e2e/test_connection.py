"""A dropped connection is visible (issue 26) and nobody is left behind (issue 27, the page's side):
real Chromium, Daphne, PostgreSQL and Redis, at phone and desktop size, in Vietnamese and English.

Two ways a connection dies: the network is cut (`context.set_offline(True)`: Chromium says so with
the `offline` event, but leaves the open websocket looking alive, holds the server's frames and
still delivers the page's), and a silent drop (nothing says so: here a websocket route that stops
passing frames both ways right after a pong, the worst moment for the heartbeat). Either way the
page says within 3 s that the connection is lost and that it is reconnecting, refuses moves
meanwhile (says so, sends nothing, loses nothing) and resyncs when it is back.
"""

from __future__ import annotations

import json
import time

import pytest

from caro.games.models import Game
from tests.e2e.helpers import HEIGHTS, _context, _login, _off_loop, _open
from tests.e2e.test_room_ui import _friend_room, _play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

# The phone in Vietnamese, the desktop in English: the banner's words in both languages and its
# place on both screens (the other two combinations repeated the same path).
BOTH = [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")]
LOST_WITHIN_MS = 3000
"""Issue 26: the page says the connection is lost within 3 s of it dropping."""

RECONNECTING = {"vi": "Đang kết nối lại", "en": "Reconnecting"}
NOT_SENT = {"vi": "chưa được gửi", "en": "was not sent"}
BACK = {"vi": "Đã kết nối lại", "en": "Connected again"}
YOUR_TURN = {"vi": "Đến lượt bạn", "en": "Your turn"}

# Page-side clocks for the test: when the page last received a socket frame, and when its root
# first said the connection is lost (performance.now() ms, the page's own clock).
WATCH = """
(() => {
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => { window.__lastFrameAt = performance.now(); });
    }
  };
  new MutationObserver(() => {
    const room = document.querySelector(".room");
    if (room && room.dataset.conn === "lost" && window.__lostAt == null) window.__lostAt = performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-conn"] });
})();
"""


def _ply(room):
    return _off_loop(lambda: Game.objects.get(pk=room.current_game_id).ply)


def _banner(page):
    return page.locator('[data-testid="conn-state"]')


def _stones(page):
    return page.eval_on_selector_all('.sq[data-stone="X"], .sq[data-stone="O"]', "els => els.length")


@pytest.mark.parametrize("lang, width", BOTH)
def test_a_cut_network_is_said_at_once_moves_wait_and_the_game_resyncs(browser, live_server_url, lang, width):
    room, x, o = _friend_room(["H8", "I9"])
    ctx = _context(browser, lang, width)
    try:
        ctx.add_init_script(WATCH)
        page = _open(ctx, live_server_url, x, room)
        page.wait_for_function("document.querySelector('.room').classList.contains('my-turn')")

        # Cut: said within 3 s, on the first screen, with "reconnecting".
        cut = time.monotonic()
        ctx.set_offline(True)
        page.wait_for_selector('.room[data-conn="lost"]', timeout=LOST_WITHIN_MS + 2000)
        said_after_s = time.monotonic() - cut
        assert said_after_s * 1000 <= LOST_WITHIN_MS, f"said after {said_after_s:.2f} s"
        banner = _banner(page)
        assert banner.is_visible() and RECONNECTING[lang] in banner.inner_text()
        box = banner.bounding_box()
        assert box["y"] + box["height"] <= HEIGHTS[width], "the banner is below the first screen"

        # A move meanwhile is refused: the page says so, shows no stone, and the server got nothing.
        page.click('.sq[data-sq="J10"]')
        page.wait_for_function(f"document.querySelector('[data-testid=conn-state]').textContent.includes({json.dumps(NOT_SENT[lang])})")
        assert page.get_attribute('.sq[data-sq="J10"]', "data-stone") == ""
        assert not page.locator('.sq[data-sq="J10"].ghost').count()
        time.sleep(0.5)  # a frame sent into the cut socket would reach the server (Chromium passes them)
        assert _ply(room) == 2, "a move was sent while the connection was lost"

        # Back: reconnected, said so, and the move goes through now.
        ctx.set_offline(False)
        page.wait_for_selector('.room[data-conn="live"]', timeout=15_000)
        assert BACK[lang] in banner.inner_text()
        page.click('.sq[data-sq="J10"]')
        page.wait_for_selector('.sq[data-sq="J10"][data-stone="X"]')
        assert _ply(room) == 3

        # Cut again while the opponent is to move; the opponent moves meanwhile; back: it appears.
        page.evaluate("window.__lostAt = null")
        ctx.set_offline(True)
        page.wait_for_selector('.room[data-conn="lost"]', timeout=LOST_WITHIN_MS + 2000)
        _play(room, ["K11"], x, o)
        time.sleep(0.5)
        assert page.get_attribute('.sq[data-sq="K11"]', "data-stone") == "", "a frame came through the cut"
        ctx.set_offline(False)
        page.wait_for_selector('.sq[data-sq="K11"][data-stone="O"]', timeout=15_000)
        page.wait_for_function(f"document.querySelector('[data-role=status]').textContent.includes({json.dumps(YOUR_TURN[lang])})")
        assert _stones(page) == 4
        assert page.get_attribute(".move-list .mv.last", "data-sq") == "K11"
    finally:
        ctx.close()


def _silent_route(page, state):
    """Route the room socket through the test: frames pass both ways until `state["cut"]` asks for
    a silent death of the first socket: "now" (nothing passes any more, either way) or "after-pong"
    (the next `pong` still reaches the page, then nothing: the worst moment for the heartbeat).
    Later sockets pass everything."""

    def handler(ws):
        server = ws.connect_to_server()
        first = not state.get("opened")
        state["opened"] = True
        mine = {"dead": False}

        def dead():
            if first and state.get("cut") == "now":
                mine["dead"] = True
            return mine["dead"]

        def to_page(message):
            if dead():
                return
            ws.send(message)
            if first and state.get("cut") == "after-pong" and '"pong"' in message:
                mine["dead"] = True

        def to_server(message):
            if not dead():
                server.send(message)

        server.on_message(to_page)
        ws.on_message(to_server)

    page.route_web_socket("**/ws/room/**", handler)


@pytest.mark.parametrize("lang, width", [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")])
def test_a_connection_that_dies_silently_is_noticed_by_the_heartbeat(browser, live_server_url, lang, width):
    room, x, o = _friend_room(["H8", "I9", "J10"])  # O to move: the page waits for the opponent
    ctx = _context(browser, lang, width)
    try:
        ctx.add_init_script(WATCH)
        page = ctx.new_page()
        _login(ctx, live_server_url, o)
        state = {}
        _silent_route(page, state)
        page.goto(f"{live_server_url}/r/{room.code}/")
        page.wait_for_selector('.room[data-connected="1"]')
        page.locator('[data-role="confirm-toggle"]').set_checked(False)
        state["cut"] = "after-pong"
        page.wait_for_selector('.room[data-conn="lost"]', timeout=15_000)
        silent_ms = page.evaluate("window.__lostAt - window.__lastFrameAt")
        print(f"silent drop said {silent_ms:.0f} ms after the last frame")
        assert 0 < silent_ms <= LOST_WITHIN_MS, f"noticed {silent_ms:.0f} ms after the last frame"
        assert RECONNECTING[lang] in _banner(page).inner_text()
        # The dead socket is dropped and a new one opened; the game is back in step.
        _play(room, ["K11"], x, o)  # O's move from another tab of O while this one is lost
        page.wait_for_selector('.room[data-conn="live"]', timeout=20_000)
        page.wait_for_selector('.sq[data-sq="K11"][data-stone="O"]', timeout=15_000)
        assert _ply(room) == 4
    finally:
        ctx.close()


def test_a_move_sent_into_a_connection_that_just_died_is_not_lost(browser, live_server_url):
    """The page sent its move before it could know the connection was dead: after the reconnection
    the game does not hold it, so the page sends it again with the same id, and it is played once."""
    room, x, o = _friend_room(["H8", "I9"])  # X to move
    ctx = _context(browser, "en", 1280)
    try:
        _login(ctx, live_server_url, x)
        page = ctx.new_page()
        state = {}
        _silent_route(page, state)
        page.goto(f"{live_server_url}/r/{room.code}/")
        page.wait_for_selector('.room[data-connected="1"]')
        page.locator('[data-role="confirm-toggle"]').set_checked(False)
        page.wait_for_function("document.querySelector('.room').classList.contains('my-turn')")
        state["cut"] = "now"  # from now on nothing passes on this socket, either way
        page.click('.sq[data-sq="J10"]')
        page.wait_for_selector('.sq[data-sq="J10"].ghost')  # sent, not confirmed
        page.wait_for_selector('.room[data-conn="lost"]', timeout=5000)
        assert _ply(room) == 2  # the move never reached the server
        page.wait_for_selector('.sq[data-sq="J10"][data-stone="X"]', timeout=20_000)
        page.wait_for_selector('.room[data-conn="live"]')
        assert _ply(room) == 3
        assert _off_loop(lambda: Game.objects.get(pk=room.current_game_id).moves.filter(square="J10").count()) == 1
    finally:
        ctx.close()
