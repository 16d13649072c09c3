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


#: Colour words an opening's texts must not use beside X and O (the site's words for the sides),
#: in the page's language.
COLOUR_WORDS = {"en": ("Black", "White", "black", "white"), "vi": ("Đen", "Trắng", "đen", "trắng")}


def _in_x_and_o(page, lang):
    """The opening panel (prompt, buttons, steps) names the sides X and O only."""
    text = page.inner_text('[data-testid="opening"]')
    assert not [w for w in COLOUR_WORDS[lang] if w in text], text
    return text


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
        _prompt(host, "place stone 1 (X) on the centre point")
        _prompt(guest, "đặt quân thứ 1 (X) vào điểm chính giữa")
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
        assert "đổi quân (cầm X) hay giữ O?" in _in_x_and_o(guest, "vi")
        assert guest.inner_text('[data-testid="opening-swap"]') == "Đổi quân: tôi cầm X"
        assert guest.inner_text('[data-testid="opening-keep"]') == "Giữ O"
        assert "swap sides (take X) or keep O?" in _in_x_and_o(host, "en")
        guest.click('[data-testid="opening-swap"]')
        _prompt(host, "place stone 4 (O) anywhere")
        host_name = host.inner_text('[data-role="name-O"]')
        assert "(you)" in host_name  # the host holds White now
        host.click('.sq[data-sq="G9"]')
        _stone(guest, "G9", "O")
        # X (the guest) offers two 5th moves; a mirror pair is refused by the server.
        guest.wait_for_selector('[data-testid="opening-offer"]')
        assert "đề cử hai điểm cho nước thứ 5 (X)" in _in_x_and_o(guest, "vi")
        _in_x_and_o(host, "en")
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
        # Each step names the side held then: the host placed stone 1 as X, though O now.
        log = host.locator('[data-testid="opening-log"] li')
        assert log.nth(0).inner_text().startswith("X (") and log.nth(3).inner_text().startswith("O (")
        assert log.nth(3).inner_text().endswith("swapped sides.")
        assert log.nth(4).inner_text().startswith("O (") and log.nth(5).inner_text().startswith("X (")
        assert "Opening over: the players swapped X and O." in _in_x_and_o(host, "en")
        vi_log = guest.locator('[data-testid="opening-log"] li')
        assert vi_log.nth(3).inner_text().endswith("đổi quân với đối thủ.")
        assert "hai bên đã đổi quân X và O cho nhau" in _in_x_and_o(guest, "vi")
        # The game goes on: O plays far away, X makes a five on row 13.
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
        _prompt(page, "choose X or O, or place two more stones (O, then X)", timeout=60_000)
        _in_x_and_o(page, "en")
        assert page.inner_text('[data-testid="opening-choose-X"]') == "Play X"
        assert page.locator('.sq[data-stone="X"], .sq[data-stone="O"]').count() == 3
        assert page.locator('[data-testid="opening-choose-X"]').count() == 1
        page.click('.sq[data-sq="A1"]')  # the 4th stone (white): two more, then the computer chooses
        _stone(page, "A1", "O")
        _prompt(page, "place stone 5 (X)")
        page.click('.sq[data-sq="O15"]')
        _stone(page, "O15", "X")
        page.wait_for_function(
            "document.querySelectorAll('[data-testid=opening-log] li').length === 6", timeout=60_000)
        last = page.locator('[data-testid="opening-log"] li').nth(5).inner_text()
        assert re.search(r"chose (X|O)\.$", last)
        _in_x_and_o(page, "en")
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
