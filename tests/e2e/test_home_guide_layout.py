"""Real Chromium: layout faults a new-user trial found on the home page and in the rules guides
(2026-12-06): cards stretched by an open neighbour, full-width rules boxes on a desktop, a small
"Change" target on a phone, and guide tables that hid their last columns with nothing saying so.
Every wait is for a condition, never for a fixed time."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import _context

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

#: WCAG 2.2 AA 2.5.8 "Target Size (Minimum)", CSS px each way.
MIN_TARGET_PX = 24
#: A rules box on a desktop: side by side, never one stretched across the page (1156 px before).
MAX_RULES_BOX_PX = 400


@pytest.fixture
def seeded():
    from caro.tutorials.loader import sync_guides

    sync_guides()


def _height(page, selector):
    return page.locator(selector).first.bounding_box()["height"]


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_open_room_options_do_not_stretch_the_other_cards_and_rules_boxes_stand_side_by_side(browser, live_server_url, lang):
    context = _context(browser, lang, 1280)
    try:
        page = context.new_page()
        page.goto(live_server_url + "/?rules=open")
        join = ".entry:has(.join-code)"
        before = _height(page, join)
        page.click("#friend-room .room-options summary")
        page.locator('[data-testid="clock-choice"]').wait_for()
        assert _height(page, "#friend-room") > before + 100  # the options opened
        assert _height(page, join) <= before + 1
        boxes = page.locator(".rules-form .fields select")
        assert boxes.count() == 3
        tops = set()
        for i in range(3):
            box = boxes.nth(i).bounding_box()
            assert box["width"] <= MAX_RULES_BOX_PX
            tops.add(round(box["y"]))
        assert len(tops) == 1, "the three rules boxes stand on one row"
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_the_change_links_after_the_rules_lines_are_finger_sized_at_360(browser, live_server_url, lang):
    context = _context(browser, lang, 360)
    try:
        page = context.new_page()
        page.goto(live_server_url + "/")
        link = page.locator('[data-testid="quick-change"]')
        box = link.bounding_box()
        assert box["width"] >= MIN_TARGET_PX and box["height"] >= MIN_TARGET_PX, box
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
    finally:
        context.close()


@pytest.mark.parametrize("lang, path, hint", [
    ("vi", "/huong-dan/cac-bo-luat/", "Kéo ngang bảng"),
    ("en", "/guides/rule-sets/", "Scroll the table sideways"),
])
def test_a_guide_table_wider_than_a_phone_says_it_scrolls_and_a_desktop_does_not(browser, live_server_url, seeded, lang, path, hint):
    context = _context(browser, lang, 360)
    try:
        page = context.new_page()
        assert page.goto(live_server_url + path).status == 200
        wrap = page.locator(".table-wrap").first
        assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")
        note = page.locator('[data-testid="table-hint"]').first
        note.wait_for()
        assert hint in note.inner_text()
        # The line stands right before the box that scrolls.
        assert note.evaluate("p => p.nextElementSibling.classList.contains('table-wrap')")
        # Wide enough for the whole table: the line goes.
        page.set_viewport_size({"width": 1280, "height": 900})
        page.wait_for_function("() => !document.querySelector('[data-testid=table-hint]')")
        assert not wrap.evaluate("w => w.scrollWidth > w.clientWidth")
    finally:
        context.close()
