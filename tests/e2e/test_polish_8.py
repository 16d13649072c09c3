"""Real Chromium at phone (360×740, Vietnamese) and desktop (1280×800, English) size: the record
page's report form looks like the site's other forms (framed fields, a live button), and a ranked
game's room says before the first move that the clock is already running (polish-8)."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import HEIGHTS, _context, _login, _off_loop

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


def _ranked_room():
    """A ranked pairing's room (caro, the ranked rules): the game starts, and X's clock with it."""
    from caro.rooms import services as rooms
    from ranking import categories
    from tests.integration.ranking.builders import account

    x, o = account(display_name="Lan"), account(display_name="Minh")
    room = rooms.create_match_room(x, o, kind="caro", rules=dict(categories.BY_SLUG["caro"].rules), first_mover="host",
                                   move_time_ms=MOVE_MS, rated=True)
    return room, x, o


def _move(game_id, user, square):
    import uuid

    from caro.games import services as games
    from caro.games.models import Game

    game = Game.objects.get(pk=game_id)
    games.play_move(game.pk, user, square, game.ply + 1, uuid.uuid4())


MOVE_MS = 600_000  # a slow machine never runs the clock out during the test
FIRST_MOVE = {
    "vi": ("Đồng hồ đã chạy: hãy đi nước đầu tiên trong 10:00, nếu không, ván cờ bị hủy và điểm xếp hạng không đổi.",
           "Đồng hồ đã chạy: Minh có 10:00 để đi nước đầu tiên."),
    "en": ("The clock is already running: make your first move within 10:00, or the game is aborted and no rating changes.",
           "The clock is already running: Minh has 10:00 for their first move."),
}


@pytest.mark.parametrize("lang, width", BOTH)
def test_a_ranked_room_says_the_first_move_is_on_the_clock_until_both_have_moved(browser, live_server_url, lang, width):
    from tests.e2e.helpers import _open

    room, x, o = _off_loop(_ranked_room)
    ctx = _context(browser, lang, width)
    page = _open(ctx, live_server_url, x, room)
    note = page.locator('[data-testid="first-move-note"]')
    note.wait_for(state="visible", timeout=WAIT)
    mine, theirs = FIRST_MOVE[lang]
    assert note.inner_text() == mine
    # Under the status line, in the first screen: above the board on a phone, beside it on a desktop.
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("window.scrollY === 0")
    box = note.bounding_box()
    board = page.locator(".board").bounding_box()
    status = page.locator('[data-role="status"]').bounding_box()
    assert box["y"] >= status["y"] + status["height"] - 1 and box["y"] + box["height"] <= HEIGHTS[width], (box, status)
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    if width < 600:
        assert box["y"] + box["height"] <= board["y"], (box, board)
    else:
        assert box["x"] >= board["x"] + board["width"], (box, board)
    page.screenshot(path=f"/tmp/polish-8-first-move-{lang}-{width}.png")
    _off_loop(_move, room.current_game_id, x, "H8")
    page.wait_for_function("t => document.querySelector('[data-testid=\"first-move-note\"]').textContent.startsWith(t)",
                           arg=theirs, timeout=WAIT)
    _off_loop(_move, room.current_game_id, o, "H9")
    note.wait_for(state="hidden", timeout=WAIT)  # both have moved: a timeout now loses, said by nothing extra
    ctx.close()
