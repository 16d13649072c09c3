"""Real Chromium at phone (360×740) and desktop (1280×800) size, in Vietnamese and English: the
layout of the home page and the room, the board's marks, honest messages, the tab title and the
move list (issue 13). Screenshots of the main pages go to test-results/screens/ (git-ignored).

Positions are prepared through the game services (the same calls the socket makes), then the page
is opened; nothing here waits for a fixed time to decide a result.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest

from accounts.guests import create_guest
from caro.engine.reversi import Board as ReversiBoard
from caro.games import services as games
from caro.games import snapshot
from caro.games.models import Game
from caro.rooms import services as rooms
from tests.e2e.helpers import HEIGHTS, _context, _login, _long_game, _off_loop, _open
from tests.integration.helpers import legacy_room
from tests.integration.ranking.builders import account

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
# A behaviour that is the same in both languages and at both widths is checked once in each: the
# phone in Vietnamese and the desktop in English (PAIR); a layout whose words' lengths matter on a
# phone is checked there in both languages too (WIDE_AND_WORDY). (All four took twice the time
# for checks that the other two combinations added nothing to.)
PAIR = [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")]
WIDE_AND_WORDY = PAIR + [pytest.param("en", 360, id="en-360")]
NO_OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


# ------------------------------------------------------------------ helpers

def _play(room, squares, x_user, o_user=None):
    _off_loop(_play_now, room, squares, x_user, o_user)


def _play_now(room, squares, x_user, o_user=None):
    """Play `squares` in order (X first) in the room's current game, through the services."""
    game = Game.objects.get(pk=room.current_game_id)
    for square in squares:
        game.refresh_from_db()
        user = x_user if game.turn == "X" or o_user is None else o_user
        games.play_move(game.pk, user, square, game.ply + 1, uuid.uuid4())


def _local_room(preset="caro-vn", squares=(), **rules):
    return _off_loop(_local_room_now, preset, squares, **rules)


def _local_room_now(preset, squares, **rules):
    user = create_guest()
    room = legacy_room(user, "local", preset, **rules)
    _play_now(room, squares, user)
    return room, user


def _friend_room(squares=()):
    return _off_loop(_friend_room_now, squares)


def _friend_room_now(squares):
    x, o = create_guest(), create_guest()
    room = rooms.create_room(x)
    rooms.join(room, o)
    _play_now(room, squares, x, o)
    return room, x, o


def _box(page, selector):
    return page.locator(selector).first.bounding_box()


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _status(page):
    return page.inner_text('[data-role="status"]')


# A move list row as text, "12. H8 I9", from its parts (not innerText, which depends on layout).
ROW_TEXT = "els => els.map(li => [...li.children].map(c => c.textContent.trim()).join(' '))"

# Reversi: after the 8th move (White a3) Black has no legal move and passes; White moves again.
REVERSI_TO_PASS = ["c4", "c3", "f5", "b4", "a4", "a5", "b2", "a3"]


# ------------------------------------------------------------------ 3 and screenshots

@pytest.mark.parametrize("lang, width", WIDE_AND_WORDY)
def test_home_room_and_finished_game_fit_the_width(browser, live_server_url, lang, width):
    """Point 3: nothing overflows sideways; the screenshot artifacts of the main pages."""
    ctx = _context(browser, lang, width)
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/")
        assert page.evaluate(NO_OVERFLOW) <= 0, "the home page scrolls sideways"
        _shot(page, f"home-{lang}-{width}")

        room, x, o = _friend_room(["H8", "I9", "I8", "J8", "G9", "H10"])
        page = _open(ctx, live_server_url, x, room)
        assert page.evaluate(NO_OVERFLOW) <= 0, "the room scrolls sideways"
        _shot(page, f"room-midgame-{lang}-{width}")

        finished, owner = _local_room(squares=["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9"])
        page = _open(ctx, live_server_url, owner, finished)
        page.click('.sq[data-sq="L8"]')
        page.wait_for_selector('[data-role="status"][data-result="finished"]')
        assert page.evaluate(NO_OVERFLOW) <= 0, "the finished game scrolls sideways"
        _shot(page, f"finished-{lang}-{width}")
    finally:
        ctx.close()


