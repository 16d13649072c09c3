"""Real Chromium at phone (360×740, Vietnamese) and desktop (1280×800, English) size: rough edges
new-user trials found in the room and on the home page, one section each.

Positions and offers are made through the game services (what the socket calls), then the pages
are watched; every wait is for a condition, never for a fixed time.
"""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.guests import create_guest
from caro.games import services as games
from caro.games.models import Game
from caro.games.services import presence
from caro.rooms import services as rooms
from caro.rooms.models import Room
from tests.integration.helpers import legacy_room
from tests.e2e.helpers import HEIGHTS, _context, _long_game, _off_loop, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

PHONE_VI, DESKTOP_EN = ("vi", 360), ("en", 1280)
BOTH = [pytest.param(*PHONE_VI, id="vi-360"), pytest.param(*DESKTOP_EN, id="en-1280")]
MOVE_MS = 600_000  # a slow machine never runs a clock out during a test
WAIT = 30_000


# ------------------------------------------------------------------ helpers

def _play_now(game_id, squares, x_user, o_user):
    game = Game.objects.get(pk=game_id)
    for square in squares:
        game.refresh_from_db()
        games.play_move(game.pk, x_user if game.turn == "X" else o_user, square, game.ply + 1, uuid.uuid4())


# Two of the widest names a guest can be given (accounts.guests.generate_guest_name): on a phone a
# name this long takes two lines in the players' boxes, which pushes the board down. Random names
# made the layout checks below pass or fail by chance (the absence bar once covered the board's last
# row by 3 px); these are the worst case every time.
LONGEST_NAMES = ("NgựaNhanh9999", "RồngNhanh9998")


def _friend_room(squares=(), **options):
    """A friend room whose two guests, with the longest guest names, are seated (the host plays X),
    `squares` played in order."""
    def make():
        x, o = create_guest(LONGEST_NAMES[0]), create_guest(LONGEST_NAMES[1])
        room = rooms.create_room(x, move_time_ms=MOVE_MS, **options)
        rooms.join(room, o)
        _play_now(room.current_game_id, squares, x, o)
        return room, x, o

    return _off_loop(make)


def _local_room(preset="caro-vn", squares=()):
    def make():
        user = create_guest()
        room = legacy_room(user, "local", preset)
        _play_now(room.current_game_id, squares, user, user)
        return room, user

    return _off_loop(make)


def _status(page):
    return page.inner_text('[data-role="status"]')


# ------------------------------------------------------------------ 1. an incoming offer is seen at once

# Whether an element is wholly inside the window and the topmost thing at its centre (nothing covers it).
ON_SCREEN = """el => {
  const r = el.getBoundingClientRect();
  const inside = r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return inside && el.contains(top);
}"""


def _answers_on_first_screen(page, bar, labels, width):
    """Each of `labels` (`{choice: its words}`) is a button of the bar of things to answer, wholly
    on the first screen; on a phone the bar leaves the board uncovered."""
    assert page.evaluate("scrollY") == 0
    for choice, label in labels.items():
        button = bar.locator(f'[data-testid="choice-{choice}"]')
        assert button.inner_text().strip() == label
        assert button.evaluate(ON_SCREEN), f"{label!r} is not on the first screen"
    if width < 900:
        board = page.locator(".board").bounding_box()
        assert bar.bounding_box()["y"] >= board["y"] + board["height"] - 1, "the bar covers the board"

OFFER_WORDS = {
    "draw": {"vi": ("xin hòa.", "Đồng ý hòa", "Không hòa"), "en": ("offers a draw.", "Accept the draw", "Decline the draw")},
    "undo": {"vi": ("xin đi lại nước cuối", "Cho đi lại", "Không cho đi lại"),
             "en": ("asks to take back", "Allow the take-back", "Refuse the take-back")},
}


