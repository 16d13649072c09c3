"""Real Chromium: quick match between guests over Daphne, Redis and PostgreSQL."""

import re
import time
from pathlib import Path

import pytest

from caro.games.models import Game
from ranking.seeks import Seek
from tests.e2e.helpers import _off_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"


def _seek_from_home(page, live_server_url, wait=True):
    page.goto(live_server_url + "/")
    assert "Tìm ván nhanh" in page.inner_text('[data-testid="quick-match"]')
    assert "Đổi" in page.inner_text('[data-testid="quick-change"]')
    page.click('[data-testid="quick-match"]')
    if wait:  # (the second player is paired at once and may already be on the way to the game)
        page.wait_for_selector('[data-testid="seeking"]:not([hidden])')


def test_two_guests_with_the_same_rules_meet_and_a_third_with_other_rules_does_not(browser, live_server_url):
    contexts = [browser.new_context(locale="vi-VN", viewport={"width": 360, "height": 740}) for _ in range(3)]
    try:
        a, b, c = (ctx.new_page() for ctx in contexts)
        # c picks other rules (exact five) on the matchmaking page and waits.
        c.goto(live_server_url + "/match/")
        c.click('[data-testid="quick-change"]')
        c.check('input[name="exact"]')
        c.click('[data-testid="choice-apply"]')
        assert "đúng năm" in c.inner_text('[data-testid="quick-rules"]').lower()
        c.click('[data-testid="quick-match"]')
        c.wait_for_selector('[data-testid="seeking"]:not([hidden])')
        # a and b take the default rules from the home page.
        _seek_from_home(a, live_server_url)
        _seek_from_home(b, live_server_url, wait=False)
        a.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"), timeout=15_000)
        b.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"), timeout=15_000)
        assert a.url == b.url
        a.wait_for_selector('.room[data-connected="1"]')
        b.wait_for_selector('.room[data-connected="1"]')
        # c is still waiting, on its own page, with no game.
        assert "/match/" in c.url
        assert c.is_visible('[data-testid="seeking"]')
        c.click('[data-testid="cancel-seek"]')
        c.wait_for_selector('[data-testid="seeking"]', state="hidden")
        games = _off_loop(lambda: list(Game.objects.values_list("host_id", "guest_id", "rules")))
        assert len(games) == 1 and games[0][2]["exact"] is False
    finally:
        for ctx in contexts:
            ctx.close()


def test_two_accounts_play_a_ranked_game_to_the_end(browser, live_server_url):
    from accounts.models import User
    from tests.e2e.helpers import _login

    players = _off_loop(lambda: [User.objects.create(username=f"ranked-{i}", display_name=f"Ranked {i}") for i in (1, 2)])
    contexts = [browser.new_context(locale="vi-VN") for _ in players]
    try:
        pages = []
        for ctx, user in zip(contexts, players):
            _login(ctx, live_server_url, user)
            page = ctx.new_page()
            page.goto(live_server_url + "/match/?mode=ranked")
            assert page.locator('[data-testid="ranked-refusal"]').count() == 0
            page.click('[data-testid="ranked-caro"]')
            pages.append(page)
        for page in pages:
            page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"), timeout=15_000)
            page.wait_for_selector('.room[data-connected="1"]')
            page.locator('[data-role="confirm-toggle"]').set_checked(False)
        game = _off_loop(lambda: Game.objects.select_related("host", "guest").get())
        assert game.rated and game.absence_rule == "forfeit"
        x_page = pages[0] if game.x_player == players[0] else pages[1]
        o_page = pages[1] if x_page is pages[0] else pages[0]
        for i, square in enumerate(["H8", "I8", "J8", "K8", "L8"]):
            x_page.click(f'.sq[data-sq="{square}"]')
            o_page.wait_for_selector(f'.sq[data-sq="{square}"][data-stone="X"]')
            if i < 4:
                reply = ["H9", "I9", "J9", "K9"][i]
                o_page.click(f'.sq[data-sq="{reply}"]')
                x_page.wait_for_selector(f'.sq[data-sq="{reply}"][data-stone="O"]')
        for page in pages:
            page.wait_for_selector('[data-role="status"][data-result="finished"]')
        assert "Bạn thắng" in x_page.inner_text('[data-role="status"]')
        game = _off_loop(lambda: Game.objects.get())
        assert game.status == Game.Status.FINISHED and game.rated and game.winner == "X"
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_guest_is_refused_ranked_with_a_sign_up_link(browser, live_server_url):
    ctx = browser.new_context(locale="vi-VN", viewport={"width": 360, "height": 740})
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/match/?mode=ranked")
        assert "tài khoản" in page.inner_text('[data-testid="ranked-refusal"]')
        assert page.locator('[data-testid="signup-link"]').count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # usable at 360 px
    finally:
        ctx.close()


