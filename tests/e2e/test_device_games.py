"""Play on the device (issue 26): "Play the computer" and "Two players on one device" run entirely in
the page, with the browser rules engine and the computer in a Web Worker. Real Chromium against a
real Daphne; no Celery worker: the server plays no move here.

Each game is watched for what the page asks of the network: no websocket at all, and no request
other than GET before the game ends (the finished game then goes to the records queue).
"""

from __future__ import annotations

import json
import re
import time
from urllib.parse import parse_qs, urlparse

import pytest

from caro.games.models import Game
from caro.rooms.models import Room
from tests.e2e.helpers import _context, _off_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

# The phone in Vietnamese, the desktop in English (the other two combinations repeated the same path).
BOTH = [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")]
STONES = "document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length"
NO_OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
# Squares of the first and last columns, every other row: stones there never make a threat, so
# the computer wins unopposed (a whole game, quickly).
FAR = [f"{c}{r}" for c in "AO" for r in range(1, 16, 2)] + [f"{c}{r}" for c in "AO" for r in range(2, 15, 2)]
WORDS = {
    "vi": {"lost": "Bạn thua", "won_x": "X thắng", "your_turn": "Đến lượt bạn", "thinking": "Máy đang nghĩ"},
    "en": {"lost": "You lost", "won_x": "X won", "your_turn": "Your turn", "thinking": "The computer is thinking"},
}


DEVICE_PAGES = ("/choi-may/", "/choi-hai-nguoi/")


class Network:
    """What the on-device pages ask of the network: the websockets they open and their requests
    other than GET (the home page before them has sockets of its own: the lobby's live counts)."""

    def __init__(self, page):
        self.page = page
        self.sockets: list[str] = []
        self.writes: list[tuple[str, str]] = []
        self.uploads: list[int] = []  # the statuses of the records queue's POSTs
        page.on("websocket", lambda ws: self.sockets.append(ws.url) if self.on_device() else None)
        page.on("request", lambda r: self.writes.append((r.method, r.url))
                if r.method != "GET" and self.on_device() else None)
        page.on("response", lambda r: self.uploads.append(r.status)
                if r.request.method == "POST" and "/api/local-games/" in r.url else None)

    def on_device(self) -> bool:
        return urlparse(self.page.url).path in DEVICE_PAGES


def _result(page):
    return page.get_attribute('[data-role="status"]', "data-result")


def _status(page):
    return page.inner_text('[data-role="status"]')


def _one_tap(page):
    toggle = page.locator('[data-role="confirm-toggle"]')
    if toggle.is_checked():
        toggle.set_checked(False)


def _my_turn_or_over(page, timeout=30_000):
    try:
        page.wait_for_function(
            "document.querySelector('.room').classList.contains('my-turn')"
            " || document.querySelector('[data-role=status]').dataset.result", timeout=timeout)
    except Exception:
        said = page.evaluate("[...document.querySelectorAll('[data-role=status], [data-role=conn], [data-role=note]')].map(e => e.textContent)")
        raise AssertionError(f"neither the person's turn nor the end: {said}") from None


def _empty(page, square):
    return page.get_attribute(f'.sq[data-sq="{square}"]', "data-stone") == ""


def _from_home(page, live_server_url, testid, preset=None, level=None, side=None):
    page.goto(live_server_url + "/")
    if preset:
        page.click(".rules-choice summary")
        page.select_option('select[name="preset"]', preset)
    form = page.locator(f'form:has([data-testid="{testid}"])')
    if level:
        form.locator('select[name="level"]').select_option(level)
    if side:
        form.locator('select[name="side"]').select_option(side)
    page.click(f'[data-testid="{testid}"]')
    page.wait_for_selector('.room[data-connected="1"] .sq')


def _lose_unopposed(page, max_moves=len(FAR)):
    """The person plays the far squares in turn until the game is over; returns the moves made."""
    made = 0
    for square in FAR[:max_moves]:
        _my_turn_or_over(page)
        if _result(page):
            return made
        if not _empty(page, square):
            continue
        before = page.evaluate(STONES)
        page.click(f'.sq[data-sq="{square}"]')
        page.wait_for_function(f"{STONES} > {before}")
        made += 1
    _my_turn_or_over(page)
    return made


@pytest.mark.parametrize("level, lang, width", [
    pytest.param("easy", "vi", 360, id="easy-vi-360"),
    pytest.param("medium", "en", 360, id="medium-en-360"),
    pytest.param("hard", "en", 1280, id="hard-en-1280"),  # (Hard in Vietnamese too repeated this path)
])
def test_a_whole_game_against_the_computer_is_played_on_the_device(browser, live_server_url, level, lang, width):
    ctx = _context(browser, lang, width)
    try:
        page = ctx.new_page()
        net = Network(page)
        _from_home(page, live_server_url, "play-computer", level=level, side="X")
        query = parse_qs(urlparse(page.url).query)
        assert urlparse(page.url).path == "/choi-may/"
        assert query["level"] == [level] and query["side"] == ["X"] and query["preset"] == ["caro-vn"]
        assert "không tính giờ" in page.inner_text(".rules-line") or "no clock" in page.inner_text(".rules-line")
        _one_tap(page)
        assert WORDS[lang]["your_turn"] in _status(page)
        writes_before = len(net.writes)
        made = _lose_unopposed(page)
        assert _result(page) == "finished", _status(page)
        assert WORDS[lang]["lost"] in _status(page)
        # caro-vn allows an overline: the computer's winning run is five stones or more.
        assert page.locator(".sq.win").count() >= 5
        assert net.sockets == [], "the device game opened a websocket"
        assert net.writes[writes_before:] == [] or all("/api/" in url for _m, url in net.writes[writes_before:]), net.writes
        plies = page.evaluate(STONES)
        assert plies == 2 * made  # the computer's five was the last move
        assert page.locator(".move-list .mv[data-sq]").count() == plies
        assert page.is_visible('[data-role="play-again"]') and page.is_visible('[data-role="level"]')
        assert page.evaluate(NO_OVERFLOW) <= 0
        # No room and no game on the server while it was played; once it is over, the records queue
        # sends its record (CONTRACTS.md section 4), and the server stores it once, finished.
        assert net.writes[:writes_before] == []
        deadline = time.monotonic() + 30
        while 201 not in net.uploads and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        assert net.uploads == [201], net.uploads
        stored = _off_loop(lambda: list(Game.objects.values_list("status", "ply", "bot_level")))
        assert _off_loop(Room.objects.count) == 0
        assert stored == [(Game.Status.FINISHED, plies, level)], stored
    finally:
        ctx.close()


@pytest.mark.parametrize("lang, width", BOTH)
def test_a_whole_game_on_one_device(browser, live_server_url, lang, width):
    ctx = _context(browser, lang, width)
    try:
        page = ctx.new_page()
        net = Network(page)
        _from_home(page, live_server_url, "play-local")
        assert urlparse(page.url).path == "/choi-hai-nguoi/"
        _one_tap(page)
        for square in ["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9"]:
            page.click(f'.sq[data-sq="{square}"]')
            page.wait_for_selector(f'.sq[data-sq="{square}"]:not([data-stone=""])')
        page.click('.sq[data-sq="L8"]')
        page.wait_for_selector('[data-role="status"][data-result="finished"]')
        assert WORDS[lang]["won_x"] in _status(page)
        assert sorted(page.eval_on_selector_all(".sq.win", "els => els.map(e => e.dataset.sq)")) == ["H8", "I8", "J8", "K8", "L8"]
        assert page.locator(".move-list li").count() == 5
        assert net.sockets == [] and [w for w in net.writes if "/api/" not in w[1]] == []
        # Once the server stored the record, the page links to it (replay and analysis).
        record = page.locator('[data-testid="device-record"]')
        record.wait_for(state="visible")
        href = record.get_attribute("href")
        assert re.fullmatch(r"/van/\d+/" if lang == "vi" else r"/en/game/\d+/", href), href
        assert _off_loop(lambda: Game.objects.get(pk=int(re.search(r"\d+", href).group())).moves.count()) == 9
        # Play again: the loser (the O side) moves first; the board is empty.
        page.click('[data-role="play-again"]')
        page.wait_for_function(f"{STONES} === 0 && !document.querySelector('[data-role=status]').dataset.result")
        assert record.is_hidden()
        assert page.locator(".move-list li").count() == 0
        assert page.evaluate(NO_OVERFLOW) <= 0
    finally:
        ctx.close()


#: An easy 13×13 game against the computer on the device page, the human playing X.
EASY_13 = "/choi-may/?preset=caro-vn&size=13&level=easy&side=X"
PLACED = "els => els.map(e => e.dataset.sq + e.dataset.stone).sort()"


def _easy_game_after(page, live_server_url, squares):
    """Open EASY_13 and play `squares` (each answered by the computer); returns the stones placed
    (["G7X", ...], sorted)."""
    page.goto(live_server_url + EASY_13)
    page.wait_for_selector(".sq")
    _one_tap(page)
    for n, square in enumerate(squares, 1):
        page.click(f'.sq[data-sq="{square}"]')
        page.wait_for_function(f"{STONES} === {2 * n}")
    return page.eval_on_selector_all('.sq:not([data-stone=""])', PLACED)


def test_a_reload_mid_game_keeps_the_game(browser, live_server_url):
    ctx = _context(browser, "vi", 360)
    try:
        page = ctx.new_page()
        before = _easy_game_after(page, live_server_url, ["G7", "A1"])
        assert "game=" in page.url and "13×13" in page.inner_text(".rules-line")
        change = parse_qs(urlparse(page.get_attribute('[data-testid="change-rules"]', "href")).query)
        assert change == {"preset": ["caro-vn"], "rules": ["open"], "size": ["13"], "win_length": ["5"]}
        page.reload()
        page.wait_for_function(f"{STONES} === 4")
        assert page.eval_on_selector_all('.sq:not([data-stone=""])', PLACED) == before
        assert page.locator(".sq").count() == 169 and page.locator(".move-list .mv[data-sq]").count() == 4
        _one_tap(page)
        page.click('.sq[data-sq="M13"]')
        page.wait_for_function(f"{STONES} === 6")  # the game goes on: the computer answered
        # The same address without the game's id starts a new game.
        page.goto(live_server_url + EASY_13)
        page.wait_for_function(f"{STONES} === 0")
    finally:
        ctx.close()


def test_switching_language_mid_game_keeps_the_game(browser, live_server_url):
    """The language switch sends the address as the page's script left it (with the game's id), not
    as it was served: the game goes on in English (it was lost: an empty board, a new game id)."""
    ctx = _context(browser, "vi", 360)
    try:
        page = ctx.new_page()
        before = _easy_game_after(page, live_server_url, ["G7"])
        game = parse_qs(urlparse(page.url).query)["game"]
        page.click('[data-testid="lang-en"]')
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.wait_for_function(f"{STONES} === 2")
        assert parse_qs(urlparse(page.url).query)["game"] == game
        assert page.eval_on_selector_all('.sq:not([data-stone=""])', PLACED) == before
    finally:
        ctx.close()


def test_take_back_and_the_next_game_s_level_against_the_computer(browser, live_server_url):
    ctx = _context(browser, "en", 1280)
    try:
        page = ctx.new_page()
        _from_home(page, live_server_url, "play-computer", level="medium", side="X")
        _one_tap(page)
        page.click('.sq[data-sq="H8"]')
        page.wait_for_function(f"{STONES} === 2")
        page.click('.sq[data-sq="B2"]')
        page.wait_for_function(f"{STONES} === 4")
        assert page.is_visible('[data-role="undo"]')
        page.click('[data-role="undo"]')
        page.wait_for_function(f"{STONES} === 2")  # my B2 and the reply are gone
        assert _empty(page, "B2") and page.get_attribute('.sq[data-sq="H8"]', "data-stone") == "X"
        assert "Your turn" in _status(page)
        page.once("dialog", lambda d: d.accept())
        page.click('[data-role="resign"]')
        page.wait_for_selector('[data-role="status"][data-result="finished"]')
        assert "You resigned" in _status(page)
        page.select_option('[data-role="level"]', "hard")
        page.click('[data-role="play-again"]')
        # the loser moves first: the person, as X, against Hard (no take-back at Hard in caro)
        page.wait_for_function(f"{STONES} === 0 && !document.querySelector('[data-role=status]').dataset.result")
        assert "Computer (Hard)" in page.inner_text('[data-role="name-O"]')
        assert parse_qs(urlparse(page.url).query)["level"] == ["hard"]  # a copied address starts Hard too
        page.click('.sq[data-sq="H8"]')
        page.wait_for_function(f"{STONES} === 2", timeout=30_000)
        assert not page.is_visible('[data-role="undo"]')
    finally:
        ctx.close()


def test_a_whole_reversi_game_against_the_computer_with_its_passes(browser, live_server_url):
    ctx = _context(browser, "vi", 360)
    try:
        page = ctx.new_page()
        net = Network(page)
        _from_home(page, live_server_url, "play-computer", preset="reversi", level="easy", side="X")
        assert page.locator(".sq").count() == 64 and page.locator(".sq.legal").count() == 4
        assert "Cờ lật" in page.inner_text(".rules-line")
        _one_tap(page)
        for _ in range(70):
            _my_turn_or_over(page)
            if _result(page):
                break
            before = page.evaluate(STONES)
            page.tap(".sq.legal >> nth=0")
            page.wait_for_function(f"{STONES} > {before}")
        assert _result(page) == "finished"
        assert net.sockets == [] and [w for w in net.writes if "/api/" not in w[1]] == []
        assert page.evaluate(NO_OVERFLOW) <= 0
    finally:
        ctx.close()


# One move of the person and, while the computer answers it, a click on the move list: all in the
# page, with no round trip to the test between the move and the click (on a busy machine those
# round trips outlasted the computer's whole search, and it was "never caught thinking"). Returns
# null when the computer had answered before the page saw it think; else whether the click lit its
# square and whether the computer was still thinking after the page had drawn a frame (a search on
# the page's main thread would hold the frame back until it ended).
MOVE_AND_CLICK_WHILE_THINKING = """async (square) => {
  const thinking = () => document.querySelector('[data-role=status]').textContent.includes('thinking');
  const stones = () => document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length;
  const before = stones();
  document.querySelector(`.sq[data-sq="${square}"]`).click();
  while (!thinking() && stones() < before + 2) await new Promise((r) => setTimeout(r, 0));
  if (!thinking()) return null;
  const mv = document.querySelector('.move-list .mv[data-sq]');
  mv.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
  mv.click();
  await new Promise((r) => requestAnimationFrame(() => r()));
  return { lit: document.querySelector(`.sq.hl[data-sq="${mv.dataset.sq}"]`) !== null, still: thinking() };
}"""


def test_the_page_answers_while_hard_thinks(browser, live_server_url):
    """Hard searches in the worker: meanwhile the move list answers a click at once (its move is
    highlighted on the board) and the page goes on drawing frames: its main thread is not the one
    searching. (No duration is asserted: long tasks measured on a busy machine say how busy it is.)"""
    ctx = _context(browser, "en", 1280)
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/choi-may/?preset=freestyle&level=hard&side=X")
        page.wait_for_selector(".sq")
        _one_tap(page)
        caught = 0
        for square in ["H8", "J10", "G9", "K7", "F6", "L12"]:
            _my_turn_or_over(page)
            if _result(page) or not _empty(page, square):
                break
            took = page.evaluate(MOVE_AND_CLICK_WHILE_THINKING, square)
            if took and took["still"]:
                caught += 1
                assert took["lit"], "the move list did not answer"
        assert caught >= 2, "the computer was never caught thinking"
    finally:
        ctx.close()


def test_the_matchmaking_offer_and_a_record_open_the_device_page(browser, live_server_url):
    """'Play the computer instead' and 'Continue from here against the computer' open play_computer
    (GET): the record's moves so far come along, and the person plays the side to move."""
    from accounts.guests import create_guest
    from caro.games import services as games
    from caro.rooms import services as rooms
    import uuid

    def finished_game():
        x, o = create_guest(), create_guest()
        room = rooms.create_room(x)
        rooms.join(room, o)
        game = Game.objects.get(pk=room.current_game_id)
        for ply, square in enumerate(["H8", "I9", "H9"], start=1):
            games.play_move(game.pk, x if ply % 2 else o, square, ply, uuid.uuid4())
        games.resign(game.pk, o)  # over: its record is public (a live private room's is not)
        return game.pk

    game_id = _off_loop(finished_game)
    ctx = _context(browser, "en", 1280)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server_url}/en/game/{game_id}/?ply=2")
        page.select_option('[data-role="continue"] select[name="level"]', "easy")
        page.click('[data-testid="continue"]')
        page.wait_for_url(re.compile(r"/choi-may/\?"))
        page.wait_for_function(f"{STONES} === 2")  # H8 and I9: X to move, so the person holds X
        query = parse_qs(urlparse(page.url).query)
        assert query["level"] == ["easy"] and query["preset"] == ["caro-vn"]
        assert page.get_attribute('.sq[data-sq="H8"]', "data-stone") == "X"
        assert page.get_attribute('.sq[data-sq="I9"]', "data-stone") == "O"
        _my_turn_or_over(page)
        assert "Your turn" in _status(page) and "(you)" in page.inner_text('[data-role="name-X"]')
        _one_tap(page)
        page.click('.sq[data-sq="A1"]')
        page.wait_for_function(f"{STONES} === 4")  # the computer answered
        page.goto(live_server_url + "/match/?mode=quick&q=caro-15-blocked")
        form = page.locator('[data-testid="computer-offer"] form')
        assert form.get_attribute("method") == "get" and form.get_attribute("action") == "/choi-may/"
    finally:
        ctx.close()