@pytest.mark.parametrize("lang, width", BOTH)
@pytest.mark.parametrize("kind", ["draw", "undo"])
def test_an_incoming_offer_and_its_answers_are_on_the_first_screen(browser, live_server_url, kind, lang, width):
    """The opponent offers a draw or asks to take back: the player, looking at the top of the room,
    sees the offer and both answers without scrolling (on a phone a bar at the bottom of the screen,
    over no square of the board), answers it, and the bar goes away."""
    room, x, o = _friend_room(["H8", "H9", "I8"], takeback=True)  # O to move; X has a move to take back
    # a draw: O offers, X answers; a take-back: X asks (for I8), O answers
    asking, answering = (o, x) if kind == "draw" else (x, o)
    ctx_answer, ctx_ask = _context(browser, lang, width), _context(browser, "en", 1280)
    try:
        page = _open(ctx_answer, live_server_url, answering, room)
        other = _open(ctx_ask, live_server_url, asking, room)
        page.evaluate("scrollTo(0, 0)")
        bar = page.locator('[data-testid="incoming-offer"]')
        assert bar.is_hidden()
        offer = games.offer_draw if kind == "draw" else games.request_undo
        _off_loop(offer, room.current_game_id, asking)
        bar.wait_for(state="visible", timeout=WAIT)
        note, accept, decline = OFFER_WORDS[kind][lang]
        assert f"{asking.public_name} {note}" in bar.inner_text()
        _answers_on_first_screen(page, bar, {f"accept_{kind}": accept, f"decline_{kind}": decline}, width)
        # only the answers are in the bar: the other choices stay under the board
        assert bar.locator("button").count() == 2
        assert page.locator('[data-role="offers"] [data-testid="choice-leave"]').count() == 1
        bar.locator(f'[data-testid="choice-accept_{kind}"]').click()
        bar.wait_for(state="hidden", timeout=WAIT)
        if kind == "draw":
            for each in (page, other):
                each.wait_for_selector('[data-role="status"][data-result="finished"]', timeout=WAIT)
        else:
            other.wait_for_selector('.sq[data-sq="I8"][data-stone=""]', timeout=WAIT)  # taken back
        assert page.evaluate("document.body.style.paddingBottom") == ""
    finally:
        ctx_answer.close()
        ctx_ask.close()


# ------------------------------------------------------------------ 2. spectators read the winner's name

@pytest.mark.parametrize("lang, width, how, words", [
    pytest.param("vi", 360, "resign", "{name} (X) thắng: đối thủ chịu thua.", id="vi-360-resign"),
    pytest.param("en", 1280, "five", "{name} (X) won with 5 in a row", id="en-1280-five"),
])
def test_a_spectator_reads_the_winner_s_name_in_the_result(browser, live_server_url, lang, width, how, words):
    room, x, o = _friend_room(["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9"])
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, None, room)
        if how == "resign":
            _off_loop(games.resign, room.current_game_id, o)
        else:
            _off_loop(_play_now, room.current_game_id, ["L8"], x, o)
        page.wait_for_selector('[data-role="status"][data-result="finished"]', timeout=WAIT)
        assert words.format(name=x.public_name) in _status(page)
    finally:
        ctx.close()


# ------------------------------------------------------------------ 3. one device: seats by side

@pytest.mark.parametrize("lang, width, preset, names", [
    pytest.param("vi", 360, "caro-vn", ("Quân X", "Quân O"), id="vi-360-caro"),
    pytest.param("en", 1280, "reversi", ("Black side", "White side"), id="en-1280-reversi"),
])
def test_two_players_on_one_device_see_each_seat_named_by_its_side(browser, live_server_url, lang, width, preset, names):
    room, user = _local_room(preset)
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, user, room)
        page.wait_for_function("document.querySelector('[data-role=name-X]').textContent !== ''")
        assert (page.inner_text('[data-role="name-X"]'), page.inner_text('[data-role="name-O"]')) == names
        assert user.public_name not in page.inner_text(".players")
    finally:
        ctx.close()