# ------------------------------------------------------------------ 4

@pytest.mark.parametrize("lang, width", PAIR)
def test_board_and_controls_fit_one_screen(browser, live_server_url, lang, width):
    """Point 4: on a desktop the board is sized to the viewport height with the controls and the
    move list beside it; on a phone the board takes the width and the controls sit right under it."""
    room, x, _o = _friend_room(["H8", "I9", "I8"])
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, x, room)
        page.wait_for_selector('[data-role="resign"]:visible')
        height = HEIGHTS[width]
        board = _box(page, ".board")
        controls = _box(page, '[data-role="controls"]')
        resign = _box(page, '[data-role="resign"]')
        assert resign["y"] + resign["height"] <= height, "resign is below the first screen"
        if width >= 900:
            moves = _box(page, ".moves-box")
            assert board["y"] + board["height"] <= height
            assert board["height"] >= height * 0.8, "the board uses the viewport height"
            assert controls["x"] >= board["x"] + board["width"], "controls stand beside the board"
            assert moves["x"] >= board["x"] + board["width"] and moves["y"] < height
        else:
            assert board["width"] >= width - 16, "the board takes the phone's width"
            gap = controls["y"] - (board["y"] + board["height"])
            assert 0 <= gap <= 16, f"the controls are {gap}px under the board"
    finally:
        ctx.close()


# ------------------------------------------------------------------ 5

@pytest.mark.parametrize("lang, width", PAIR)
def test_a_19_board_can_be_zoomed_on_a_phone(browser, live_server_url, lang, width):
    """Point 5: 19×19 squares are too small on a phone: a zoom button makes them tappable, the board
    scrolls in its box (not the page), the coordinates stay visible and a tap lands on its square."""
    room, user = _local_room(size=19)
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, user, room, one_tap=False)
        zoom = page.locator('[data-role="zoom"]')
        square = lambda: _box(page, '.sq[data-sq="S19"]')["width"]  # noqa: E731
        if width >= 900:
            assert not zoom.is_visible() and square() >= 28
            return
        assert square() < 20
        zoom.tap()
        page.wait_for_selector(".room.zoomed")
        assert square() >= 28
        assert page.evaluate(NO_OVERFLOW) <= 0, "the page itself must not scroll sideways"
        page.eval_on_selector('[data-role="board-wrap"]', "w => { w.scrollLeft = w.scrollWidth; w.scrollTop = w.scrollHeight; }")
        wrap = _box(page, '[data-role="board-wrap"]')
        letter = _box(page, ".board thead th:last-child")
        number = _box(page, ".board tbody tr:last-child th")
        assert abs(letter["y"] - wrap["y"]) <= 2, "the letters stay at the top of the scrolled board"
        assert abs(number["x"] - wrap["x"]) <= 2, "the numbers stay at the left of the scrolled board"
        assert page.inner_text(".board thead th:last-child") == "S"
        page.locator('.sq[data-sq="S19"]').tap()
        page.wait_for_selector('.sq[data-sq="S19"].ghost')  # the first tap previews exactly there
        page.tap('[data-role="confirm"]')
        page.wait_for_selector('.sq[data-sq="S19"][data-stone="X"]')
        _shot(page, f"zoomed-19-{lang}-{width}")
    finally:
        ctx.close()


# ------------------------------------------------------------------ 6

