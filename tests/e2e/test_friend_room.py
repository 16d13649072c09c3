"""Real Chromium: two players and a spectator in a friend room, over Daphne, Redis and PostgreSQL."""

import re

import pytest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

X_MOVES = ["H8", "I8", "J8", "K8", "L8"]
O_MOVES = ["H9", "I9", "J9", "K9"]


def _stone(page, square, side, timeout=10_000):
    page.wait_for_selector(f'.sq[data-sq="{square}"][data-stone="{side}"]', timeout=timeout)


def _room_for_two(browser, live_server_url, **context):
    """Contexts and pages (x, o) with a room created by x and joined by o through the link."""
    ctx_x, ctx_o = browser.new_context(**context), browser.new_context(**context)
    tap = context.get("has_touch", False)
    x = ctx_x.new_page()
    x.goto(live_server_url + "/")
    (x.tap if tap else x.click)('[data-testid="create-room"]')
    x.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"))
    o = ctx_o.new_page()
    o.goto(x.input_value('[data-testid="share-link"]'))
    (o.tap if tap else o.click)('[data-testid="take-seat"]')
    return (ctx_x, ctx_o), x, o


def _wait_status(page, text):
    page.wait_for_function(f"document.querySelector('[data-role=status]').textContent.includes({text!r})")


def test_two_players_play_to_a_five_while_a_spectator_watches(browser, live_server_url):
    ctx_x = browser.new_context(locale="vi-VN")
    ctx_o = browser.new_context(locale="en-US")
    ctx_w = browser.new_context(locale="vi-VN", viewport={"width": 360, "height": 740})
    try:
        x = ctx_x.new_page()
        x.goto(live_server_url + "/")
        x.click('[data-testid="create-room"]')
        x.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"))
        code = x.inner_text('[data-testid="room-code"]').strip()
        link = x.input_value('[data-testid="share-link"]')
        assert re.fullmatch(r"[A-Z0-9]{3} [A-Z0-9]{3}", code)
        assert link.endswith("/r/" + code.replace(" ", "") + "/")
        x.wait_for_selector('.room[data-connected="1"]')
        assert "Đang chờ đối thủ" in x.inner_text('[data-role="status"]')

        # The second browser joins by the link, the third by typing the code on the home page.
        o = ctx_o.new_page()
        o.goto(link)
        o.click('[data-testid="take-seat"]')
        # the form posts and the room page comes back seated (the old page was connected too)
        o.wait_for_selector('[data-testid="take-seat"]', state="detached")
        o.wait_for_selector('.room[data-connected="1"]')
        w = ctx_w.new_page()
        w.goto(live_server_url + "/")
        w.fill("#id_code", code.lower())
        w.click('[data-testid="join-code"]')
        w.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"))
        w.wait_for_selector('.room[data-connected="1"]')
        assert w.locator('[data-testid="take-seat"]').count() == 0  # both seats are taken

        x.wait_for_function("document.querySelector('[data-role=status]').textContent.includes('Đến lượt bạn')")
        assert o.locator('[aria-label="H8, empty"]').count() == 1  # labelled squares

        for i, square in enumerate(X_MOVES):
            x.click(f'.sq[data-sq="{square}"]')
            for page in (x, o, w):
                _stone(page, square, "X")
            if i < len(O_MOVES):
                o.click(f'.sq[data-sq="{O_MOVES[i]}"]')
                for page in (x, o, w):
                    _stone(page, O_MOVES[i], "O")

        for page in (x, o, w):
            page.wait_for_selector('[data-role="status"][data-result="finished"]')
            winners = page.eval_on_selector_all(".sq.win", "els => els.map(e => e.dataset.sq).sort()")
            assert winners == sorted(X_MOVES)
        assert "Bạn thắng" in x.inner_text('[data-role="status"]')
        assert "You lost: your opponent made 5 in a row (5 or more to win, not blocked at both ends)" in o.inner_text('[data-role="status"]')
        x_name = w.inner_text('[data-role="name-X"]')  # a spectator reads who won by name and mark
        assert f"{x_name} (X) thắng" in w.inner_text('[data-role="status"]')
        assert "đường thắng" in x.get_attribute('.sq[data-sq="J8"]', "aria-label")
        assert not w.is_visible('[data-role="play-again"]')  # spectators cannot start games

        # Play again needs both players; the loser (O) then moves first, still drawing O.
        o.click('[data-role="play-again"]')
        o_name = x.inner_text('[data-role="name-O"]')  # the note names the player, as draw offers do
        x.wait_for_function("name => document.querySelector('[data-role=rematch-note]').textContent"
                            " === `${name} muốn đánh lại.`", arg=o_name)
        assert o.is_disabled('[data-role="play-again"]')
        x.click('[data-role="play-again"]')
        for page in (x, o, w):
            page.wait_for_function("document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length === 0")
        o.wait_for_function("document.querySelector('[data-role=status]').textContent.includes('Your turn')")
        o.click('.sq[data-sq="G7"]')
        for page in (x, o, w):  # O moves first now and keeps their mark for the whole room
            _stone(page, "G7", "O")
    finally:
        for ctx in (ctx_x, ctx_o, ctx_w):
            ctx.close()


def test_on_a_phone_the_first_tap_previews_and_the_second_plays(browser, live_server_url):
    phone = dict(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, locale="vi-VN")
    contexts, x, o = _room_for_two(browser, live_server_url, **phone)
    try:
        _wait_status(x, "Đến lượt bạn")
        # The board fits the phone: no horizontal scrolling.
        assert x.evaluate("document.documentElement.scrollWidth") <= 360
        x.tap('.sq[data-sq="H8"]')
        x.wait_for_selector('.sq[data-sq="H8"].ghost')
        assert x.get_attribute('.sq[data-sq="H8"]', "data-stone") == ""
        assert x.is_visible('[data-role="confirm"]')
        x.tap('[data-role="confirm"]')
        _stone(x, "H8", "X")
        _stone(o, "H8", "X")
    finally:
        for ctx in contexts:
            ctx.close()


def test_keyboard_players_move_with_arrows_and_enter(browser, live_server_url):
    contexts, x, o = _room_for_two(browser, live_server_url, locale="en-US")
    try:
        _wait_status(x, "Your turn")
        x.focus('.sq[data-sq="H8"]')
        x.keyboard.press("ArrowRight")
        x.keyboard.press("ArrowDown")
        assert x.evaluate("document.activeElement.dataset.sq") == "I9"
        x.keyboard.press("Enter")
        _stone(o, "I9", "X")
    finally:
        for ctx in contexts:
            ctx.close()
