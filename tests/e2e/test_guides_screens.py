"""Real Chromium: the rules guides at phone (360 px) and desktop (1280 px) width, and the admin
editor's live preview. Screenshots go to test-results/guides/ for review."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "guides"
PAGES = {
    "vi-index": "/huong-dan/",
    "vi-caro-rules": "/huong-dan/luat-choi-caro/",
    "en-blocked-ends": "/guides/blocked-two-ends/",
    "vi-rule-sets": "/huong-dan/cac-bo-luat/",
    "en-reversi": "/guides/reversi-rules/",
    "vi-glossary": "/huong-dan/thuat-ngu/",
}


@pytest.fixture
def seeded():
    from caro.tutorials.loader import sync_guides

    sync_guides()


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("name", list(PAGES))
def test_guide_pages_fit_the_screen(browser, live_server_url, seeded, name, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=1)
    page = context.new_page()
    try:
        response = page.goto(live_server_url + PAGES[name])
        assert response.status == 200
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at {width}px"
        # No diagram is wider than the screen, and each has a text alternative.
        boxes = page.evaluate("""() => [...document.querySelectorAll('figure.diagram svg')].map(s => {
            const r = s.getBoundingClientRect();
            return {left: r.left, right: r.right, width: r.width,
                    desc: (s.querySelector('desc') || {}).textContent || ''};
        })""")
        for box in boxes:
            assert box["left"] >= 0 and box["right"] <= width, box
            assert box["width"] >= min(width - 40, 250), "diagrams are drawn large enough to read"
            assert len(box["desc"]) > 20
        if name != "vi-index":
            assert boxes, "guide pages show diagrams"
            play = page.locator('[data-testid="play-now"]')
            assert play.is_visible() and "/?preset=" in play.get_attribute("href")
    finally:
        context.close()


def test_admin_preview_updates_live_and_shows_errors(browser, live_server_url, seeded):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("editor", "editor@example.com", "pw-123456-long")
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(live_server_url + "/admin/login/?next=/admin/tutorials/guide/add/")
        page.fill("#id_username", "editor")
        page.fill("#id_password", "pw-123456-long")
        page.click("input[type=submit]")
        page.wait_for_url("**/admin/tutorials/guide/add/")
        page.select_option("#id_language", "en")
        page.fill("#id_body", "## Try\n\n```diagram\nview D4:L12\nx E8-H8\no D8\nturn O\nclaim blocks O: I8 J8\n```\n")
        page.wait_for_selector('#guide-preview [data-testid="preview-ok"] figure.diagram svg', timeout=10_000)
        page.fill("#id_body", "## Try\n\n```diagram\nview D4:L12\nx E8-H8\nstone D8\n```\n")
        error = page.wait_for_selector('#guide-preview [data-testid="preview-error"]', timeout=10_000)
        assert "Line 6" in error.inner_text() and "unknown keyword 'stone'" in error.inner_text()
        page.locator(".guide-preview-panel").screenshot(path=str(SHOTS / "admin-preview-error-1280.png"))
        # Saving the broken body is refused with the same message on the field; nothing breaks.
        for field, value in (("#id_key", "try"), ("#id_slug", "try"), ("#id_title", "Try"), ("#id_summary", "Try it")):
            page.fill(field, value)
        page.click("input[name=_save]")
        page.wait_for_selector(".errorlist")
        assert "Line 6: unknown keyword 'stone'" in page.inner_text(".errorlist")
    finally:
        context.close()
