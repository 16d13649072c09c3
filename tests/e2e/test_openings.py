"""Real Chromium: the RIF opening between two browsers (through the swap and the 5th-move offer, to
a five). Against the computer the opening is played in the page (static/js/computer)."""

import re

import pytest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]


def _stone(page, square, side, timeout=20_000):
    page.wait_for_selector(f'.sq[data-sq="{square}"][data-stone="{side}"]', timeout=timeout)


def _prompt(page, text, timeout=20_000):
    page.wait_for_function(
        f"document.querySelector('[data-testid=opening-prompt]').textContent.includes({text!r})", timeout=timeout)


def _choose_rules(page, preset):
    page.click(".rules-choice summary")
    page.select_option('select[name="preset"]', preset)


def _one_tap(page):
    page.wait_for_selector('.room[data-connected="1"]')
    page.locator('[data-role="confirm-toggle"]').set_checked(False)


def test_a_full_rif_game_between_two_browsers_through_the_swap_and_the_fifth_move_offer(browser, live_server_url):
    ctx_h, ctx_g = browser.new_context(locale="en-US"), browser.new_context(locale="vi-VN")
    try:
        host = ctx_h.new_page()
        host.goto(live_server_url + "/")
        _choose_rules(host, "renju-rif")
        host.click('[data-testid="create-room"]')
        host.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"))
        guest = ctx_g.new_page()
        guest.goto(host.input_value('[data-testid="share-link"]'))
        guest.click('[data-testid="take-seat"]')
        _one_tap(host)
        _one_tap(guest)
        _prompt(host, "place stone 1 (black) on the centre point")
        assert host.locator(".sq.area").count() == 1
        host.click('.sq[data-sq="H8"]')
        _stone(guest, "H8", "X")
        _prompt(host, "inside the central 3×3")
        assert host.locator(".sq.area").count() == 8  # the empty squares of the 3×3
        host.click('.sq[data-sq="A1"]')  # outside the area: refused, nothing placed
        host.wait_for_function("document.querySelector('[data-role=conn]').textContent.includes('central 3×3')")
        assert host.get_attribute('.sq[data-sq="A1"]', "data-stone") == ""
        host.click('.sq[data-sq="I7"]')
        _stone(guest, "I7", "O")
        host.click('.sq[data-sq="J9"]')
        _stone(guest, "J9", "X")
        # The tentative White decides: swap.
        guest.wait_for_selector('[data-testid="opening-swap"]')
        assert host.locator('[data-testid="opening-swap"]').count() == 0
        guest.click('[data-testid="opening-swap"]')
        _prompt(host, "place stone 4 (white) anywhere")
        host_name = host.inner_text('[data-role="name-O"]')
        assert "(you)" in host_name  # the host holds White now
        host.click('.sq[data-sq="G9"]')
        _stone(guest, "G9", "O")
        # Black (the guest) offers two 5th moves; a mirror pair is refused by the server.
        guest.wait_for_selector('[data-testid="opening-offer"]')
        guest.click('.sq[data-sq="H10"]')
        guest.click('.sq[data-sq="K11"]')
        assert guest.locator(".sq.proposed").count() == 2
        guest.click('[data-testid="opening-offer"]')
        host.wait_for_selector('[data-testid="opening-select-K11"]')
        assert host.locator(".sq.offered").count() == 2
        assert "H10, K11" in guest.inner_text('[data-testid="opening"]')
        host.click('[data-testid="opening-select-K11"]')
        _stone(guest, "K11", "X")
        host.wait_for_function("document.querySelector('[data-testid=opening-prompt]').textContent.includes('Opening over')")
        assert host.locator('[data-testid="opening-log"] li').count() == 7
        # Each step names the colour held then: the host placed stone 1 as Black, though White now.
        log = host.locator('[data-testid="opening-log"] li')
        assert log.nth(0).inner_text().startswith("Black") and log.nth(3).inner_text().startswith("White")
        assert log.nth(4).inner_text().startswith("White") and log.nth(5).inner_text().startswith("Black")
        # The game goes on: White plays far away, Black makes a five on row 13.
        for white, black in (("A1", "D13"), ("A3", "E13"), ("A5", "F13"), ("A7", "G13"), ("A9", "H13")):
            host.click(f'.sq[data-sq="{white}"]')
            _stone(guest, white, "O")
            guest.click(f'.sq[data-sq="{black}"]')
            _stone(host, black, "X")
        host.wait_for_selector('[data-role="status"][data-result="finished"]')
        guest.wait_for_selector('[data-role="status"][data-result="finished"]')
        assert "You lost" in host.inner_text('[data-role="status"]')
        assert "Bạn thắng" in guest.inner_text('[data-role="status"]')
    finally:
        ctx_h.close()
        ctx_g.close()


def test_a_swap2_game_against_the_computer_that_gets_the_choice_back(browser, live_server_url):
    """Played on the device (the home page's form opens play_computer): the computer in the page
    takes its opening steps."""
    ctx = browser.new_context(locale="en-US")
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/")
        _choose_rules(page, "swap2")
        page.select_option('select[name="level"]', "easy")
        page.select_option('select[name="side"]', "O")  # the computer begins: it places three stones
        page.click('[data-testid="play-computer"]')
        page.wait_for_url(re.compile(r"/choi-may/\?"))
        _one_tap(page)
        _prompt(page, "choose a colour, or place two more stones", timeout=60_000)
        assert page.locator('.sq[data-stone="X"], .sq[data-stone="O"]').count() == 3
        assert page.locator('[data-testid="opening-choose-X"]').count() == 1
        page.click('.sq[data-sq="A1"]')  # the 4th stone (white): two more, then the computer chooses
        _stone(page, "A1", "O")
        _prompt(page, "place stone 5 (black)")
        page.click('.sq[data-sq="O15"]')
        _stone(page, "O15", "X")
        page.wait_for_function(
            "document.querySelectorAll('[data-testid=opening-log] li').length === 6", timeout=60_000)
        last = page.locator('[data-testid="opening-log"] li').nth(5).inner_text()
        assert re.search(r"chose (Black|White)", last)
        assert "Computer" in last
        page.wait_for_function(
            "document.querySelector('[data-testid=opening-prompt]').textContent.includes('Opening over')")
        # Then ordinary moves: whoever holds White plays stone 6. The computer answers at once, so the
        # count is compared with ">=": a check for an exact count can miss it between two frames.
        status = page.inner_text('[data-role="status"]')
        count = "document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length"
        if "Your turn" in status:
            before = page.evaluate(count)
            assert before in (5, 6)  # 5: we hold White and play stone 6; 6: the computer, as White, did
            page.click('.sq[data-sq="B14"]')
            page.wait_for_selector('.sq[data-sq="B14"][data-stone]:not([data-stone=""])')
            page.wait_for_function(f"{count} >= {before + 2}", timeout=60_000)  # and the computer replied
        else:
            page.wait_for_function(f"{count} >= 6", timeout=60_000)
        assert page.is_visible('[data-role="resign"]')
    finally:
        ctx.close()
