"""Real Chromium: a moderator, in the admin, bans a player during a game (the player's page shows
the ban at once) and hides a chat line (it disappears for a spectator), over Daphne, Redis and
PostgreSQL."""

import pytest

from accounts.guests import create_guest
from caro.rooms import services as rooms
from tests.e2e.helpers import _context, _login, _off_loop, _open
from tests.integration.moderation_helpers import moderator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]


def _setup():
    x, o, watcher = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(x)
    rooms.join(room, o)
    return room, x, o, watcher, moderator("desk")


def _admin_page(browser, live_server_url, mod):
    ctx = browser.new_context(locale="en-US")
    _login(ctx, live_server_url, mod)
    return ctx, ctx.new_page()


def test_a_moderator_bans_a_player_during_a_game_and_the_player_s_page_shows_it(browser, live_server_url):
    room, x, o, _watcher, mod = _off_loop(_setup)
    ctx_x, ctx_o = _context(browser, "en", 360), _context(browser, "en", 1280)
    ctx_m, admin = _admin_page(browser, live_server_url, mod)
    try:
        px = _open(ctx_x, live_server_url, x, room)
        po = _open(ctx_o, live_server_url, o, room)
        px.click('.sq[data-sq="H8"]')
        po.wait_for_selector('.sq[data-sq="H8"][data-stone="X"]')
        admin.goto(f"{live_server_url}/admin/accounts/user/{x.pk}/change/")
        admin.click("text=Ban")
        admin.fill("textarea[name=reason]", "Insults in chat")
        admin.check("input[name=forever]")
        admin.click('input[type=submit][value="Ban"]')
        admin.wait_for_selector("text=Done: Ban.")
        notice = px.locator('[data-testid="moderation-notice"]')
        notice.wait_for(state="visible", timeout=15_000)
        assert "banned permanently" in notice.inner_text() and "Insults in chat" in notice.inner_text()
        # The opponent's page stays connected.
        assert po.locator('.room[data-connected="1"]').count() == 1
    finally:
        for ctx in (ctx_x, ctx_o, ctx_m):
            ctx.close()


def test_a_chat_line_hidden_by_a_moderator_disappears_for_a_spectator(browser, live_server_url):
    room, x, _o, watcher, mod = _off_loop(_setup)
    ctx_x, ctx_w = _context(browser, "en", 1280), _context(browser, "vi", 360)
    ctx_m, admin = _admin_page(browser, live_server_url, mod)
    try:
        px = _open(ctx_x, live_server_url, x, room)
        pw = _open(ctx_w, live_server_url, watcher, room)
        px.fill('[data-testid="chat-input"]', "<b>buy</b> http://spam.example")
        px.press('[data-testid="chat-input"]', "Enter")
        pw.click('[data-tab="players"]')
        line = pw.locator('[data-testid="chat-players"] li', has_text="http://spam.example")
        line.wait_for(timeout=15_000)
        assert "<b>buy</b>" in line.inner_text()  # shown as text, never as markup or a link
        assert pw.locator('[data-testid="chat-players"] a').count() == 0
        admin.goto(f"{live_server_url}/admin/rooms/chatmessage/")
        admin.check("input[name=_selected_action]")
        admin.select_option("select[name=action]", "hide")
        admin.click("button[name=index]")
        admin.wait_for_selector("text=1 messages hidden.")
        line.wait_for(state="detached", timeout=15_000)
        assert pw.locator('[data-testid="chat-players"] li').count() == 0
    finally:
        for ctx in (ctx_x, ctx_w, ctx_m):
            ctx.close()


def test_a_moderator_stops_a_stuck_game_and_both_browsers_see_it_end(browser, live_server_url):
    room, x, o, _watcher, mod = _off_loop(_setup)
    ctx_x, ctx_o = _context(browser, "en", 1280), _context(browser, "vi", 360)
    ctx_m, admin = _admin_page(browser, live_server_url, mod)
    try:
        px = _open(ctx_x, live_server_url, x, room)
        po = _open(ctx_o, live_server_url, o, room)
        admin.goto(f"{live_server_url}/admin/games/game/{room.current_game_id}/abort/")
        admin.fill("textarea[name=reason]", "stuck")
        admin.click('input[type=submit]')
        admin.wait_for_selector(".messagelist")
        px.wait_for_function("document.querySelector('[data-role=status]').textContent.includes('moderator stopped')")
        po.wait_for_function("document.querySelector('[data-role=status]').textContent"
                             ".includes('Người điều hành đã dừng ván này')")
        assert po.locator('[data-role="play-again"]').count() == 1
    finally:
        for ctx in (ctx_x, ctx_o, ctx_m):
            ctx.close()


def test_a_spectator_without_a_name_gets_a_guest_name_and_chats(browser, live_server_url):
    """A spectator who came by link (no session) presses one button and can chat at once."""
    room, x, _o, _watcher, _mod = _off_loop(_setup)
    ctx_x, ctx_w = _context(browser, "en", 1280), _context(browser, "vi", 360)
    try:
        px = _open(ctx_x, live_server_url, x, room)
        pw = _open(ctx_w, live_server_url, None, room)
        assert pw.locator('[data-testid="chat-input"]').count() == 0
        pw.click('[data-testid="chat-signin"] button')
        pw.wait_for_selector('.room[data-connected="1"]')
        assert pw.url.endswith(f"/r/{room.code}/#chat")
        pw.fill('[data-testid="chat-input"]', "chào cả nhà")
        pw.press('[data-testid="chat-input"]', "Enter")
        px.click('[data-tab="spectators"]')
        px.locator('[data-testid="chat-spectators"] li', has_text="chào cả nhà").wait_for(timeout=15_000)
        pw.locator('[data-testid="chat-spectators"] li', has_text="chào cả nhà").wait_for(timeout=15_000)
    finally:
        for ctx in (ctx_x, ctx_w):
            ctx.close()
