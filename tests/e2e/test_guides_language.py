"""Real Chromium: a guide's language and the interface language agree (issue 13, point 9). The URL
decides the guide's language, the whole page follows it, and the language switch on a guide opens
the same guide in the other language."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

LOCALES = {"vi": "vi-VN", "en": "en-US"}
HEIGHTS = {360: 740, 1280: 800}
BRAND = {"vi": "Caro trực tuyến", "en": "Caro online"}
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
NO_OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture
def seeded():
    from caro.tutorials.loader import sync_guides

    sync_guides()


def _counterpart(language: str, key: str) -> str:
    from caro.tutorials.models import Guide

    return Guide.objects.get(language=language, key=key).get_absolute_url()


# Each way (a Vietnamese visitor on an English guide, and back) once, one on the phone and one on
# the desktop (both ways at both widths repeated the same path).
@pytest.mark.parametrize("interface, guide_language, width", [("vi", "en", 360), ("en", "vi", 1280)])
def test_a_guide_in_the_other_language_and_the_language_switch(browser, live_server_url, seeded, interface,
                                                               guide_language, width):
    start, target = _counterpart(guide_language, "blocked-ends"), _counterpart(interface, "blocked-ends")
    ctx = browser.new_context(locale=LOCALES[interface], viewport={"width": width, "height": HEIGHTS[width]})
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/")
        assert page.inner_text(".brand") == BRAND[interface]

        # A link to a guide in the other language: the page is in that language, frame included.
        page.goto(live_server_url + start)
        assert page.get_attribute("html", "lang") == guide_language
        assert page.get_attribute('[data-testid="guide"]', "lang") == guide_language
        assert page.inner_text(".brand") == BRAND[guide_language]
        assert page.get_attribute(f'[data-testid="lang-{guide_language}"]', "aria-current") == "true"
        assert page.evaluate(NO_OVERFLOW) <= 0
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"guide-{guide_language}-in-{interface}-{width}.png"))

        # Switching language on it opens the same guide in the other language.
        page.click(f'[data-testid="lang-{interface}"]')
        page.wait_for_url(live_server_url + target)
        assert page.get_attribute("html", "lang") == interface
        assert page.inner_text(".brand") == BRAND[interface]
        assert page.get_attribute(f'[data-testid="lang-{interface}"]', "aria-current") == "true"

        # And back, then the rest of the site follows the last choice.
        page.click(f'[data-testid="lang-{guide_language}"]')
        page.wait_for_url(live_server_url + start)
        page.goto(live_server_url + "/")
        assert page.inner_text(".brand") == BRAND[guide_language]
    finally:
        ctx.close()


@pytest.mark.parametrize("interface, other", [("vi", "en"), ("en", "vi")])
def test_the_guide_list_switches_to_the_other_list(browser, live_server_url, seeded, interface, other):
    from caro.tutorials.models import index_url

    ctx = browser.new_context(locale=LOCALES[interface], viewport={"width": 1280, "height": 800})
    try:
        page = ctx.new_page()
        page.goto(live_server_url + index_url(interface))
        assert page.inner_text(".brand") == BRAND[interface]
        page.click(f'[data-testid="lang-{other}"]')
        page.wait_for_url(live_server_url + index_url(other))
        assert page.inner_text(".brand") == BRAND[other]
        assert page.get_attribute(".guide-index", "lang") == other
    finally:
        ctx.close()