@pytest.mark.parametrize("lang, rules, squares, win, expected", [
    ("vi", {"win_length": 4}, ["H8", "H9", "I8", "I9", "J8", "J9"], "K8",
     "X thắng với 4 quân liên tiếp (luật từ 4 quân trở lên, không bị chặn hai đầu)"),
    ("en", {"win_length": 4}, ["H8", "H9", "I8", "I9", "J8", "J9"], "K8",
     "X won with 4 in a row (4 or more to win, not blocked at both ends)"),
    ("en", {"preset": "freestyle"}, ["H8", "H9", "I8", "I9", "J8", "J9", "L8", "L9", "M8", "M9"], "K8",
     "X won with 6 in a row (5 or more to win)"),
    ("vi", {"preset": "caro-exact", "win_length": 6}, ["C3", "C4", "D3", "D4", "E3", "E4", "F3", "F4", "G3", "G4"], "H3",
     "X thắng với 6 quân liên tiếp (luật đúng 6 quân, không bị chặn hai đầu)"),
])
def test_the_win_message_says_the_real_count_and_rule(browser, live_server_url, lang, rules, squares, win, expected):
    """Point 6: a four-in-a-row game does not say 5, nor does a six."""
    rules = dict(rules)
    room, user = _local_room(rules.pop("preset", "caro-vn"), squares, **rules)
    ctx = _context(browser, lang, 1280)
    try:
        page = _open(ctx, live_server_url, user, room)
        page.click(f'.sq[data-sq="{win}"]')
        page.wait_for_selector('[data-role="status"][data-result="finished"]')
        assert expected in _status(page)
    finally:
        ctx.close()


# ------------------------------------------------------------------ 7

@pytest.mark.parametrize("lang, expected", [("vi", "J8 là nước cấm của X: đôi ba"),
                                            ("en", "J8 is a foul point for X: double-three")])
def test_clicking_a_renju_foul_point_says_why(browser, live_server_url, lang, expected):
    """Point 7: J8 would make two open threes for X (H8-I8-J8 and J8-J9-J10)."""
    room, user = _local_room("renju", ["H8", "A1", "I8", "A3", "J9", "A5", "J10", "A7"])
    assert snapshot.public_state(Game.objects.get(pk=room.current_game_id))["fouls"].get("J8") == "double-three"
    ctx = _context(browser, lang, 1280)
    try:
        page = _open(ctx, live_server_url, user, room)
        page.wait_for_selector('.sq[data-sq="J8"].foul')
        page.click('.sq[data-sq="J8"]')
        page.wait_for_function("document.querySelector('[data-role=note]').textContent.length > 0")
        assert expected in page.inner_text('[data-role="note"]')
        assert page.get_attribute('.sq[data-sq="J8"]', "data-stone") == ""
        assert page.is_visible('[data-role="note"]')
        _shot(page, f"renju-foul-{lang}-1280")
    finally:
        ctx.close()


# ------------------------------------------------------------------ 8

@pytest.mark.parametrize("lang, words", [("vi", ("đang chơi", "xem")), ("en", ("are playing", "watches"))])
def test_once_both_seats_are_taken_the_room_says_who_plays(browser, live_server_url, lang, words):
    """Point 8: no more "a free seat goes to the first who takes it" once the seats are full."""
    room, x, o = _friend_room(["H8"])
    ctx = _context(browser, lang, 1280)
    try:
        page = _open(ctx, live_server_url, None, room, one_tap=False)  # a newcomer
        hint = page.inner_text('[data-role="watch-hint"]')
        assert x.public_name in hint and o.public_name in hint
        assert all(word in hint for word in words)
        assert not re.search(r"first|đầu tiên|ghế trống", hint)
        assert page.locator('[data-testid="take-seat"]').count() == 0
    finally:
        ctx.close()


def _resigned_friend_room():
    room, x, o = _friend_room_now(["H8", "A1"])
    games.resign(room.current_game_id, o)
    return room, x, o


