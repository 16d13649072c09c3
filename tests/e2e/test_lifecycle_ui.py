"""Real Chromium, two players over Daphne, Redis and PostgreSQL: a closed page and the absence
countdown, the opponent's choices when the grace runs out, rock-paper-scissors, total-time clocks,
draw offers (issue 9).

Positions are prepared through the game services; the grace period's end is brought forward in the
database and enforced through the same service the Celery task calls, so nothing waits a minute.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.guests import create_guest
from caro.games import services as games
from caro.games.models import Game
from caro.games.services import presence
from caro.rooms import services as rooms
from tests.e2e.helpers import _context, _off_loop, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]
MOVE_MS = 180_000  # the per-move clock of the closed-page test


def _room(squares=(), **options):
    def make():
        host, guest = create_guest(), create_guest()
        room = rooms.create_room(host, **options)
        rooms.join(room, guest)
        game = Game.objects.get(pk=room.current_game_id)
        x, o = game.x_player, game.o_player
        for ply, square in enumerate(squares, start=1):
            games.play_move(game.pk, x if ply % 2 else o, square, ply, __import__("uuid").uuid4())
        return room, x, o

    return _off_loop(make)


def _text(page, role):
    return page.locator(f'[data-role="{role}"]').inner_text()


def _clock_seconds(page, side):
    text = page.locator(f'[data-testid="clock-{side}"]').inner_text().strip()
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def _opponent_goes(ctx_x, ctx_o, live_server_url, room, x, o):
    """Both players open the room, then O's page closes: X's page and its countdown, shown."""
    page_x = _open(ctx_x, live_server_url, x, room)
    _open(ctx_o, live_server_url, o, room).close()
    countdown = page_x.locator('[data-testid="absence"]')
    countdown.wait_for(state="visible", timeout=30_000)
    return page_x, countdown


def test_a_closed_page_shows_the_countdown_and_coming_back_goes_on_with_the_right_clock(browser, live_server_url):
    # O to move, 3 minutes per move: a loaded machine may take a minute over the steps below, and
    # O's clock must not run out meanwhile
    room, x, o = _room(["H8", "H9", "I8"], move_time_ms=MOVE_MS)
    ctx_x, ctx_o = _context(browser, "vi", 1280), _context(browser, "vi", 360)
    try:
        page_x, countdown = _opponent_goes(ctx_x, ctx_o, live_server_url, room, x, o)
        assert re.search(r"mất kết nối — còn (1:00|0:[0-5]\d) để quay lại", countdown.inner_text())
        page_o = _open(ctx_o, live_server_url, o, room)
        countdown.wait_for(state="hidden", timeout=30_000)
        assert page_o.locator('[data-testid="absence"]').is_hidden()
        left = _clock_seconds(page_o, "O")  # O's move clock kept running while away
        assert 0 < left <= MOVE_MS // 1000
        page_o.click('.sq[data-sq="I9"]')
        page_x.wait_for_selector('.sq[data-sq="I9"][data-stone="O"]', timeout=30_000)
        # X's fresh 3 minutes are ticking (at least 2:00 left: a loaded machine may take a while to show it).
        page_x.wait_for_function("(t => { const [m, s] = t.split(':').map(Number); return m * 60 + s >= 120"
                                 " && m * 60 + s <= 180; })(document.querySelector('[data-testid=clock-X]').textContent)",
                                 timeout=30_000)
    finally:
        ctx_x.close()
        ctx_o.close()


def test_a_player_coming_back_never_reads_their_own_absence(browser, live_server_url):
    # The page is made while the player is still away (its state says so) and its socket is held
    # shut: what the page shows then is all it has.
    room, x, o = _room(["H8", "H9", "I8"], move_time_ms=MOVE_MS)
    ctx_x, ctx_o = _context(browser, "vi", 1280), _context(browser, "vi", 360)
    try:
        page_x, _countdown = _opponent_goes(ctx_x, ctx_o, live_server_url, room, x, o)
        ctx_o.add_init_script("window.WebSocket = class extends EventTarget { send() {} close() {} };")
        page_o = ctx_o.new_page()
        page_o.goto(f"{live_server_url}/r/{room.code}/")
        page_o.wait_for_selector('.board .sq[data-sq="I8"][data-stone="X"]')
        assert page_o.locator('[data-testid="absence"]').is_hidden()
        assert page_x.locator('[data-testid="absence"]').is_visible()  # still away for the server
    finally:
        ctx_x.close()
        ctx_o.close()


def test_the_player_to_move_is_told_their_clock_runs_while_the_opponent_is_away(browser, live_server_url):
    # X to move when O goes: waiting out O's grace would lose X the game on time.
    room, x, o = _room(["H8", "H9"], move_time_ms=MOVE_MS)
    ctx_x, ctx_o = _context(browser, "vi", 360), _context(browser, "en", 1280)
    try:
        page_x, countdown = _opponent_goes(ctx_x, ctx_o, live_server_url, room, x, o)
        assert "Đồng hồ của bạn vẫn chạy: hãy đi nước của mình." in countdown.inner_text()
        page_x.click('.sq[data-sq="I8"]')
        page_x.wait_for_function("!document.querySelector('[data-testid=absence]').textContent.includes('Đồng hồ')",
                                 timeout=30_000)
        assert "mất kết nối" in countdown.inner_text()  # O's grace still counts down, O to move now
    finally:
        ctx_x.close()
        ctx_o.close()


def test_when_the_grace_runs_out_the_friend_chooses_and_claiming_the_win_ends_the_game_for_both(
    browser, live_server_url
):
    room, x, o = _room(["H8", "H9", "I8"])
    ctx_x, ctx_o = _context(browser, "en", 360), _context(browser, "en", 1280)
    try:
        page_x, _countdown = _opponent_goes(ctx_x, ctx_o, live_server_url, room, x, o)

        def grace_runs_out():
            Game.objects.filter(pk=room.current_game_id).update(absence_deadline=timezone.now() - timedelta(seconds=1))
            return presence.enforce_absence(room.current_game_id)

        assert _off_loop(grace_runs_out)
        for choice in ("wait", "claim_win", "claim_draw"):
            page_x.locator(f'[data-testid="choice-{choice}"]').wait_for(timeout=15_000)
        # said with the choices, in the box of things to answer (a bar at the bottom of a phone's screen)
        assert "did not come back in time" in page_x.locator('[data-testid="incoming-offer"]').inner_text()
        page_x.on("dialog", lambda dialog: dialog.accept())
        page_x.click('[data-testid="choice-claim_win"]')
        page_x.wait_for_function("document.querySelector('[data-role=status]').textContent.includes('did not come back')")
        assert "You won" in _text(page_x, "status")
        page_o = _open(ctx_o, live_server_url, o, room)
        assert "You lost: you did not come back in time." in _text(page_o, "status")
    finally:
        ctx_x.close()
        ctx_o.close()


def test_rock_paper_scissors_shows_both_throws(browser, live_server_url):
    ctx_h, ctx_g = _context(browser, "vi", 1280), _context(browser, "vi", 360)
    try:
        host = ctx_h.new_page()
        host.goto(live_server_url + "/")
        host.click(".room-options summary")
        host.select_option('select[name="first"]', "rps")
        host.click('[data-testid="create-room"]')
        host.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"))
        guest = ctx_g.new_page()
        guest.goto(host.input_value('[data-testid="share-link"]'))
        guest.click('[data-testid="take-seat"]')
        for page in (host, guest):
            throws = page.locator('[data-role="throws"]')
            throws.wait_for(state="visible", timeout=15_000)
            text = throws.inner_text()
            assert text.startswith("Oẳn tù tì:") and "đi trước" in text
            assert len(re.findall(r"búa|bao|kéo", text)) >= 2  # both throws of every round
    finally:
        ctx_h.close()
        ctx_g.close()


def test_a_total_time_game_shows_both_banks_and_the_player_to_move_ticks(browser, live_server_url):
    room, x, o = _room(move_time_ms=0, bank_ms=180_000, increment_ms=2_000)
    ctx_x, ctx_o = _context(browser, "en", 1280), _context(browser, "en", 1280)
    try:
        page_x = _open(ctx_x, live_server_url, x, room)
        page_o = _open(ctx_o, live_server_url, o, room)
        assert "3 min + 2 s" in _text(page_x, "status").replace("\n", " ") or "3 min + 2 s" in page_x.inner_text(".rules-line")
        assert _clock_seconds(page_x, "O") == 180  # both banks are shown
        start = _clock_seconds(page_x, "X")
        page_x.wait_for_function(f"document.querySelector('[data-testid=clock-X]').textContent !== "
                                 f"'{start // 60}:{start % 60:02d}'", timeout=10_000)
        page_x.click('.sq[data-sq="H8"]')
        page_o.wait_for_selector('.sq[data-sq="H8"][data-stone="X"]', timeout=15_000)
        x_bank = _clock_seconds(page_o, "X")
        assert 150 <= x_bank <= 182  # 3 minutes, minus the thinking (slow on a loaded machine), plus 2 s
        o_start = _clock_seconds(page_o, "O")
        page_o.wait_for_function(f"document.querySelector('[data-testid=clock-O]').textContent !== "
                                 f"'{o_start // 60}:{o_start % 60:02d}'", timeout=10_000)
        assert _clock_seconds(page_o, "X") == x_bank  # the other bank stands still
    finally:
        ctx_x.close()
        ctx_o.close()


def test_a_draw_offer_and_its_acceptance_between_two_browsers(browser, live_server_url):
    room, x, o = _room(["H8", "H9"])
    ctx_x, ctx_o = _context(browser, "vi", 360), _context(browser, "en", 1280)
    try:
        page_x = _open(ctx_x, live_server_url, x, room)
        page_o = _open(ctx_o, live_server_url, o, room)
        page_x.click('[data-testid="choice-offer_draw"]')
        page_o.locator('[data-testid="choice-accept_draw"]').wait_for(timeout=15_000)
        assert "offers a draw" in _text(page_o, "incoming-note")  # in the bar with its answers
        page_o.click('[data-testid="choice-accept_draw"]')
        page_x.wait_for_function("document.querySelector('[data-role=status]').textContent.includes('Hòa theo thỏa thuận')")
        assert page_x.locator('[data-testid^="choice-"]').count() == 0
    finally:
        ctx_x.close()
        ctx_o.close()


def test_a_declined_draw_offers_note_is_gone_in_the_next_game(browser, live_server_url):
    room, x, o = _room(["H8", "H9"])
    ctx_x, ctx_o = _context(browser, "en", 360), _context(browser, "en", 1280)
    try:
        page_x = _open(ctx_x, live_server_url, x, room)
        page_o = _open(ctx_o, live_server_url, o, room)
        page_x.click('[data-testid="choice-offer_draw"]')
        page_o.locator('[data-testid="choice-decline_draw"]').wait_for(timeout=30_000)
        page_o.click('[data-testid="choice-decline_draw"]')
        page_x.wait_for_function("document.querySelector('[data-role=note]').textContent.includes('declined')",
                                 timeout=30_000)
        first = room.current_game_id
        _off_loop(lambda: games.resign(first, o))
        for page in (page_x, page_o):
            page.locator('[data-role="play-again"]').wait_for(state="visible", timeout=30_000)
            page.click('[data-role="play-again"]')
        # the next game's state: an empty board
        page_x.wait_for_function("document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length === 0", timeout=30_000)
        assert page_x.locator('[data-role="note"]').inner_text().strip() == ""
    finally:
        ctx_x.close()
        ctx_o.close()


def test_sounds_play_on_a_move_and_the_mute_switch_is_remembered(browser, live_server_url):
    room, x, o = _room(["H8"])
    ctx_x, ctx_o = _context(browser, "en", 1280), _context(browser, "en", 1280)
    try:
        page_x = _open(ctx_x, live_server_url, x, room)
        page_o = _open(ctx_o, live_server_url, o, room)
        page_x.click('[data-role="moves"]')  # any gesture lets the page make sounds
        page_o.click('.sq[data-sq="H9"]')
        page_x.wait_for_function("document.querySelector('.room').dataset.lastSound === '780'")  # your turn
        page_x.uncheck('[data-role="sound-toggle"]')
        page_x.reload()
        page_x.wait_for_selector('.room[data-connected="1"]')
        assert not page_x.is_checked('[data-role="sound-toggle"]')
        page_x.click('[data-role="moves"]')
        page_x.locator('[data-role="confirm-toggle"]').set_checked(False)
        page_x.click('.sq[data-sq="I8"]')
        page_o.wait_for_selector('.sq[data-sq="I8"][data-stone="X"]')
        page_x.wait_for_selector('.sq[data-sq="I8"][data-stone="X"]')
        assert page_x.evaluate("document.querySelector('.room').dataset.lastSound") is None
    finally:
        ctx_x.close()
        ctx_o.close()


def test_leaving_the_table_takes_the_player_home_and_tells_the_opponent(browser, live_server_url):
    room, x, o = _room(["H8", "H9", "I8"])
    ctx_x, ctx_o = _context(browser, "en", 1280), _context(browser, "vi", 360)
    try:
        page_x = _open(ctx_x, live_server_url, x, room)
        page_o = _open(ctx_o, live_server_url, o, room)
        page_o.on("dialog", lambda dialog: dialog.accept())
        page_o.click('[data-testid="choice-leave"]')
        page_o.wait_for_url(re.compile(r"/$"), timeout=15_000)
        # home says what leaving did (the page waited for the game's end to come back first)
        assert "Bạn đã rời bàn và thua ván này." in page_o.inner_text(".messages")
        page_x.wait_for_function("document.querySelector('[data-role=status]').textContent.includes('left the table')")
        assert "You won: your opponent left the table." in _text(page_x, "status")
        page_o.reload()  # told once
        assert page_o.locator(".messages").count() == 0 or "rời bàn" not in page_o.inner_text(".messages")
    finally:
        ctx_x.close()
        ctx_o.close()