def test_a_game_won_on_one_device_names_the_side_alone(browser, live_server_url):
    room, user = _local_room(squares=["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9"])
    ctx = _context(browser, *PHONE_VI)
    try:
        page = _open(ctx, live_server_url, user, room)
        page.click('.sq[data-sq="L8"]')
        page.wait_for_selector('[data-role="status"][data-result="finished"]', timeout=WAIT)
        assert _status(page).startswith("X thắng với 5 quân liên tiếp")
    finally:
        ctx.close()


# ------------------------------------------------------------------ 4. the small switches

# How many lines the words of an element take (its text nodes only: a checkbox is no line).
TEXT_LINES = """el => {
  const tops = new Set();
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    if (!walk.currentNode.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(walk.currentNode);
    for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
  }
  return tops.size;
}"""

@pytest.mark.parametrize("lang, width", BOTH)
def test_a_spectator_has_no_confirm_switch_and_each_switch_keeps_one_line(browser, live_server_url, lang, width):
    room, x, _o = _friend_room(["H8", "H9"])
    ctx_x, ctx_w = _context(browser, lang, width), _context(browser, lang, width)
    try:
        player = _open(ctx_x, live_server_url, x, room, one_tap=False)
        watcher = _open(ctx_w, live_server_url, None, room, one_tap=False)
        for page, switches in ((player, (".confirm-toggle", ".sound-toggle")), (watcher, (".sound-toggle",))):
            for switch in switches:
                label = page.locator(switch)
                assert label.is_visible()
                assert label.evaluate(TEXT_LINES) == 1, f"{label.inner_text()!r} takes more than one line"
        assert watcher.locator(".confirm-toggle").is_hidden()
    finally:
        ctx_x.close()
        ctx_w.close()


# ------------------------------------------------------------------ 5. the take-back checkbox

@pytest.mark.parametrize("lang, width", BOTH)
def test_the_take_back_checkbox_stands_beside_its_words(browser, live_server_url, lang, width):
    ctx = _context(browser, lang, width)
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/")
        page.click(".room-options summary")
        box = page.locator('input[name="takeback"]').bounding_box()
        words = page.locator('input[name="takeback"]').evaluate("""el => {
          const range = document.createRange();
          range.selectNodeContents(el.closest('label'));
          range.setStartAfter(el);
          const r = range.getClientRects()[0] && [...range.getClientRects()].find(r => r.width > 0);
          return {x: r.left, y: r.top, height: r.height};
        }""")
        assert box["x"] + box["width"] <= words["x"], "the checkbox is not left of its words"
        middle = box["y"] + box["height"] / 2
        assert words["y"] <= middle <= words["y"] + words["height"], "the checkbox is not on the first line of its words"
        page.locator('label:has(input[name="takeback"])').click()  # the words tick it
        assert page.is_checked('input[name="takeback"]')
    finally:
        ctx.close()


# ------------------------------------------------------------------ 6. a wrong room code

@pytest.mark.parametrize("lang, width, reason", [
    pytest.param("vi", 360, "Không có phòng nào mang mã KKK KKK", id="vi-360"),
    pytest.param("en", 1280, "No room has the code KKK KKK", id="en-1280"),
])
def test_a_wrong_room_code_stays_in_its_box_with_the_reason_beside_it(browser, live_server_url, lang, width, reason):
    room, _x, _o = _friend_room()
    ctx = _context(browser, lang, width)
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/")
        page.fill("#id_code", "kkk kkk")
        page.click('[data-testid="join-code"]')
        error = page.locator('[data-testid="join-error"]')
        error.wait_for(timeout=WAIT)
        assert reason in error.inner_text().replace("\xa0", " ")
        assert page.input_value("#id_code") == "kkk kkk", "the typed code is gone"
        assert page.locator(".messages").count() == 0, "the reason is at the top of the page"
        field, said = page.locator("#id_code").bounding_box(), error.bounding_box()
        assert 0 <= said["y"] - (field["y"] + field["height"]) <= 24, "the reason is not next to the box"
        page.wait_for_function(f"({ON_SCREEN})(document.querySelector('[data-testid=join-error]'))", timeout=WAIT)
        # corrected in place, it opens the room
        page.fill("#id_code", room.display_code)
        page.click('[data-testid="join-code"]')
        page.wait_for_url(re.compile(rf"/r/{room.code}/$"), timeout=WAIT)
    finally:
        ctx.close()


