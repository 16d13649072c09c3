"""Real Chromium at phone (360×740, Vietnamese) and desktop (1280×800, English) size: the record
page's report form looks like the site's other forms (framed fields, a live button), and a ranked
game's room says before the first move that the clock is already running (polish-8)."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import _context, _login, _off_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

BOTH = [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")]
WAIT = 30_000
ACCENT = "rgb(11, 110, 79)"  # site.css --accent


def _finished_game():
    from tests.integration.ranking.builders import account, won_by

    winner, loser = account(display_name="Nguyễn Thị Hoa Lan"), account(display_name="Trần Văn Đức Minh")
    return won_by(winner, loser), loser


@pytest.mark.parametrize("lang, width", BOTH)
def test_the_record_page_s_report_form_has_the_site_s_fields_and_a_live_button(browser, live_server_url, lang, width):
    game, loser = _off_loop(_finished_game)
    ctx = _context(browser, lang, width)
    _login(ctx, live_server_url, loser)
    page = ctx.new_page()
    from django.utils import translation

    with translation.override(lang):  # the record's address fixes its language: /van/N/, /en/game/N/
        page.goto(f"{live_server_url}{game.get_absolute_url()}")
    box = page.locator('[data-testid="report"]')
    box.locator("summary").click()
    button = box.locator('button[type="submit"]')
    button.wait_for(timeout=WAIT)
    box.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/polish-8-report-{lang}-{width}.png", full_page=False)
    look = page.evaluate("""() => {
        const box = document.querySelector('[data-testid="report"]');
        const css = (el) => getComputedStyle(el);
        const b = box.querySelector('button[type="submit"]'), s = box.querySelector('select'), t = box.querySelector('textarea');
        const sum = box.querySelector('summary');
        return {button: {bg: css(b).backgroundColor, color: css(b).color, opacity: css(b).opacity, height: b.getBoundingClientRect().height},
                select: {radius: css(s).borderTopLeftRadius, height: s.getBoundingClientRect().height, width: s.getBoundingClientRect().width,
                         border: css(s).borderTopColor},
                textarea: {radius: css(t).borderTopLeftRadius, width: t.getBoundingClientRect().width, border: css(t).borderTopColor},
                form: (f => f.clientWidth - parseFloat(css(f).paddingLeft) - parseFloat(css(f).paddingRight))(box.querySelector('form')),
                summary: {height: sum.getBoundingClientRect().height, color: css(sum).color},
                page: document.documentElement.scrollWidth, view: innerWidth};
    }""")
    assert look["button"]["bg"] == ACCENT and look["button"]["color"] == "rgb(255, 255, 255)", look
    assert float(look["button"]["opacity"]) == 1 and look["button"]["height"] >= 44, look
    for field in ("select", "textarea"):
        assert look[field]["radius"] == "8px" and look[field]["border"] == "rgb(201, 194, 179)", look  # --line
        assert look[field]["width"] >= look["form"] - 1, look  # the form's whole width, as the import page's
    assert look["select"]["height"] >= 44 and look["summary"]["height"] >= 24 and look["summary"]["color"] == ACCENT, look
    assert look["page"] <= look["view"], look  # no sideways scroll
    # Sent with htmx: the answer replaces the form in place, in the page's language.
    button.click()
    answer = box.locator('[data-testid="report-answer"]')
    answer.wait_for(timeout=WAIT)
    assert {"vi": "Cảm ơn", "en": "Thank you"}[lang] in answer.inner_text()
    ctx.close()
