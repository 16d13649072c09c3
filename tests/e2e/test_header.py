"""Real Chromium: the site header at 360 px (a phone) and 1280 px with the longest names a visitor
can have. The whole name is readable in the header (it wraps, never cut with an ellipsis), the
page never scrolls sideways, and the name's link keeps the whole name as its accessible name."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounts.guests import create_guest
from accounts.models import User
from accounts.names import NAME_MAX_LENGTH
from caro.rooms import services as rooms
from tests.e2e.helpers import _context, _login, _off_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
#: The page is wider than the viewport by this many pixels (0 or less: no sideways scroll).
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
#: Each header element that shows less than its text: [class, testid, scrollWidth, clientWidth].
CLIPPED = """() => [...document.querySelectorAll('.site-header *')]
  .filter(el => el.offsetParent !== null && el.children.length === 0 && el.textContent.trim()
    && (el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > innerWidth + 0.5
        || el.getBoundingClientRect().left < -0.5))
  .map(el => [el.className, el.dataset.testid || '', el.scrollWidth, el.clientWidth])"""
#: A guest name of the longest length allowed, in wide letters (W and Đ are among the widest).
LONG_GUEST = ("ĐƯỜNGWWW" * 3)[:NAME_MAX_LENGTH]


def _guest(name):
    def make():
        user = create_guest()
        User.objects.filter(pk=user.pk).update(display_name=name)
        user.refresh_from_db()
        return user
    return _off_loop(make)


def _check_header(page, name, shot):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / shot), full_page=False)
    header = page.locator(".site-header")
    assert page.evaluate(OVERFLOW) <= 0, "the page scrolls sideways"
    assert header.evaluate("el => el.scrollWidth <= el.clientWidth"), "the header overflows"
    assert page.evaluate(CLIPPED) == []
    link = page.locator('[data-testid="guest-name"]')
    assert link.is_visible()
    assert link.inner_text() == name  # the whole name shows, not an ellipsis or a cut
    box = link.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    # The link's accessible name holds the whole name (the title only adds what a click does).
    assert page.get_by_role("link", name=name).count() == 1


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 360), ("vi", 1280), ("en", 1280)])
def test_a_long_guest_name_fits_the_header(browser, live_server_url, lang, width):
    guest = _guest(LONG_GUEST)
    context = _context(browser, lang, width)
    try:
        _login(context, live_server_url, guest)
        page = context.new_page()
        page.goto(live_server_url + "/")
        _check_header(page, LONG_GUEST, f"header-long-name-{lang}-{width}.png")
        # The room page has the same header (and a board under it that must not push it wider).
        room = _off_loop(lambda: rooms.create_room(guest))
        page.goto(f"{live_server_url}/r/{room.code}/")
        page.wait_for_selector('.room[data-connected="1"]')
        _check_header(page, LONG_GUEST, f"header-long-name-room-{lang}-{width}.png")
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_an_account_s_long_name_and_its_menu_fit(browser, live_server_url, width):
    name = LONG_GUEST.replace("Đ", "D")
    user = _off_loop(lambda: User.objects.create(username="header-long", display_name=name))
    context = _context(browser, "vi", width)
    try:
        _login(context, live_server_url, user)
        page = context.new_page()
        page.goto(live_server_url + "/")
        summary = page.locator('[data-testid="user-menu"] summary')
        assert summary.inner_text().startswith(name)
        assert page.evaluate(OVERFLOW) <= 0
        assert page.evaluate(CLIPPED) == []
        summary.click()
        items = page.locator(".user-menu-items")
        items.wait_for()
        box = items.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert page.evaluate(OVERFLOW) <= 0
        assert page.locator('[data-testid="logout"]').is_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"header-account-menu-vi-{width}.png"), full_page=False)
    finally:
        context.close()


def test_an_anonymous_visitor_s_header_fits_at_360(browser, live_server_url):
    context = _context(browser, "vi", 360)
    try:
        page = context.new_page()
        page.goto(live_server_url + "/")
        assert page.evaluate(OVERFLOW) <= 0
        assert page.evaluate(CLIPPED) == []
        assert page.locator(".nav-login").is_visible() and page.locator(".nav-signup").is_visible()
    finally:
        context.close()


# ------------------------------------------------------------------ tap targets (WCAG 2.2 AA, 2.5.8)

#: The smallest target WCAG 2.2 AA asks for (2.5.8 "Target Size (Minimum)"), CSS px each way.
MIN_TARGET_PX = 24
#: Everything in the header a finger may press.
TARGETS = ".site-header a, .site-header button, .site-header summary, .site-header input:not([type=hidden])"


def _small_targets(page):
    """The header's visible targets smaller than MIN_TARGET_PX either way, by Playwright's
    bounding box: [(what, width, height)]."""
    small = []
    for target in page.locator(TARGETS).all():
        if not target.is_visible():
            continue
        box = target.bounding_box()
        if box["width"] < MIN_TARGET_PX or box["height"] < MIN_TARGET_PX:
            what = target.evaluate("el => el.dataset.testid || el.className || el.tagName") + f" {target.inner_text()!r}"
            small.append((what, round(box["width"], 1), round(box["height"], 1)))
    return small


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_every_header_target_is_at_least_24_px_each_way_at_360(browser, live_server_url, lang):
    """A visitor's header (the site's name, rules, leaderboard, their guest name, log in, sign up,
    the languages), the guest-name form it opens, and an account's header with its menu open."""
    user = _off_loop(lambda: User.objects.create(username=f"tap-{lang}", display_name="Tâm"))
    context = _context(browser, lang, 360)
    try:
        page = context.new_page()
        page.goto(live_server_url + "/")
        assert page.locator(TARGETS).count() >= 8
        assert _small_targets(page) == []
        page.click('[data-testid="guest-name"]')
        page.wait_for_selector("#guest-name-input")
        assert _small_targets(page) == []
        _login(context, live_server_url, user)
        page.goto(live_server_url + "/")
        page.click('[data-testid="user-menu"] summary')
        page.locator('[data-testid="logout"]').wait_for()
        assert _small_targets(page) == []
        assert page.evaluate(OVERFLOW) <= 0
    finally:
        context.close()