# ------------------------------------------------------------------ 7. the computer's choices fit their boxes

# Every visible select that is narrower than its own longest choice (cut off), with both widths.
CUT_SELECTS = """els => els.filter(s => s.offsetParent).map(s => {
  const copy = s.cloneNode(true);
  copy.style.cssText = 'width: auto; min-width: 0; max-width: none; position: absolute; visibility: hidden';
  s.parentElement.append(copy);
  const need = copy.getBoundingClientRect().width;
  copy.remove();
  return {name: s.name, need, have: s.getBoundingClientRect().width};
}).filter(s => s.have + 0.5 < s.need)"""


@pytest.mark.parametrize("lang, width", BOTH + [pytest.param("vi", 1280, id="vi-1280")])
def test_the_computer_choices_show_whole_in_their_boxes(browser, live_server_url, lang, width):
    ctx = _context(browser, lang, width)
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/")
        form = page.locator('form:has([data-testid="play-computer"])')
        assert form.locator("select").count() == 2
        assert form.locator("select").evaluate_all(CUT_SELECTS) == []
        page.select_option('select[name="side"]', "O")
        assert form.locator("select").evaluate_all(CUT_SELECTS) == []
    finally:
        ctx.close()


# ------------------------------------------------------------------ 8. the move list shows whole rows

# The rows of the move list cut by its box's edges (neither wholly in nor wholly out of view), and
# whether the last row is wholly in view.
CUT_ROWS = """list => {
  const top = list.getBoundingClientRect().top + list.clientTop;
  const bottom = top + list.clientHeight;
  const rows = [...list.children].map(li => li.getBoundingClientRect());
  const cut = rows.filter(r => r.bottom > top + 0.5 && r.top < bottom - 0.5
                               && (r.top < top - 0.5 || r.bottom > bottom + 0.5)).length;
  const last = rows[rows.length - 1];
  return {cut, lastInView: last.top >= top - 0.5 && last.bottom <= bottom + 0.5, scrolled: list.scrollTop > 0};
}"""


@pytest.mark.parametrize("lang, width", BOTH)
def test_the_move_list_scrolled_to_the_latest_move_shows_whole_rows(browser, live_server_url, lang, width):
    moves = _long_game(123)
    room, user = _local_room(squares=moves[:121])
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, user, room)
        page.wait_for_function("document.querySelectorAll('.move-list li').length === 61")
        assert page.eval_on_selector(".move-list", CUT_ROWS) == {"cut": 0, "lastInView": True, "scrolled": True}
        for square in moves[121:]:  # a new row comes: scrolled again, still whole rows
            page.click(f'.sq[data-sq="{square}"]')
            page.wait_for_selector(f'.sq[data-sq="{square}"]:not([data-stone=""])', timeout=WAIT)  # played
        page.wait_for_function("document.querySelectorAll('.move-list li').length === 62", timeout=WAIT)
        assert page.eval_on_selector(".move-list", CUT_ROWS) == {"cut": 0, "lastInView": True, "scrolled": True}
        if width >= 900:  # beside the board, on the first screen
            frame = page.locator(".move-list").bounding_box()
            assert frame["y"] + frame["height"] <= HEIGHTS[width]
    finally:
        ctx.close()


# ------------------------------------------------------------------ 9. a rematch can be declined

def _rematch_offer(game_id):
    return Game.objects.values_list("rematch_offer", flat=True).get(pk=game_id)