# --- Every caro rule set against the computer, to the end ------------------------------------------

# What changes on the page at every step of a game (stones, opening steps, the status line).
PROGRESS = ("[document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length,"
            " document.querySelectorAll('[data-testid=opening-log] li').length,"
            " document.querySelector('[data-role=status]').textContent].join('|')")


def _offer_pair(page):
    """Two empty points of column A for RIF's 5th-move offer that no symmetry of the board maps
    onto each other (a corner and an edge point, or two rows that are not mirror images)."""
    empty = [f"A{r}" for r in range(1, 16) if _empty(page, f"A{r}")]
    first = empty[0]
    second = next(sq for sq in empty[1:] if int(sq[1:]) + int(first[1:]) != 16)
    return first, second


def _one_step(page, far):
    """The person's part of the current step: a button of the opening panel when the step is a
    choice, the two points of an offer, a point of the step's area, or the next far square."""
    def button(testid):
        loc = page.locator(f'[data-testid="{testid}"]:not([disabled])')
        return loc if loc.count() else None

    offer = page.locator('[data-testid="opening-offer"]')
    if offer.count():
        for square in _offer_pair(page):
            page.click(f'.sq[data-sq="{square}"]')
        page.wait_for_selector('[data-testid="opening-offer"]:not([disabled])')
        offer.click()
        return
    select = page.locator('[data-testid^="opening-select-"]')
    if select.count():
        select.first.click()
        return
    for testid in ("opening-keep", "opening-choose-O"):
        if (btn := button(testid)) is not None:
            btn.click()
            return
    area = page.locator('.sq.area[data-stone=""]')
    if area.count():
        area.first.click()
        return
    page.click(f'.sq[data-sq="{next(sq for sq in far if _empty(page, sq))}"]')