@pytest.mark.parametrize("lang, words", [("vi", "đã kết thúc"), ("en", "is over")])
def test_after_the_game_ended_the_room_no_longer_says_they_are_playing(browser, live_server_url, lang, words):
    """A newcomer to a room whose game is over reads that it is over, not "X and O are playing"."""
    room, x, o = _off_loop(_resigned_friend_room)
    ctx = _context(browser, lang, 1280)
    try:
        page = _open(ctx, live_server_url, None, room, one_tap=False)
        page.wait_for_selector('[data-role="status"][data-result="finished"]')
        hint = page.inner_text('[data-role="watch-hint"]')
        assert x.public_name in hint and o.public_name in hint and words in hint
        assert not re.search(r"are playing|đang chơi", hint)
    finally:
        ctx.close()


def _resigned_room_now(preset):
    """A friend room of `preset` whose game the second mover resigned after one move each:
    (room, first mover, second mover)."""
    host, guest = create_guest(), create_guest()
    room = rooms.create_room(host, preset)
    rooms.join(room, guest)
    game = Game.objects.get(pk=room.current_game_id)
    first = host if game.side_of_user(host) == "X" else guest
    second = guest if first is host else host
    opening = ["f5", "d6"] if preset == "reversi" else ["H8", "A1"]
    for ply, (user, square) in enumerate(zip((first, second), opening), start=1):
        games.play_move(game.pk, user, square, ply, uuid.uuid4())
    games.resign(game.pk, second)
    return room, first, second


@pytest.mark.parametrize("preset, lang, width, words", [("caro-vn", "vi", 360, "muốn đánh lại"),
                                                        ("reversi", "en", 1280, "wants to play again")])
def test_the_rematch_note_names_the_player_who_asked(browser, live_server_url, preset, lang, width, words):
    """Like a draw offer's note, the rematch note names the player ("Lan wants to play again."),
    not their mark or colour."""
    room, first, second = _off_loop(_resigned_room_now, preset)
    ctx_first, ctx_second = _context(browser, lang, width), _context(browser, lang, width)
    try:
        page_first = _open(ctx_first, live_server_url, first, room, one_tap=False)
        page_second = _open(ctx_second, live_server_url, second, room, one_tap=False)
        page_second.locator('[data-role="play-again"]').wait_for(state="visible")
        page_second.click('[data-role="play-again"]')
        note = page_first.locator('[data-role="rematch-note"]')
        page_first.wait_for_function("el => el.textContent !== ''", arg=note.element_handle())
        assert note.inner_text() == f"{second.public_name} {words}."
        assert page_first.is_visible('[data-role="play-again"]')  # and the page offers to accept
    finally:
        ctx_first.close()
        ctx_second.close()


# ------------------------------------------------------------------ 10

@pytest.mark.parametrize("lang, width", PAIR)
def test_the_focus_ring_and_the_last_move_differ_in_shape(browser, live_server_url, lang, width):
    """Point 10: the keyboard focus is a ring around the square; the last move is a corner mark."""
    room, user = _local_room(squares=["H8"])
    ctx = _context(browser, lang, width)
    style = """el => { const s = getComputedStyle(el);
        return {outline: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth), shadow: s.boxShadow,
                image: s.backgroundImage}; }"""
    try:
        page = _open(ctx, live_server_url, user, room, one_tap=False)
        page.wait_for_selector('.sq[data-sq="H8"].last')
        last = page.eval_on_selector('.sq[data-sq="H8"]', style)
        assert last["outline"] == "none" and last["shadow"] == "none", "the last move must not be a ring"
        assert "gradient" in last["image"], "the last move is marked by a corner triangle"
        page.focus('.sq[data-sq="H8"]')
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.sq") == "I8"
        focus = page.eval_on_selector('.sq[data-sq="I8"]', style)
        assert focus["outline"] == "solid" and focus["outlineWidth"] >= 3, "the focus is a full ring"
        assert "gradient" not in focus["image"]
        page.keyboard.press("ArrowLeft")  # focus on the last move: both marks show
        both = page.eval_on_selector('.sq[data-sq="H8"]', style)
        assert both["outline"] == "solid" and "gradient" in both["image"]
        page.locator(".board").screenshot(path=str(SHOTS / f"focus-and-last-{lang}-{width}.png"))
    finally:
        ctx.close()