def test_a_declined_rematch_is_named_to_the_asker_who_may_ask_again(browser, live_server_url):
    """X asks for a rematch; O, who sees "Accept the rematch" and "Decline", declines: X reads who
    declined and may ask again, O's buttons are back to a plain "Play again"."""
    room, x, o = _friend_room(["H8", "H9"])
    game_id = room.current_game_id
    _off_loop(games.resign, game_id, o)
    ctx_x, ctx_o = _context(browser, *PHONE_VI), _context(browser, *DESKTOP_EN)
    try:
        asker = _open(ctx_x, live_server_url, x, room)
        answerer = _open(ctx_o, live_server_url, o, room)
        again, decline, said = ('[data-role="play-again"]', '[data-testid="decline-rematch"]',
                                '[data-role="rematch-note"]')
        asker.locator(again).wait_for(state="visible", timeout=WAIT)
        assert answerer.locator(decline).is_hidden()  # nothing to decline yet
        asker.click(again)
        answerer.locator(decline).wait_for(state="visible", timeout=WAIT)
        assert answerer.inner_text(again).strip() == "Accept the rematch"
        assert answerer.inner_text(decline).strip() == "Decline"
        answerer.click(decline)

        asker.wait_for_function("name => document.querySelector('[data-role=rematch-note]').textContent"
                                " === `${name} không muốn đánh lại.`", arg=o.public_name, timeout=WAIT)
        assert asker.inner_text(again).strip() == "Đánh lại" and asker.is_enabled(again)
        answerer.locator(decline).wait_for(state="hidden", timeout=WAIT)
        assert answerer.inner_text(again).strip() == "Play again"
        assert answerer.inner_text(said).strip() == ""
        assert _off_loop(_rematch_offer, game_id) == ""
        # what a page that opens now reads: no offer
        asker.reload()
        asker.wait_for_selector('.room[data-connected="1"]')
        assert asker.inner_text(again).strip() == "Đánh lại" and asker.is_enabled(again)

        asker.click(again)  # asked again: the answerer may answer again, after a reload too
        answerer.locator(decline).wait_for(state="visible", timeout=WAIT)
        answerer.reload()
        answerer.wait_for_selector('.room[data-connected="1"]')
        assert answerer.locator(decline).is_visible() and answerer.is_enabled(decline)
        answerer.click(again)  # accepted this time: the next game starts for both
        for page in (asker, answerer):
            page.wait_for_function("document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length === 0",
                                   timeout=WAIT)
            page.locator(decline).wait_for(state="hidden", timeout=WAIT)
            assert page.inner_text(said).strip() == ""
    finally:
        ctx_x.close()
        ctx_o.close()


# ------------------------------------------------------------------ 10. the absence choices are seen at once

ABSENCE_WORDS = {"vi": ("không quay lại kịp.", ("Chờ thêm 1 phút", "Nhận thắng", "Xử hòa")),
                 "en": ("did not come back in time.", ("Wait one more minute", "Claim the win", "Call it a draw"))}


def _grace_runs_out(game_id):
    """The absent player's grace period ends now (brought forward in the database, then enforced by
    the service the Celery task calls)."""
    Game.objects.filter(pk=game_id).update(absence_deadline=timezone.now() - timedelta(seconds=1))
    return presence.enforce_absence(game_id)


@pytest.mark.parametrize("lang, width", BOTH)
def test_the_choices_about_an_opponent_who_did_not_come_back_are_on_the_first_screen(browser, live_server_url, lang, width):
    """O closes their page and does not come back: X, looking at the top of the room, sees what
    happened and the three choices (wait, claim the win, call it a draw) without scrolling, on a
    phone in the bar at the bottom of the screen; waiting one more minute puts the bar away."""
    room, x, o = _friend_room(["H8", "H9", "I8"])  # O to move
    ctx_x, ctx_o = _context(browser, lang, width), _context(browser, "en", 1280)
    try:
        page = _open(ctx_x, live_server_url, x, room)
        away = _open(ctx_o, live_server_url, o, room)
        away.close()
        page.locator('[data-testid="absence"]').wait_for(state="visible", timeout=WAIT)  # the countdown
        assert _off_loop(_grace_runs_out, room.current_game_id)
        page.evaluate("scrollTo(0, 0)")
        bar = page.locator('[data-testid="incoming-offer"]')
        bar.wait_for(state="visible", timeout=WAIT)
        words, labels = ABSENCE_WORDS[lang]
        page.locator('[data-testid="absence-choices"] [data-testid="choice-claim_draw"]').wait_for(timeout=WAIT)
        assert f"{o.public_name} {words}" in bar.inner_text()
        assert page.locator('[data-testid="absence"]').is_hidden()  # said once, in the bar
        _answers_on_first_screen(page, bar, dict(zip(("wait", "claim_win", "claim_draw"), labels)), width)
        assert page.locator('[data-role="offers"] [data-testid^="choice-"]').count() == 1  # leaving stays below
        bar.locator('[data-testid="choice-wait"]').click()
        bar.wait_for(state="hidden", timeout=WAIT)
        page.locator('[data-testid="absence"]').wait_for(state="visible", timeout=WAIT)  # a new countdown
        assert page.evaluate("document.body.style.paddingBottom") == ""
    finally:
        ctx_x.close()
        ctx_o.close()