#: The rule sets whose page differs: an exact win (exact-five), Renju's fouls for the person as X,
#: and the RIF and Swap2 opening steps; caro-vn is played whole at every level above. freestyle,
#: caro-exact and caro-edge-open took this same page path with other rules in the dict: that the
#: computer plays legally under them is proven in Node (tests/js/computer/caro-legal.test.js, every
#: rule set at every level); the server's replay of an uploaded record is one code path for every
#: rule set (tests/integration/records/test_device_uploads.py), and the Python engine's verdicts
#: under each set are held to the browser engine's by tests/unit/engine/test_engines_agree.py.
PAGE_RULE_SETS = ["exact-five", "renju", "renju-rif", "swap2"]


@pytest.mark.parametrize("preset", PAGE_RULE_SETS)
def test_every_caro_rule_set_against_the_computer_to_the_end(browser, live_server_url, preset):
    """The person (X at the start) plays the far squares and takes the opening's steps (RIF: the
    three stones in their areas, keep or swap, the 5th-move offer or choice; Swap2: the choice),
    the computer takes its own in the page; the game runs to its end, no socket, and the server
    takes the finished game's record (its Python engine replays the opening and every move)."""
    ctx = _context(browser, "en", 1280)
    try:
        page = ctx.new_page()
        net = Network(page)
        page.goto(f"{live_server_url}/choi-may/?preset={preset}&level=easy&side=X")
        page.wait_for_selector('.room[data-connected="1"] .sq')
        _one_tap(page)
        far = FAR + [f"{c}{r}" for c in "BN" for r in range(1, 16, 2)]
        for _ in range(80):
            page.wait_for_function(
                "document.querySelector('.room').classList.contains('my-turn')"
                " || document.querySelector('[data-role=status]').dataset.result"
                " || document.querySelector('[data-role=opening-choices] button[data-opening]:not([disabled])')",
                timeout=60_000)
            if _result(page):
                break
            before = page.evaluate(PROGRESS)
            _one_step(page, far)
            page.wait_for_function(f"{PROGRESS} !== {before!r}", timeout=60_000)
        assert _result(page) == "finished", _status(page)
        assert re.search(r"You (lost|won)|draw", _status(page)), _status(page)
        steps = page.locator('[data-testid="opening-log"] li').count()
        assert steps == {"renju-rif": 7, "swap2": 4}.get(preset, 0) or (preset == "swap2" and steps == 6), steps
        assert net.sockets == []
        deadline = time.monotonic() + 30
        while not net.uploads and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        refused = page.evaluate("import('/static/js/records-queue.js').then((q) => q.pending())")
        assert net.uploads == [201], json.dumps(refused)
        [(rules, plies)] = _off_loop(lambda: list(Game.objects.values_list("rules", "ply")))
        assert plies == page.evaluate(STONES)
        assert rules["renju"] == preset.startswith("renju")
    finally:
        ctx.close()