# ------------------------------------------------------------------ 12

TITLE_WATCH = """() => {
  window.__titles = [];
  new MutationObserver(() => window.__titles.push(document.title))
    .observe(document.querySelector('title'), {childList: true, characterData: true, subtree: true});
}"""
SET_HIDDEN = """hidden => {
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => hidden ? 'hidden' : 'visible'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
ASKED = """() => { window.__asked = 0;
  if (window.Notification) window.Notification.requestPermission = () => { window.__asked++; return Promise.resolve('default'); };
  if (navigator.permissions) { const q = navigator.permissions.query.bind(navigator.permissions);
    navigator.permissions.query = (d) => { window.__asked++; return q(d); }; } }"""


@pytest.mark.parametrize("lang, width", PAIR)
def test_the_tab_title_says_whose_turn_and_flashes_in_the_background(browser, live_server_url, lang, width):
    """Point 12: the title says whose turn it is, and flashes "your turn" when the opponent moved
    while the tab was hidden; no permission is asked for."""
    your_turn, your_turn_flash, o_to_move = {
        "vi": ("Đến lượt bạn ·", "Đến lượt bạn!", "Lượt của O ·"),
        "en": ("Your turn ·", "Your turn!", "O to move ·"),
    }[lang]
    room, x, o = _friend_room()
    ctx = _context(browser, lang, width)
    ctx.add_init_script(f"({ASKED})()")
    try:
        page = _open(ctx, live_server_url, x, room)
        page.wait_for_function("t => document.title.startsWith(t)", arg=your_turn)
        base = page.title().split(" · ", 1)[1]
        assert room.display_code in base
        page.locator('.sq[data-sq="H8"]').click()
        page.wait_for_function("t => document.title.startsWith(t)", arg=o_to_move)

        page.evaluate(TITLE_WATCH)
        page.evaluate(SET_HIDDEN, True)
        _play(room, ["I9"], x, o)  # the opponent moves while the tab is in the background
        page.wait_for_function("t => window.__titles.includes(t)", arg=your_turn_flash, timeout=20_000)
        page.wait_for_function("t => window.__titles.includes(t)", arg=base)  # alternating with the page's title

        assert page.get_attribute(".room", "data-title-flash") == "1"

        page.evaluate(SET_HIDDEN, False)  # the player looks again: the flashing stops
        page.wait_for_selector(".room:not([data-title-flash])", state="attached")
        page.wait_for_function("t => document.title.startsWith(t)", arg=your_turn)
        assert page.evaluate("window.__asked") == 0
    finally:
        ctx.close()


# ------------------------------------------------------------------ 13

@pytest.mark.parametrize("lang, pass_word", [("vi", "bỏ lượt"), ("en", "pass")])
def test_reversi_passes_appear_in_the_move_list(browser, live_server_url, lang, pass_word):
    """Point 13: a pass (live, from the move event, and after a reload, from the state) is listed."""
    board = ReversiBoard()
    results = [board.play(sq) for sq in REVERSI_TO_PASS]
    assert results[-1].passed and not any(r.passed for r in results[:-1]) and board.outcome is None
    room, user = _local_room("reversi", REVERSI_TO_PASS[:-1])
    ctx = _context(browser, lang, 1280)
    try:
        page = _open(ctx, live_server_url, user, room)
        page.click(f'.sq[data-sq="{REVERSI_TO_PASS[-1]}"]')
        for attempt in range(2):
            page.wait_for_selector(".move-list .mv.pass")
            rows = page.eval_on_selector_all(".move-list li", ROW_TEXT)
            assert rows[-1] == f"5. {pass_word}", rows  # move 5: Black passes, White moved a3 just before
            assert rows[3] == "4. b2 a3"
            if attempt == 0:
                page.reload()
                page.wait_for_selector('.room[data-connected="1"]')
        _shot(page, f"reversi-pass-{lang}-1280")
    finally:
        ctx.close()


# ------------------------------------------------------------------ 15

@pytest.mark.parametrize("lang, width", PAIR)
def test_a_long_move_list_is_numbered_in_pairs_and_scrolls(browser, live_server_url, lang, width):
    """Point 15: 121 moves: numbered pairs, scrolling inside the box with the last move in view, and
    the move under the pointer is highlighted on the board."""
    moves = _long_game()
    room, user = _local_room(squares=moves)
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, user, room, one_tap=False)
        page.wait_for_function("document.querySelectorAll('.move-list li').length === 61")
        rows = page.eval_on_selector_all(".move-list li", ROW_TEXT)
        assert rows[0] == f"1. {moves[0]} {moves[1]}" and rows[-1] == f"61. {moves[120]}"
        box = page.eval_on_selector(".move-list", "e => ({scroll: e.scrollHeight, client: e.clientHeight, top: e.scrollTop})")
        assert box["scroll"] > box["client"] and box["top"] > 0, "the list scrolls inside its box"
        # Both boxes in one read: a render between two reads may replace the last row (a loaded
        # machine gave a detached row, no box, once).
        last, frame = page.eval_on_selector(".move-list", """e => [e.querySelector('li:last-child'), e].map(
            (el) => { const r = el.getBoundingClientRect(); return {y: r.y, height: r.height}; })""")
        assert frame["y"] <= last["y"] and last["y"] + last["height"] <= frame["y"] + frame["height"] + 1
        if width >= 900:
            assert frame["y"] + frame["height"] <= HEIGHTS[width], "the move list is on the first screen"
            page.hover(f'.move-list .mv[data-sq="{moves[119]}"]')
            page.wait_for_selector(f'.sq[data-sq="{moves[119]}"].hl')
            page.hover(f'.sq[data-sq="{moves[100]}"]')
            page.wait_for_selector(f'.move-list .mv[data-sq="{moves[100]}"].hl')
            assert page.locator(f'.sq[data-sq="{moves[119]}"].hl').count() == 0
        _shot(page, f"long-game-{lang}-{width}")
    finally:
        ctx.close()


# ------------------------------------------------------------------ the home page's rules lines

def test_the_home_rules_lines_follow_the_choice_as_it_changes(browser, live_server_url):
    """The line above and quick match's line (with its "Đổi") name the rules being chosen, live;
    a choice quick match does not offer leaves quick match on its own choice."""
    ctx = _context(browser, "vi", 360)
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/")
        quick = page.locator('[data-testid="quick-rules"]')
        hero = page.locator('[data-role="rules-line"]')
        assert "15×15" in quick.inner_text() and "chặn hai đầu: có" in quick.inner_text()
        page.click(".rules-choice summary")
        page.select_option('[data-role="rules-form"] select[name="preset"]', "exact-five")
        page.select_option('[data-role="rules-form"] select[name="size"]', "19")
        assert "19×19" in quick.inner_text() and "đúng năm quân" in quick.inner_text()
        assert "chặn hai đầu: không" in quick.inner_text() and "Đổi" in quick.inner_text()
        assert "19×19" in hero.inner_text()
        page.select_option('[data-role="rules-form"] select[name="preset"]', "renju")
        assert "15×15" in quick.inner_text() and "chặn hai đầu: có" in quick.inner_text()
        # Renju is 15×15 with five in a row: the numbers are set and locked, and the line says so.
        assert "Renju" in hero.inner_text() and "15×15" in hero.inner_text()
        size = page.locator('[data-role="rules-form"] select[name="size"]')
        assert size.input_value() == "15" and size.is_disabled()
        page.select_option('[data-role="rules-form"] select[name="preset"]', "reversi")
        assert "Cờ lật" in quick.inner_text() and "Cờ lật" in hero.inner_text()
        assert "30 giây" in hero.inner_text()  # a Reversi room's clock, not caro's minute
        assert size.is_hidden() and page.locator('[data-role="rules-form"] select[name="win_length"]').is_hidden()
        # The button seeks what its line says.
        page.select_option('[data-role="rules-form"] select[name="preset"]', "freestyle")
        page.select_option('[data-role="rules-form"] select[name="size"]', "19")
        page.click('[data-testid="quick-match"]')
        page.wait_for_url(re.compile(r"/match/\?.*q=caro-19(&|$)"))
    finally:
        ctx.close()


# ------------------------------------------------------------------ a rated game's end

# Whether an element shows all its text inside its player box (no ellipsis, nothing cut off).
_SHOWN_WHOLE = """(el) => {
  const box = el.closest('.player').getBoundingClientRect(), r = el.getBoundingClientRect();
  return el.scrollWidth <= el.clientWidth + 1 && r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1;
}"""


def _rated_room_over():
    x = account("longnamex", display_name="Nguyen_Thanh_Dat_123")
    o = account("longnameo", display_name="Tran_Minh_Khoa_4567")
    room = rooms.create_room(x)
    rooms.join(room, o)
    room.refresh_from_db()
    Game.objects.filter(pk=room.current_game_id).update(rated=True)
    for ply, (user, square) in enumerate(((x, "H8"), (o, "I9")), start=1):
        games.play_move(room.current_game_id, user, square, ply, uuid.uuid4())
    games.resign(room.current_game_id, o)
    return room, x


@pytest.mark.parametrize("lang, width", WIDE_AND_WORDY)
def test_at_a_rated_game_s_end_names_and_rating_changes_both_show_whole(browser, live_server_url, lang, width):
    room, x = _off_loop(_rated_room_over)
    ctx = _context(browser, lang, width)
    try:
        page = _open(ctx, live_server_url, x, room)
        for side, name in (("X", "Nguyen_Thanh_Dat_123"), ("O", "Tran_Minh_Khoa_4567")):
            delta = page.locator(f'[data-testid="rating-{side}"]')
            delta.wait_for(state="visible")
            shown = page.locator(f'[data-role="name-{side}"]')
            assert shown.inner_text().startswith(name)
            assert shown.evaluate(_SHOWN_WHOLE), f"{side}'s name is cut at {width} px"
            assert delta.evaluate(_SHOWN_WHOLE), f"{side}'s rating change is cut at {width} px"
        assert page.evaluate(NO_OVERFLOW) <= 0
        _shot(page, f"rated-end-{lang}-{width}")
    finally:
        ctx.close()


def _named_friend_room(names):
    room, x, o = _friend_room_now(["H8", "I9"])
    for user, name in zip((x, o), names):
        user.display_name = name
        user.save(update_fields=["display_name"])
    return room, x, o


@pytest.mark.parametrize("width", [1280, 360])
def test_player_names_of_the_longest_allowed_length_fit_mid_game(browser, live_server_url, width):
    """Names up to the 20-character limit are shown whole beside a running clock (no ellipsis)."""
    names = ("Nguyễn_Hoàng_Phương2", "WWWWWWWWWWWWWWWWWWWW"[:14] + "_mmmmm")
    room, x, _o = _off_loop(_named_friend_room, names)
    ctx = _context(browser, "vi", width)
    try:
        page = _open(ctx, live_server_url, x, room)
        for side, name in zip("XO", names):
            selector = f'[data-role="name-{side}"]'
            page.wait_for_function(f"document.querySelector('{selector}').textContent.includes('{name}')")
            widths = page.eval_on_selector(selector, "el => [el.scrollWidth, el.clientWidth, el.parentElement.clientWidth]")
            assert widths[0] <= widths[1] + 1, f"{name} is cut at {width} px (text, name box, player box: {widths})"
        _shot(page, f"player-names-{width}")
    finally:
        ctx.close()