# ------------------------------------------------------------------ 11. the clock choices are read whole

# The words of every clock choice of the friend-room form that are not shown whole, in the form's
# width and the window's: a choice in a list box (select) that is narrower than the choice, or a
# choice's label (with its words) that overflows or sticks out of its box.
CUT_CLOCK_CHOICES = """form => {
  const cut = [];
  const box = form.getBoundingClientRect();
  const outside = r => r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.right > innerWidth + 0.5;
  for (const input of form.querySelectorAll('[name="time"]')) {
    if (input.tagName === 'SELECT') {
      const have = input.getBoundingClientRect().width;
      for (const option of input.options) {
        const copy = input.cloneNode(false);
        copy.append(option.cloneNode(true));
        copy.style.cssText = 'width: auto; min-width: 0; max-width: none; position: absolute; visibility: hidden';
        input.parentElement.append(copy);
        const need = copy.getBoundingClientRect().width;
        copy.remove();
        if (need > have + 0.5 || outside(input.getBoundingClientRect())) cut.push(option.text);
      }
      continue;
    }
    const label = input.closest('label');
    const parts = [label, ...label.querySelectorAll('span')];
    if (parts.some(el => el.scrollWidth > el.clientWidth) || outside(label.getBoundingClientRect())) {
      cut.push(label.textContent.trim());
    }
  }
  return cut;
}"""


def _narrow_context(browser, lang, width):
    if width in HEIGHTS:
        return _context(browser, lang, width)
    return browser.new_context(locale={"vi": "vi-VN", "en": "en-US"}[lang], viewport={"width": width, "height": 640},
                               device_scale_factor=1, has_touch=True, is_mobile=True)


@pytest.mark.parametrize("lang, width", [pytest.param("vi", 360, id="vi-360"), pytest.param("vi", 320, id="vi-320"),
                                         pytest.param("en", 320, id="en-320"), pytest.param("en", 1280, id="en-1280")])
def test_every_clock_choice_of_a_friend_room_is_read_whole(browser, live_server_url, lang, width):
    ctx = _narrow_context(browser, lang, width)
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/")
        page.click(".room-options summary")
        form = page.locator('form:has([data-testid="create-room"])')
        assert form.evaluate(CUT_CLOCK_CHOICES) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # every clock on offer is a choice, and the one chosen is the room's
        radios = form.locator('input[name="time"]')
        assert radios.count() == 14
        assert form.locator('input[name="time"]:checked').get_attribute("value") == ""  # the default
        label = form.locator('label:has(input[name="time"][value="3+2"])')
        assert label.inner_text().strip() == {"vi": "3 phút, cộng 2 giây mỗi nước", "en": "3 min + 2 s per move"}[lang]
        label.click()  # the words choose it
        assert form.locator('input[name="time"]:checked').get_attribute("value") == "3+2"
        page.click('[data-testid="create-room"]')
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"), timeout=WAIT)
        code = page.url.rstrip("/").rsplit("/", 1)[1]
        game = _off_loop(lambda: Room.objects.select_related("current_game").get(code=code).current_game)
        assert (game.move_time_ms, game.bank_ms, game.increment_ms) == (0, 180_000, 2_000)
    finally:
        ctx.close()


