"""Real Chromium: room fixes from the new-user trial of 2026-12-06, as the pages show them. A player
who writes in the chat while the "Spectators" tab is open sees their line: sending shows the tab of
the channel the line went to (the players', for a player; the spectators', for a spectator). After
a game, a spectator sees no rematch line unless a player asked; after a player left the table, the
one who stayed is offered no rematch, is told the opponent left, and the seat says who left.

Every wait is for a page state, never for a fixed time.
"""

from __future__ import annotations

import uuid

import pytest

from accounts.guests import create_guest
from caro.games import services as games
from caro.games.models import Game
from caro.rooms import services as rooms
from tests.e2e.helpers import _context, _off_loop, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]


def _room_with_watcher():
    x, o, watcher = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(x, "caro-vn", move_time_ms=600_000)
    rooms.join(room, o)
    return room, x, watcher


def _room_in_play():
    """A friend room of two guests and a spectator, both players having moved: (room, by side, watcher)."""
    room, _x, watcher = _room_with_watcher()
    game = Game.objects.get(pk=room.current_game_id)
    players = {"X": game.x_player, "O": game.o_player}
    for ply, square in enumerate(["H8", "H9", "I8"], start=1):
        games.play_move(game.pk, players["XO"[(ply - 1) % 2]], square, ply, uuid.uuid4())
    return room, players, watcher


NO_REMATCH = {"vi": "Đối thủ đã rời bàn", "en": "Your opponent left the table"}
LEFT_MARK = {"vi": "(đã rời bàn)", "en": "(left the table)"}


@pytest.mark.parametrize("lang,width", [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")])
def test_after_a_game_a_spectator_sees_only_a_rematch_a_player_asked_for(browser, live_server_url, lang, width):
    room, players, watcher = _off_loop(_room_in_play)
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, watcher, room)
        _off_loop(games.resign, room.current_game_id, players["O"])
        page.wait_for_selector('[data-role="status"][data-result="finished"]')
        assert page.locator('[data-role="rematch-note"]').inner_text() == ""
        assert page.locator('[data-role="play-again"]').is_hidden()
        _off_loop(games.create_rematch, room.current_game_id, players["X"])
        note = page.locator('[data-role="rematch-note"]')
        page.wait_for_function("el => el.textContent.length > 0", arg=note.element_handle())
        name = page.locator('[data-role="name-X"]').inner_text()
        assert name in note.inner_text() and page.locator('[data-role="play-again"]').is_hidden()
    finally:
        ctx.close()


@pytest.mark.parametrize("lang,width", [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")])
def test_no_rematch_is_offered_after_the_opponent_left_the_table(browser, live_server_url, lang, width):
    room, players, _watcher = _off_loop(_room_in_play)
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, players["X"], room)
        _off_loop(games.leave, room.current_game_id, players["O"])
        page.wait_for_selector('[data-role="status"][data-result="finished"]')
        note = page.locator('[data-role="rematch-note"]')
        page.wait_for_function("el => el.textContent.length > 0", arg=note.element_handle())
        assert NO_REMATCH[lang] in note.inner_text()
        assert page.locator('[data-role="play-again"]').is_hidden()
        assert LEFT_MARK[lang] in page.locator('[data-role="name-O"]').inner_text()
        page.reload()  # the state sent on connect says the same
        page.wait_for_selector('.room[data-connected="1"]')
        page.wait_for_function("el => el.textContent.length > 0", arg=page.locator('[data-role="rematch-note"]').element_handle())
        assert page.locator('[data-role="play-again"]').is_hidden()
        assert LEFT_MARK[lang] in page.locator('[data-role="name-O"]').inner_text()
    finally:
        ctx.close()


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