def _quick_game_of_two_guests():
    """Two guests paired by quick match (as their seek sockets would be): (first guest, room code)."""
    from accounts.guests import create_guest
    from ranking import pairing

    a, b = create_guest(), create_guest()
    pairing.arrive(a, "quick", "caro-15-blocked")
    _seek, made = pairing.arrive(b, "quick", "caro-15-blocked")
    return a, made.room_code


@pytest.mark.parametrize("lang, width, words", [("vi", 360, "Ván của bạn vẫn đang diễn ra"),
                                                ("en", 1280, "Your game is still going on")])
def test_a_guest_in_a_live_quick_game_who_opens_the_ranked_page_is_told_why_they_are_back_in_it(
        browser, live_server_url, lang, width, words):
    from tests.e2e.helpers import _context, _login

    guest, code = _off_loop(_quick_game_of_two_guests)
    ctx = _context(browser, lang, width)
    try:
        _login(ctx, live_server_url, guest)
        page = ctx.new_page()
        page.goto(live_server_url + "/match/?mode=ranked")
        assert page.url == f"{live_server_url}/r/{code}/"  # at once: no seek page in between
        assert words in page.inner_text(".messages")
        page.wait_for_selector('.room[data-connected="1"]')
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"match-back-to-game-{lang}-{width}.png"), full_page=True)
        # The note is said once: the game's page opened again has no such line.
        page.reload()
        page.wait_for_selector('.room[data-connected="1"]')
        assert page.locator(".messages").count() == 0
    finally:
        ctx.close()


def test_a_tab_whose_seek_another_tab_replaced_shows_the_new_rules(browser, live_server_url):
    ctx = browser.new_context(locale="vi-VN", viewport={"width": 360, "height": 740})
    try:
        first = ctx.new_page()
        _seek_from_home(first, live_server_url)  # the default rules; the visitor is now a guest
        assert "đúng năm" not in first.inner_text('[data-testid="quick-rules"]').lower()
        # The same guest in a second tab asks for exact five (the home page's button with those rules
        # opens this address; the match page itself offers no second seek while one waits).
        second = ctx.new_page()
        second.goto(live_server_url + "/match/?mode=quick&q=caro-15-blocked-exact&go=1")
        second.wait_for_selector('[data-testid="seeking"]:not([hidden])')
        assert "đúng năm" in second.inner_text('[data-testid="seeking"]').lower()
        # The first tab is told, in its waiting box, and its rules line and button follow the new seek.
        first.wait_for_selector('[data-testid="seeking-note"]:not([hidden])', timeout=15_000)
        assert "thẻ" in first.inner_text('[data-testid="seeking-note"]')
        assert "đúng năm" in first.inner_text('[data-testid="quick-rules"]').lower()
        assert "đúng năm" in first.inner_text('[data-testid="seeking"]').lower()
        assert first.input_value('[data-role="quick-key"]') == second.input_value('[data-role="quick-key"]')
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_while_a_quick_seek_waits_the_page_offers_cancel_and_no_second_seek(browser, live_server_url, width):
    ctx = browser.new_context(locale="vi-VN", viewport={"width": width, "height": 800})
    try:
        page = ctx.new_page()
        _seek_from_home(page, live_server_url)  # now a guest, waiting, on /match/
        seek_buttons = page.locator('[data-testid="quick-match"], [data-role="ranked"], [data-testid="choice-apply"]')
        for _attempt in range(2):  # as the server says it (after a reload: the status frame)
            assert page.is_visible('[data-testid="cancel-seek"]')
            assert "Đang tìm đối thủ" in page.inner_text('[data-testid="seeking"]')
            assert all(not button.is_visible() for button in seek_buttons.all()), "a second seek is offered"
            assert not page.is_visible('[data-testid="quick-change"]')
            page.reload()
            page.wait_for_selector('[data-testid="seeking"]:not([hidden])')
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"match-seeking-vi-{width}.png"), full_page=True)
        page.click('[data-testid="cancel-seek"]')
        page.wait_for_selector('[data-testid="seeking"]', state="hidden")
        assert page.is_visible('[data-testid="quick-match"]')
        # the page hides the box at once; the seek ends when the server has read the cancel
        assert _wait_for(lambda: _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 0)
        # Pressed once, the button goes at once, before the server's answer: no double seek by a double tap.
        page.click('[data-testid="quick-match"]')
        assert not page.is_visible('[data-testid="quick-match"]')
        assert page.is_visible('[data-testid="cancel-seek"]')
        page.wait_for_function("() => document.querySelector('[data-role=match]').dataset.seeking === '1'")
        page.wait_for_selector('[data-testid="elapsed"]')
        assert _wait_for(lambda: _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 1)
    finally:
        ctx.close()