# ------------------------------------------------------------------ the chat box's hint

# The width of the input's placeholder in its own font, against the room for text inside the box.
_PLACEHOLDER_FITS = """(el) => {
  const style = getComputedStyle(el);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [ctx.measureText(el.placeholder).width, room, el.placeholder];
}"""


@pytest.mark.parametrize("lang,width", [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 360, id="en-360")])
def test_the_chat_box_hint_is_read_whole(browser, live_server_url, lang, width):
    room, x, _o = _friend_room(["H8"])
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, x, room)
        box = page.locator('[data-testid="chat-input"]')
        page.wait_for_function("el => el.placeholder.length > 0", arg=box.element_handle())
        text_px, room_px, hint = box.evaluate(_PLACEHOLDER_FITS)
        assert text_px <= room_px, f"{hint!r} is {text_px:.0f} px in a {room_px:.0f} px box"
    finally:
        ctx.close()


# ------------------------------------------------------------------ 12. an old computer room's "Play again"

@pytest.mark.parametrize("lang, width, kind, preset, want", [
    pytest.param("vi", 360, "computer", "renju-rif", "/choi-may/?preset=renju-rif&size=15&win_length=5&level=medium&side=X",
                 id="vi-360-computer"),
    pytest.param("en", 1280, "local", "caro-vn", "/choi-hai-nguoi/?preset=caro-vn&size=15&win_length=5", id="en-1280-local"),
])
def test_play_again_in_an_old_device_room_opens_the_device_page_with_the_same_rules_and_level(
        browser, live_server_url, lang, width, kind, preset, want):
    """A computer or one-device room the server made before such games moved to the device: its
    "Play again" opens the device page with the room's rules and level (it answered with the
    on_device refusal), and the game there is played under those rules."""
    def make():
        user = create_guest()
        room = legacy_room(user, kind, preset, level="medium")
        games.resign(room.current_game_id, user)
        return room, user

    room, user = _off_loop(make)
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, user, room)
        again = page.locator('[data-role="play-again"]')
        again.wait_for(state="visible", timeout=WAIT)
        assert again.is_enabled()
        again.click()
        page.wait_for_url(re.compile(r"/choi-(may|hai-nguoi)/\?"), timeout=WAIT)
        assert page.url.startswith(live_server_url + want)
        page.wait_for_selector('[data-testid="device-game"] .board .sq')
        line = page.inner_text('[data-role="rules-line"]')
        assert ("Renju" in line and "RIF" in line) if preset == "renju-rif" else "15×15" in line
        if kind == "computer":
            assert page.input_value('[data-role="level"]') == "medium"
        assert page.locator('[data-offline-line="refused"]').count() == 0
        assert _off_loop(lambda: Game.objects.filter(rematch_of_id=room.current_game_id).count()) == 0
    finally:
        ctx.close()


# ------------------------------------------------------------------ the stone preview under a pointer

# What the square's ::before draws (the preview of a stone under the pointer), by computed style.
PREVIEW = "sq => getComputedStyle(sq, '::before').content"


@pytest.mark.parametrize("width", [360, 1280])
def test_the_stone_preview_under_the_pointer_is_for_a_mouse_only(browser, live_server_url, width):
    """On a touch screen :hover sticks to the last square touched, which left a grey dot under the
    finger after a tap or the zoom button (new-user trial); a mouse still sees the preview."""
    room, user = _local_room()
    ctx = _context(browser, "vi", width)
    try:
        page = _open(ctx, live_server_url, user, room)
        square = page.locator('.sq[data-sq="D4"]')
        page.wait_for_selector(".my-turn")
        square.hover()
        preview = square.evaluate(PREVIEW)
        assert (preview == "none") if width < 600 else (preview not in ("none", "normal")), preview
    finally:
        ctx.close()
