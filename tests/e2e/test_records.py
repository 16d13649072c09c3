"""Real Chromium on the game record pages at 360 and 1280 px: replay with the buttons, the keys,
the slider and the move list; a shared ply link in a fresh context (with and without
JavaScript); continuing a position against the computer (played on the device).
Screenshots go to test-results/records/ for review."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.integration.records.builders import play_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "records"
WIN_ROW = ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"]
TIMEOUT = 20_000
STONES = "document.querySelectorAll('.record-board .sq[data-stone=X], .record-board .sq[data-stone=O]').length"


def _context(browser, width, **kwargs):
    height = 740 if width < 800 else 800
    mobile = {"has_touch": True, "is_mobile": True} if width < 800 else {}
    return browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1, **mobile, **kwargs)


def _wait_stones(page, count):
    page.wait_for_function(f"{STONES} === {count}", timeout=TIMEOUT)


def _fits(page, width):
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px at {width}px"


@pytest.mark.parametrize("width", [360, 1280])
def test_replay_a_finished_game_with_buttons_keys_slider_and_move_list(browser, live_server_url, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    game, _x, _o = play_game(WIN_ROW)
    ctx = _context(browser, width, locale="vi-VN")
    try:
        page = ctx.new_page()
        page.goto(f"{live_server_url}/van/{game.pk}/")
        page.wait_for_selector('.record[data-enhanced="1"]')
        _wait_stones(page, 9)
        assert page.locator(".record-board .sq.win").count() == 5
        page.screenshot(path=str(SHOTS / f"caro-final-{width}.png"), full_page=True)
        _fits(page, width)
        board = page.locator(".record-board").bounding_box()
        moves = page.locator('[data-role="moves"]').bounding_box()
        if width >= 900:  # the board on the left, the move list beside it (not both squeezed on the right)
            assert board["x"] + board["width"] <= moves["x"] and board["width"] >= 400, (board, moves)
        else:  # one column: the board full width, the move list under the replay controls
            assert board["width"] >= width - 40 and moves["y"] > board["y"] + board["height"], (board, moves)
        page.click('[data-go="first"]')
        _wait_stones(page, 0)
        assert "Thế cờ ban đầu" in page.inner_text('[data-role="ply-label"]')
        for expected in (1, 2, 3):
            page.keyboard.press("ArrowRight")
            _wait_stones(page, expected)
        page.wait_for_url(re.compile(r"\?ply=3$"))
        assert page.locator(".record-board .sq.last").get_attribute("data-sq") == "I8"
        assert page.locator(".record-board .sq.win").count() == 0
        page.click('[data-go="next"]')
        _wait_stones(page, 4)
        page.keyboard.press("ArrowLeft")
        _wait_stones(page, 3)
        page.keyboard.press("End")
        _wait_stones(page, 9)
        assert page.locator(".record-board .sq.win").count() == 5
        page.click('[data-role="moves"] a[data-ply="2"]')
        _wait_stones(page, 2)
        page.locator('[data-role="slider"]').fill("6")
        _wait_stones(page, 6)
        page.click('[data-go="prev"]')
        _wait_stones(page, 5)
        page.click('[data-role="numbers"]')
        page.wait_for_function("document.querySelectorAll('.record-board.numbers .sq .n').length === 5", timeout=TIMEOUT)
        assert page.locator('.record-board .sq[data-sq="J8"] .n').inner_text() == "5"
        page.screenshot(path=str(SHOTS / f"caro-ply5-numbers-{width}.png"), full_page=True)
        _fits(page, width)
        page.keyboard.press("Home")
        _wait_stones(page, 0)
        assert page.get_attribute('[data-go="first"]', "aria-disabled") == "true"
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_a_shared_ply_link_opens_that_position_in_a_fresh_context(browser, live_server_url, width):
    game, _x, _o = play_game(WIN_ROW)
    ctx = _context(browser, width, locale="en-US")
    try:
        page = ctx.new_page()
        page.goto(f"{live_server_url}/en/game/{game.pk}/")
        page.wait_for_selector('.record[data-enhanced="1"]')
        page.click('[data-role="moves"] a[data-ply="4"]')
        _wait_stones(page, 4)
        link = page.input_value('[data-role="share-link"]')
        assert link.endswith(f"/en/game/{game.pk}/?ply=4")
    finally:
        ctx.close()
    for javascript in (True, False):
        fresh = _context(browser, width, locale="en-US", java_script_enabled=javascript)
        try:
            page = fresh.new_page()
            page.goto(link)
            assert page.evaluate(STONES) == 4 if javascript else page.locator(
                '.record-board .sq[data-stone="X"], .record-board .sq[data-stone="O"]').count() == 4
            assert "Move 4 of 9: O A2" in page.inner_text('[data-role="ply-label"]')
            assert page.locator(".record-board .sq.last").get_attribute("data-sq") == "A2"
            image = page.get_attribute('meta[property="og:image"]', "content")
            assert image.endswith(f"/en/game/{game.pk}/image.svg?ply=4")
            if not javascript:  # the server-rendered page: the next move is a plain link
                page.click('[data-go="next"]')
                page.wait_for_url(re.compile(r"\?ply=5$"))
                assert page.locator('.record-board .sq[data-stone="X"]').count() == 3
                page.screenshot(path=str(SHOTS / f"shared-nojs-{width}.png"), full_page=True)
            _fits(page, width)
        finally:
            fresh.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_continue_from_a_position_against_the_computer(browser, live_server_url, width):
    """Played on the device: the record's moves so far go to play_computer in the address."""
    game, _x, _o = play_game(WIN_ROW)
    ctx = _context(browser, width, locale="vi-VN")
    try:
        page = ctx.new_page()
        page.goto(f"{live_server_url}/van/{game.pk}/")
        page.wait_for_selector('.record[data-enhanced="1"]')
        assert page.locator('[data-role="continue"]').is_hidden()  # the game ended here
        page.click('[data-role="moves"] a[data-ply="4"]')
        _wait_stones(page, 4)
        assert page.locator('[data-role="continue"]').is_visible()
        page.select_option('[data-role="continue"] select[name="level"]', "easy")
        page.click('[data-testid="continue"]')
        page.wait_for_url(re.compile(r"/choi-may/\?"), timeout=TIMEOUT)
        page.wait_for_selector('.room[data-connected="1"]', timeout=TIMEOUT)
        board = "document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length"
        page.wait_for_function(f"{board} === 4", timeout=TIMEOUT)
        assert "Máy (Dễ)" in page.inner_text('[data-role="name-O"]')
        page.locator('[data-role="confirm-toggle"]').set_checked(False)
        page.click('.sq[data-sq="H10"]')
        page.wait_for_function(f"{board} === 6", timeout=TIMEOUT)  # the computer answered
        page.screenshot(path=str(SHOTS / f"continued-room-{width}.png"), full_page=True)
        _fits(page, width)
    finally:
        ctx.close()


def test_a_reversi_record_at_phone_width(browser, live_server_url):
    moves = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8".lower()
    game, _x, _o = play_game([moves[k:k + 2] for k in range(0, len(moves), 2)], kind="reversi")
    ctx = _context(browser, 360, locale="vi-VN")
    try:
        page = ctx.new_page()
        page.goto(f"{live_server_url}/van/{game.pk}/?numbers=1")
        page.wait_for_selector('.record[data-enhanced="1"]')
        assert page.locator(".record-board .sq").count() == 64
        page.screenshot(path=str(SHOTS / "reversi-360.png"), full_page=True)
        _fits(page, 360)
        page.goto(f"{live_server_url}/van/nhap/")
        page.fill("textarea[name=text]", "H8 I9\nH8")
        page.click('[data-testid="import"]')
        page.wait_for_selector('[data-testid="import-error"]')
        assert "Dòng 2" in page.inner_text('[data-testid="import-error"]')
        page.screenshot(path=str(SHOTS / "import-error-360.png"), full_page=True)
        _fits(page, 360)
    finally:
        ctx.close()