def test_while_a_ranked_seek_waits_neither_quick_nor_ranked_buttons_show(browser, live_server_url):
    from accounts.models import User
    from tests.e2e.helpers import _login

    user = _off_loop(lambda: User.objects.create(username="ranked-wait", display_name="Chờ Xếp Hạng"))
    ctx = browser.new_context(locale="vi-VN", viewport={"width": 360, "height": 740})
    try:
        _login(ctx, live_server_url, user)
        page = ctx.new_page()
        page.goto(live_server_url + "/match/?mode=ranked")
        page.click('[data-testid="ranked-reversi"]')
        page.wait_for_selector('[data-testid="seeking"]:not([hidden])')
        assert _wait_for(lambda: _off_loop(lambda: list(Seek.objects.filter(status=Seek.Status.WAITING).values_list("mode", flat=True))) == ["ranked"])
        assert "Cờ lật" in page.inner_text('[data-testid="seeking"]')
        for testid in ("quick-match", "ranked-caro", "ranked-reversi"):
            assert not page.is_visible(f'[data-testid="{testid}"]'), testid
        page.click('[data-testid="cancel-seek"]')
        page.wait_for_selector('[data-testid="ranked-caro"]', state="visible")
        assert _wait_for(lambda: _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 0)
    finally:
        ctx.close()


