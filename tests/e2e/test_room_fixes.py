"""Real Chromium: room fixes from the new-user trial of 2026-12-06 that only a page shows. A player
who writes in the chat while the "Spectators" tab is open sees their line: sending shows the tab of
the channel the line went to (the players', for a player; the spectators', for a spectator).

Every wait is for a page state, never for a fixed time.
"""

from __future__ import annotations

import pytest

from accounts.guests import create_guest
from caro.rooms import services as rooms
from tests.e2e.helpers import _context, _off_loop, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]


def _room_with_watcher():
    x, o, watcher = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(x, "caro-vn", move_time_ms=600_000)
    rooms.join(room, o)
    return room, x, watcher


@pytest.mark.parametrize("lang,width", [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")])
def test_a_chat_line_shows_in_the_tab_of_the_channel_it_went_to(browser, live_server_url, lang, width):
    room, x, watcher = _off_loop(_room_with_watcher)
    ctx_x, ctx_w = _context(browser, lang, width), _context(browser, lang, width)
    try:
        px = _open(ctx_x, live_server_url, x, room)
        pw = _open(ctx_w, live_server_url, watcher, room)
        for page, own, other, text in ((px, "players", "spectators", "xin chào"),
                                       (pw, "spectators", "players", "hay quá")):
            page.click(f'[data-tab="{other}"]')  # reading the other channel
            page.locator(f'[data-testid="chat-{other}"]').wait_for(state="visible")
            page.fill('[data-testid="chat-input"]', text)
            page.press('[data-testid="chat-input"]', "Enter")
            line = page.locator(f'[data-testid="chat-{own}"] li', has_text=text)
            line.wait_for(state="visible", timeout=15_000)  # its own tab is shown, with the line
            assert page.locator(f'[data-tab="{own}"]').get_attribute("aria-selected") == "true"
            assert page.locator(f'[data-testid="chat-{other}"]').is_hidden()
    finally:
        for ctx in (ctx_x, ctx_w):
            ctx.close()