def _wait_for(condition, timeout=30.0):
    """True once `condition()` is (polled, generous for a loaded machine), else False."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


# A slow network, in two places: `hold` "open" keeps every websocket the page opens in CONNECTING
# until window.__releaseSockets() (then a real socket is made and its events passed on); `hold`
# "frames" lets it open at once but holds the frames it receives until window.__releaseFrames().
# window.__sockets keeps the real sockets, window.__pongs counts the pongs the page was given.
_SLOW_SOCKETS = """((hold) => {
  const Real = window.WebSocket, waiting = [], held = [];
  window.__sockets = []; window.__pongs = 0;
  window.__released = hold !== "open"; window.__releasedFrames = hold !== "frames";
  window.__releaseSockets = () => { window.__released = true; while (waiting.length) waiting.shift()(); };
  window.__releaseFrames = () => { window.__releasedFrames = true; while (held.length) held.shift()(); };
  class Slow extends EventTarget {
    constructor(url) {
      super();
      this.readyState = 0;
      const open = () => {
        const ws = this.real = new Real(url);
        window.__sockets.push(ws);
        for (const type of ["open", "message", "close", "error"]) {
          ws.addEventListener(type, (e) => {
            const pass = () => {
              this.readyState = ws.readyState;
              if (type === "message" && JSON.parse(e.data).type === "pong") window.__pongs += 1;
              this.dispatchEvent(type === "message" ? new MessageEvent("message", {data: e.data})
                : type === "close" ? new CloseEvent("close", {code: e.code, reason: e.reason}) : new Event(type));
            };
            if (type === "message" && !window.__releasedFrames) held.push(pass); else pass();
          });
        }
      };
      if (window.__released) open(); else waiting.push(open);
    }
    send(data) { this.real.send(data); }
    close(code, reason) { if (this.real) this.real.close(code, reason); }
  }
  Object.assign(Slow, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Slow;
})"""


def _slow_sockets(hold):
    """The init script of a page whose websockets are slow at `hold` ("open" or "frames")."""
    return f"{_SLOW_SOCKETS}({hold!r});"


def test_a_cancel_pressed_before_the_socket_is_open_still_cancels_the_seek(browser, live_server_url):
    ctx = browser.new_context(locale="vi-VN", viewport={"width": 360, "height": 740})
    try:
        page = ctx.new_page()
        _seek_from_home(page, live_server_url)  # a guest, waiting, on /match/?...&go=1
        assert _wait_for(lambda: _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 1)
        assert "go=1" not in page.url  # used up: a reload shows the seek the server has, not a new one
        page.add_init_script(_slow_sockets("open"))
        # The home page's button again (its address asks for the seek at once): the waiting box shows
        # at once while the socket is still connecting.
        page.goto(live_server_url + "/match/?mode=quick&q=caro-15-blocked&go=1")
        page.wait_for_selector('[data-testid="seeking"]:not([hidden])')
        assert page.evaluate("typeof window.__releaseSockets") == "function"
        page.click('[data-testid="cancel-seek"]')
        page.wait_for_selector('[data-testid="seeking"]', state="hidden")
        page.evaluate("window.__releaseSockets()")
        # The socket opens, hears the seek is still waiting, and cancels it: the box stays closed.
        assert _wait_for(lambda: _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 0)
        assert page.is_visible('[data-testid="quick-match"]')
        assert not page.is_visible('[data-testid="cancel-seek"]')
    finally:
        ctx.close()


def test_a_cancel_pressed_before_the_sockets_hello_is_read_still_cancels_the_seek(browser, live_server_url):
    ctx = browser.new_context(locale="vi-VN", viewport={"width": 360, "height": 740})
    try:
        page = ctx.new_page()
        _seek_from_home(page, live_server_url)
        assert _wait_for(lambda: _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 1)
        page.add_init_script(_slow_sockets("frames"))
        page.goto(live_server_url + "/match/?mode=quick&q=caro-15-blocked&go=1")
        page.wait_for_selector('[data-testid="seeking"]:not([hidden])')
        page.wait_for_function("window.__sockets.length === 1 && window.__sockets[0].readyState === 1")
        # Open, but its hello ("still waiting") not read yet: Cancel now.
        page.click('[data-testid="cancel-seek"]')
        page.wait_for_selector('[data-testid="seeking"]', state="hidden")
        page.evaluate("window.__releaseFrames()")
        page.wait_for_selector('[data-role="match"][data-connected="1"]')
        # A ping after whatever the page sent on reading the hello: its pong means the server has
        # read those frames too (one socket's frames are handled in order).
        pongs = page.evaluate('window.__sockets[0].send(JSON.stringify({type: "ping", t: 1})), window.__pongs')
        page.wait_for_function(f"window.__pongs > {pongs}")
        assert _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 0, "the page sought again"
        assert not page.is_visible('[data-testid="cancel-seek"]')
    finally:
        ctx.close()


def test_a_reload_after_a_cancel_starts_no_new_search(browser, live_server_url):
    ctx = browser.new_context(locale="vi-VN", viewport={"width": 360, "height": 740})
    try:
        page = ctx.new_page()
        _seek_from_home(page, live_server_url)
        assert _wait_for(lambda: _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 1)
        page.click('[data-testid="cancel-seek"]')
        assert _wait_for(lambda: _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 0)
        page.reload()  # a pull-to-refresh on a phone
        page.wait_for_selector('[data-testid="quick-match"]', state="visible")
        # the socket's hello was read: a seek asked for on the way would have been sent before it
        page.wait_for_selector('[data-role="match"][data-connected="1"]')
        assert _off_loop(lambda: Seek.objects.filter(status=Seek.Status.WAITING).count()) == 0
        assert not page.is_visible('[data-testid="cancel-seek"]')
    finally:
        ctx.close()
